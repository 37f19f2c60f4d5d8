// Structural comparison of JSON answers: keys, nesting and value types, never values. A
// capture's examples are merged into one shape (every element of an array, every capture
// given), then each simulated answer is checked against it in both directions.

type Kind = 'null' | 'string' | 'number' | 'boolean' | 'array' | 'object';

type Shape = {
  kinds: Set<Kind>;
  /** Keys of the object examples; `isRequired` when every example has the key. */
  keys: Map<string, { shape: Shape; isRequired: boolean }>;
  /** The merged shape of every element of the array examples; undefined when all were empty. */
  items: Shape | undefined;
};

/** Options of compareShapes. */
export type ShapeComparison = {
  /**
   * Paths (as drifts name them, e.g. "body.stores[].state") the simulator may send although
   * the capture lacks them, each with the reason it is not drift.
   */
  allowedExtraKeys?: Readonly<Record<string, string>>;
};

// Apple keys some objects by part number ("MJX94AH/A"); those keys are data, not structure.
const PART_NUMBER_KEY = /^[A-Z0-9]{5}[A-Z]{1,2}\/[A-Z]$/;
const PART_KEY = '<part>';

function kindOf(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const kind = typeof value;
  if (kind === 'string' || kind === 'number' || kind === 'boolean') return kind;
  if (kind === 'object') return 'object';
  throw new TypeError(`Not a JSON value: ${kind}`);
}

function normalizeKey(key: string): string {
  return PART_NUMBER_KEY.test(key) ? PART_KEY : key;
}

function listEntries(value: Record<string, unknown>): [string, unknown][] {
  return Object.entries(value).map(([key, child]) => [normalizeKey(key), child]);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return kindOf(value) === 'object';
}

// Merges example values found at one place into the shape they share.
function describeShape(examples: readonly unknown[]): Shape {
  const objects = examples.filter(isPlainObject);
  const arrays = examples.filter((value): value is unknown[] => Array.isArray(value));
  const keys = new Map<string, { shape: Shape; isRequired: boolean }>();
  const keyNames = new Set(objects.flatMap((object) => listEntries(object).map(([key]) => key)));
  for (const key of keyNames) {
    const holders = objects.map((object) => listEntries(object).filter(([name]) => name === key));
    const values = holders.flat().map(([, child]) => child);
    keys.set(key, {
      shape: describeShape(values),
      isRequired: holders.every((found) => found.length > 0),
    });
  }
  const elements = arrays.flat();
  return {
    kinds: new Set(examples.map(kindOf)),
    keys,
    items: elements.length === 0 ? undefined : describeShape(elements),
  };
}

/**
 * Every structural difference between the capture(s) and the simulated answer(s): a key the
 * capture has that the simulator lacks, a key the simulator invents, a value of another type,
 * a null where the capture always has a value. Where the capture holds only null (Apple's
 * missing value, type unknown) any value is accepted.
 */
export function compareShapes(
  captures: readonly unknown[],
  simulated: readonly unknown[],
  options: ShapeComparison = {},
): string[] {
  const drifts = new Set<string>();
  walk(describeShape(captures), simulated, '', options.allowedExtraKeys ?? {}, drifts);
  return [...drifts];
}

function walk(
  expected: Shape,
  values: readonly unknown[],
  path: string,
  allowed: Readonly<Record<string, string>>,
  drifts: Set<string>,
): void {
  const where = path === '' ? 'the top level' : path;
  if (values.length === 0) return;
  if ([...expected.kinds].every((kind) => kind === 'null')) return;
  const expectedKinds = [...expected.kinds].sort().join(' | ');
  for (const value of values) {
    const kind = kindOf(value);
    if (!expected.kinds.has(kind)) {
      drifts.add(`${where}: ${kind} where the capture has ${expectedKinds}`);
    }
  }
  const objects = values.filter(isPlainObject);
  if (objects.length > 0 && expected.kinds.has('object')) {
    walkObjects(expected, objects, path, allowed, drifts);
  }
  const arrays = values.filter((value): value is unknown[] => Array.isArray(value));
  const elements = arrays.flat();
  if (elements.length === 0 || !expected.kinds.has('array')) return;
  if (expected.items === undefined) {
    drifts.add(`${where}: elements where the capture's array is always empty`);
    return;
  }
  walk(expected.items, elements, `${path}[]`, allowed, drifts);
}

function walkObjects(
  expected: Shape,
  objects: readonly Record<string, unknown>[],
  path: string,
  allowed: Readonly<Record<string, string>>,
  drifts: Set<string>,
): void {
  const prefix = path === '' ? '' : `${path}.`;
  for (const object of objects) {
    const present = new Set(listEntries(object).map(([key]) => key));
    for (const [key, { isRequired }] of expected.keys) {
      if (isRequired && !present.has(key))
        drifts.add(`${prefix}${key}: missing (the capture has it)`);
    }
    for (const key of present) {
      if (!expected.keys.has(key) && !Object.hasOwn(allowed, `${prefix}${key}`)) {
        drifts.add(`${prefix}${key}: invented (the capture has no such key)`);
      }
    }
  }
  for (const [key, { shape }] of expected.keys) {
    const values = objects.flatMap((object) =>
      listEntries(object)
        .filter(([name]) => name === key)
        .map(([, child]) => child),
    );
    walk(shape, values, `${prefix}${key}`, allowed, drifts);
  }
}
