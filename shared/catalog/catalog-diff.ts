// What a catalog import or buy-page sync would change, worked out before anything is written
// so it can be printed (`--dry-run`), applied in one transaction and logged for the status page.

/** A product type row with every lifecycle field spelled out (the database's columns). */
export type CatalogTypeRow = {
  product_id: string;
  product_name: string;
  family: string;
  sort_order: number;
  launched_on: string | null;
  retired_on: string | null;
  buy_page: string | null;
};

/** A model row with every lifecycle field spelled out (the database's columns). */
export type CatalogModelRow = {
  product_id: string;
  country_code: string;
  part_number: string;
  display_name: string;
  source: string;
  retired_on: string | null;
};

/** A model named in a change: which part, of which type, in which country. */
export type ChangedPart = {
  product_id: string;
  country_code: string;
  part_number: string;
  display_name: string;
};

/** Everything one change does, with the rows to write. */
export type CatalogDiff = {
  typesAdded: string[];
  typesChanged: { product_id: string; fields: string[] }[];
  typesRetired: string[];
  typesReturned: string[];
  partsAdded: ChangedPart[];
  partsRetired: ChangedPart[];
  partsReturned: ChangedPart[];
  partsChanged: (ChangedPart & { fields: string[] })[];
  /** Rows to insert or update; empty when nothing changes. */
  typeWrites: CatalogTypeRow[];
  modelWrites: CatalogModelRow[];
};

/** The counts of a diff, for logs and the status page. */
export type CatalogDiffSummary = {
  typesAdded: string[];
  typesChanged: string[];
  typesRetired: string[];
  typesReturned: string[];
  partsAdded: string[];
  partsRetired: string[];
  partsReturned: string[];
  partsChanged: string[];
};

const TYPE_FIELDS = ['product_name', 'family', 'sort_order', 'launched_on', 'buy_page'] as const;
const MODEL_FIELDS = ['product_id', 'display_name', 'source'] as const;

function modelKey(model: { country_code: string; part_number: string }): string {
  return `${model.country_code}|${model.part_number}`;
}

function describePart(model: CatalogModelRow): ChangedPart {
  return {
    product_id: model.product_id,
    country_code: model.country_code,
    part_number: model.part_number,
    display_name: model.display_name,
  };
}

/**
 * Compares the catalog now with the rows a change wants. Types and models absent from `next`
 * are left alone, except models `isRetiredWhenMissing` claims (the types a file lists, or the
 * pages a sync read): those are retired from `today` if sold. A model listed again after its
 * retirement comes back.
 */
export function diffCatalog(
  current: { types: readonly CatalogTypeRow[]; models: readonly CatalogModelRow[] },
  next: { types: readonly CatalogTypeRow[]; models: readonly CatalogModelRow[] },
  options: { today: string; isRetiredWhenMissing?: (model: CatalogModelRow) => boolean },
): CatalogDiff {
  const diff: CatalogDiff = {
    typesAdded: [],
    typesChanged: [],
    typesRetired: [],
    typesReturned: [],
    partsAdded: [],
    partsRetired: [],
    partsReturned: [],
    partsChanged: [],
    typeWrites: [],
    modelWrites: [],
  };
  const typesNow = new Map(current.types.map((type) => [type.product_id, type]));
  for (const type of next.types) {
    const known = typesNow.get(type.product_id);
    if (known === undefined) {
      diff.typesAdded.push(type.product_id);
      diff.typeWrites.push(type);
      continue;
    }
    const fields: string[] = TYPE_FIELDS.filter((field) => known[field] !== type[field]);
    const wasRetired = known.retired_on !== null;
    const isRetired = type.retired_on !== null;
    if (!wasRetired && isRetired) diff.typesRetired.push(type.product_id);
    else if (wasRetired && !isRetired) diff.typesReturned.push(type.product_id);
    else if (known.retired_on !== type.retired_on) fields.push('retired_on');
    if (fields.length > 0) diff.typesChanged.push({ product_id: type.product_id, fields });
    if (fields.length > 0 || wasRetired !== isRetired) diff.typeWrites.push(type);
  }

  const modelsNow = new Map(current.models.map((model) => [modelKey(model), model]));
  const listed = new Set<string>();
  for (const model of next.models) {
    const key = modelKey(model);
    listed.add(key);
    const known = modelsNow.get(key);
    if (known === undefined) {
      diff.partsAdded.push(describePart(model));
      diff.modelWrites.push(model);
      continue;
    }
    const fields = MODEL_FIELDS.filter((field) => known[field] !== model[field]);
    const wasRetired = known.retired_on !== null;
    const isRetired = model.retired_on !== null;
    // An earlier retirement date is kept: it says since when the model has not been sold.
    const retiredOn = wasRetired && isRetired ? known.retired_on : model.retired_on;
    if (!wasRetired && isRetired) diff.partsRetired.push(describePart(model));
    else if (wasRetired && !isRetired) diff.partsReturned.push(describePart(model));
    if (fields.length > 0) diff.partsChanged.push({ ...describePart(model), fields });
    if (fields.length > 0 || wasRetired !== isRetired) {
      diff.modelWrites.push({ ...model, retired_on: retiredOn });
    }
  }
  const isClaimed = options.isRetiredWhenMissing;
  if (isClaimed !== undefined) {
    for (const model of current.models) {
      if (listed.has(modelKey(model)) || model.retired_on !== null || !isClaimed(model)) continue;
      diff.partsRetired.push(describePart(model));
      diff.modelWrites.push({ ...model, retired_on: options.today });
    }
  }
  return diff;
}

/** Whether a diff changes nothing. */
export function isEmptyDiff(diff: CatalogDiff): boolean {
  return diff.typeWrites.length === 0 && diff.modelWrites.length === 0;
}

function namePart(part: ChangedPart): string {
  return `${part.part_number} (${part.country_code}, ${part.display_name})`;
}

/** The diff as lists of names, small enough to log and to show on the status page. */
export function summarizeDiff(diff: CatalogDiff): CatalogDiffSummary {
  return {
    typesAdded: diff.typesAdded,
    typesChanged: diff.typesChanged.map((type) => `${type.product_id}: ${type.fields.join(', ')}`),
    typesRetired: diff.typesRetired,
    typesReturned: diff.typesReturned,
    partsAdded: diff.partsAdded.map(namePart),
    partsRetired: diff.partsRetired.map(namePart),
    partsReturned: diff.partsReturned.map(namePart),
    partsChanged: diff.partsChanged.map((part) => `${namePart(part)}: ${part.fields.join(', ')}`),
  };
}

/** Lines for a terminal: one heading per kind of change with its entries, or "No changes.". */
export function formatDiff(summary: CatalogDiffSummary): string[] {
  const sections: [string, string[]][] = [
    ['Product types added', summary.typesAdded],
    ['Product types changed', summary.typesChanged],
    ['Product types retired', summary.typesRetired],
    ['Product types sold again', summary.typesReturned],
    ['Parts added', summary.partsAdded],
    ['Parts retired', summary.partsRetired],
    ['Parts sold again', summary.partsReturned],
    ['Parts changed', summary.partsChanged],
  ];
  const lines: string[] = [];
  for (const [heading, entries] of sections) {
    if (entries.length === 0) continue;
    lines.push(`${heading} (${entries.length}):`);
    for (const entry of entries) lines.push(`  ${entry}`);
  }
  return lines.length === 0 ? ['No changes.'] : lines;
}
