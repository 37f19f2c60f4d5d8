import type { RetirementEvidence } from '#shared/upstream/index.ts';
import { RETIRE_AFTER_ANSWERS } from '#shared/watch/engine/index.ts';
import type { LocalWatchCatalog } from './local-catalog.ts';
import { invalidPartKey, type LocalWatchState } from './state.ts';

// Parts Apple retired, as this machine's answers show them: a part `ineligible` at every
// listed store of RETIRE_AFTER_ANSWERS answers in a row is retired in that country. It is
// asked no more, and never chosen as control, until the catalog changes the model it was
// found for (another name or product type, or the model gone).

/** A catalog model as retirement records it. */
export type RetiredModel = { product_id: string; display_name: string };

/** True when the catalog still lists the part as the model a record was made for. */
function isSameModel(
  catalog: LocalWatchCatalog,
  countryCode: string,
  partNumber: string,
  model: RetiredModel,
): boolean {
  return catalog
    .listModels(model.product_id, countryCode)
    .some(
      (listed) => listed.part_number === partNumber && listed.display_name === model.display_name,
    );
}

/** True while the part is retired in the country and the catalog has not changed its model. */
export function isPartRetired(
  state: LocalWatchState,
  catalog: LocalWatchCatalog,
  countryCode: string,
  partNumber: string,
): boolean {
  const record = state.retired_parts[invalidPartKey(countryCode, partNumber)];
  return (
    record !== undefined &&
    record.retired_at !== null &&
    isSameModel(catalog, countryCode, partNumber, record)
  );
}

/**
 * Counts one believed answer: each part ineligible everywhere extends its run (a record made
 * for another model starts over), each part reported sold ends it. Parts whose model cannot
 * be found are not counted. Answers the parts this answer retired.
 */
export function recordLocalRetirementEvidence(
  state: LocalWatchState,
  countryCode: string,
  evidence: RetirementEvidence,
  findModel: (partNumber: string) => RetiredModel | undefined,
  now: number,
): string[] {
  const retired: string[] = [];
  for (const partNumber of evidence.ineligible) {
    const model = findModel(partNumber);
    if (model === undefined) continue;
    const key = invalidPartKey(countryCode, partNumber);
    const previous = state.retired_parts[key];
    const isSame =
      previous !== undefined &&
      previous.product_id === model.product_id &&
      previous.display_name === model.display_name;
    const answers = isSame ? previous.ineligible_answers + 1 : 1;
    const wasRetired = isSame && previous.retired_at !== null;
    const retiredAt = wasRetired
      ? previous.retired_at
      : answers >= RETIRE_AFTER_ANSWERS
        ? now
        : null;
    state.retired_parts[key] = {
      country_code: countryCode,
      part_number: partNumber,
      product_id: model.product_id,
      display_name: model.display_name,
      ineligible_answers: answers,
      last_answer_at: now,
      retired_at: retiredAt,
    };
    if (!wasRetired && retiredAt !== null) retired.push(partNumber);
  }
  for (const partNumber of evidence.sold) {
    delete state.retired_parts[invalidPartKey(countryCode, partNumber)];
  }
  return retired;
}

/** Drops records whose model the catalog changed: the part gets asked again. */
export function pruneRetiredParts(state: LocalWatchState, catalog: LocalWatchCatalog): void {
  for (const [key, record] of Object.entries(state.retired_parts)) {
    if (!isSameModel(catalog, record.country_code, record.part_number, record)) {
      delete state.retired_parts[key];
    }
  }
}
