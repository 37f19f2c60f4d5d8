// A JSON value held against a written description of its shape (keys, nesting, types), the
// way `shelfwatch doctor` holds Apple's answers against the captured ones. Each field says
// whether Shelfwatch reads it: a difference there is drift (the product is affected); any
// other difference from the capture is a note (Apple changed something nobody reads yet).

/** A JSON type as the description names it; `any` takes every value (nulls included). */
export type JsonType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null' | 'any';

/** What a value is expected to look like. */
export type JsonShape =
  | { type: 'string' | 'number' | 'boolean' | 'any' }
  | {
      type: 'object';
      fields: Readonly<Record<string, FieldShape>>;
      /** Keys beyond `fields` are expected (nested records nobody reads): no notes for them. */
      isOpen?: boolean;
    }
  | { type: 'array'; items: JsonShape }
  /** An object keyed by data (part numbers), every value of one shape. */
  | { type: 'map'; values: JsonShape };

/** One field of an object: its shape, and what its absence or a null means. */
export type FieldShape = {
  shape: JsonShape;
  /** Shelfwatch's parser reads it (or, for containers, something inside it). */
  isRead: boolean;
  /** May be absent (seen missing in some captured or documented answers). */
  isOptional?: boolean;
  /** May be null (null in a capture). */
  isNullable?: boolean;
};

/** One way a value differs from its shape. */
export type ShapeDifference = {
  /** Where, with `[]` for any array item and `*` for any map key ("body.stores[].rank"). */
  path: string;
  kind: 'missing' | 'type' | 'new';
  /** True when Shelfwatch reads the field: this difference is drift. */
  isRead: boolean;
  /** The type found, for a type difference ("string", "null"). */
  found?: JsonType;
  /** The type expected, for a type difference. */
  expected?: JsonType;
};

/** Every difference between `value` and `shape`, one per path and kind, in document order. */
export function compareWithShape(value: unknown, shape: JsonShape): ShapeDifference[] {
  const found = new Map<string, ShapeDifference>();
  walk(value, shape, '', true, (difference) => {
    const key = `${difference.kind} ${difference.path}`;
    if (!found.has(key)) found.set(key, difference);
  });
  return [...found.values()];
}

/** The JSON type of a decoded value. */
export function describeJsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' ? type : 'object';
}

/** Describes one difference for a person ("body.stores[].rank is missing"). */
export function describeDifference(difference: ShapeDifference): string {
  const where = difference.path === '' ? 'the answer' : difference.path;
  switch (difference.kind) {
    case 'missing':
      return `${where} is missing`;
    case 'new':
      return `${where} is new (not in the capture)`;
    case 'type':
      return `${where} is ${difference.found ?? '?'}, the capture has ${difference.expected ?? '?'}`;
  }
}

function expectedType(shape: JsonShape): JsonType {
  return shape.type === 'map' ? 'object' : shape.type;
}

function walk(
  value: unknown,
  shape: JsonShape,
  path: string,
  isRead: boolean,
  report: (difference: ShapeDifference) => void,
): void {
  if (shape.type === 'any') return;
  const type = describeJsonType(value);
  if (type !== expectedType(shape)) {
    report({ path, kind: 'type', isRead, found: type, expected: expectedType(shape) });
    return;
  }
  if (shape.type === 'array') {
    for (const item of value as unknown[]) walk(item, shape.items, `${path}[]`, isRead, report);
    return;
  }
  if (shape.type === 'map') {
    for (const entry of Object.values(value as Record<string, unknown>)) {
      walk(entry, shape.values, join(path, '*'), isRead, report);
    }
    return;
  }
  if (shape.type === 'object') walkObject(value as Record<string, unknown>, shape, path, report);
}

function walkObject(
  value: Record<string, unknown>,
  shape: Extract<JsonShape, { type: 'object' }>,
  path: string,
  report: (difference: ShapeDifference) => void,
): void {
  for (const [key, field] of Object.entries(shape.fields)) {
    const fieldPath = join(path, key);
    if (!Object.hasOwn(value, key)) {
      if (field.isOptional !== true)
        report({ path: fieldPath, kind: 'missing', isRead: field.isRead });
      continue;
    }
    const child = value[key];
    if (child === null && (field.isNullable === true || field.shape.type === 'any')) continue;
    walk(child, field.shape, fieldPath, field.isRead, report);
  }
  if (shape.isOpen === true) return;
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(shape.fields, key)) {
      report({ path: join(path, key), kind: 'new', isRead: false });
    }
  }
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
