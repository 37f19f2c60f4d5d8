import fc from 'fast-check';
import type { z } from 'zod';

/** How values are derived from a schema. */
export type ArbitraryOptions = {
  /**
   * Arbitraries for paths whose rules the schema cannot describe structurally (refinements,
   * catalog ids), by dotted path with `[]` for array items: `phone_number`,
   * `product_models[].part_number`. They replace what the schema would give at that path.
   */
  overrides?: Readonly<Record<string, fc.Arbitrary<unknown>>>;
  /** Longest string made where the schema allows longer (default 40). */
  maxStringLength?: number;
  /** Longest array made where the schema allows longer (default 4). */
  maxArrayLength?: number;
};

type Settings = Required<ArbitraryOptions>;

/**
 * Inputs `schema` accepts, built from its definition (types, lengths, ranges, formats,
 * optional and nullable parts) and kept only when `safeParse` agrees, so refinements the
 * structure cannot express never let an invalid value through.
 */
export function validInputArbitrary<Schema extends z.ZodType>(
  schema: Schema,
  options: ArbitraryOptions = {},
): fc.Arbitrary<z.input<Schema>> {
  return structuralInputArbitrary(schema, options).filter(
    (value): value is z.input<Schema> => schema.safeParse(value).success,
  );
}

/**
 * What {@link validInputArbitrary} builds before `safeParse` has its say: values shaped by
 * the schema's definition alone (exposed so tests can check how often it is right).
 */
export function structuralInputArbitrary(
  schema: z.ZodType,
  options: ArbitraryOptions = {},
): fc.Arbitrary<unknown> {
  return deriveArbitrary(schema, '', resolveSettings(options));
}

/** One way of breaking a valid input, applied by {@link mutateInput}. */
export type InputMutation =
  | { kind: 'drop'; target: number }
  | { kind: 'replace'; target: number; value: unknown }
  | { kind: 'add'; target: number; key: string; value: unknown }
  | { kind: 'swap-root'; value: unknown };

/**
 * Inputs `schema` should refuse, or at least must survive: a valid input with one field
 * (at any depth) dropped, replaced by a hostile value or joined by an unexpected key, or a
 * root of the wrong type. Some mutations stay valid (an optional field dropped): the API
 * must answer those as it answers any valid input.
 */
export function mutatedInputArbitrary<Schema extends z.ZodType>(
  schema: Schema,
  options: ArbitraryOptions = {},
): fc.Arbitrary<unknown> {
  const mutation: fc.Arbitrary<InputMutation> = fc.oneof(
    fc.record({ kind: fc.constant('drop' as const), target: fc.nat() }),
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('replace' as const),
        target: fc.nat(),
        value: hostileValueArbitrary(),
      }),
    },
    fc.record({
      kind: fc.constant('add' as const),
      target: fc.nat(),
      key: hostileKeyArbitrary(),
      value: hostileValueArbitrary(),
    }),
    fc.record({ kind: fc.constant('swap-root' as const), value: hostileValueArbitrary() }),
  );
  return fc
    .tuple(validInputArbitrary(schema, options), mutation)
    .map(([value, change]) => mutateInput(value, change));
}

/** Applies `mutation` to a copy of `value`; `target` picks a node, counting depth-first. */
export function mutateInput(value: unknown, mutation: InputMutation): unknown {
  if (mutation.kind === 'swap-root') {
    return mutation.value;
  }
  const copy = structuredClone(value);
  const containers = listContainers(copy);
  if (containers.length === 0) {
    return mutation.kind === 'drop' ? undefined : 'value' in mutation ? mutation.value : copy;
  }
  if (mutation.kind === 'add') {
    const container = containers[mutation.target % containers.length];
    // defineProperty, so `__proto__` becomes an own key that JSON.stringify writes out.
    Object.defineProperty(container, Array.isArray(container) ? container.length : mutation.key, {
      value: mutation.value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return copy;
  }
  const slots = containers.flatMap((container) =>
    Object.keys(container).map((key) => ({ container, key })),
  );
  if (slots.length === 0) {
    return mutation.kind === 'replace' ? mutation.value : copy;
  }
  const { container, key } = slots[mutation.target % slots.length];
  if (mutation.kind === 'drop') {
    if (Array.isArray(container)) {
      container.splice(Number(key), 1);
    } else {
      Reflect.deleteProperty(container, key);
    }
  } else {
    Object.defineProperty(container, key, {
      value: mutation.value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

/**
 * Values that break assumptions: wrong types, empty and huge strings, control characters,
 * lone surrogates and other unicode, numbers at and beyond every range, nested structures,
 * names of prototype properties and injection classics.
 */
export function hostileValueArbitrary(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      -0,
      0.5,
      1e-320,
      2 ** 31,
      2 ** 53 + 2,
      -(2 ** 63),
      1e308,
      -1e308,
      '',
      ' ',
      '\u0000',
      'a\u0000b',
      '\ud800',
      '\udfff\ud800',
      '\u202eevil',
      '\ufeff',
      'e\u0301\u0301\u0301',
      '👩‍👩‍👧‍👦',
      '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
      '__proto__',
      'constructor',
      'prototype',
      "' OR '1'='1' --",
      '"; DROP TABLE users; --',
      '../../../../etc/passwd',
      '%00',
      '%2e%2e%2f',
      '<script>alert(1)</script>',
      '${7*7}{{7*7}}',
      'NaN',
      'Infinity',
      '-1',
      '1e999',
      'null',
      'true',
      '[]',
      '{}',
      '00000000-0000-0000-0000-000000000000',
    ),
    fc.string({ unit: 'binary', maxLength: 64 }),
    fc.string({ unit: 'grapheme', maxLength: 64 }),
    fc
      .tuple(fc.constantFrom('a', 'é', '\u0000', '😀', ' '), fc.integer({ min: 300, max: 20_000 }))
      .map(([unit, count]) => unit.repeat(count)),
    fc.integer(),
    fc.double(),
    fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
    fc.dictionary(hostileKeyArbitrary(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
    fc.integer({ min: 50, max: 400 }).map((depth) => nestArrays(depth)),
  );
}

/** Object keys that a careless merge or lookup would treat specially. */
export function hostileKeyArbitrary(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'hasOwnProperty',
      'toString',
      'valueOf',
      'then',
      '',
      'id',
      'user_id',
      'plan',
      'is_admin',
    ),
    fc.string({ unit: 'grapheme', maxLength: 12 }),
  );
}

function nestArrays(depth: number): unknown {
  let value: unknown = 'deep';
  for (let level = 0; level < depth; level += 1) {
    value = [value];
  }
  return value;
}

function listContainers(value: unknown): object[] {
  if (typeof value !== 'object' || value === null) {
    return [];
  }
  return [value, ...Object.values(value).flatMap((child) => listContainers(child))];
}

function resolveSettings(options: ArbitraryOptions): Settings {
  return {
    overrides: options.overrides ?? {},
    maxStringLength: options.maxStringLength ?? 40,
    maxArrayLength: options.maxArrayLength ?? 4,
  };
}

/** The arbitrary of one schema node; `path` names it for overrides and error messages. */
function deriveArbitrary(
  schema: z.core.$ZodType,
  path: string,
  settings: Settings,
): fc.Arbitrary<unknown> {
  const override = settings.overrides[path];
  if (override !== undefined) {
    return override;
  }
  const def = (schema as z.core.$ZodTypes)._zod.def;
  switch (def.type) {
    case 'string':
      return stringArbitrary(def, settings);
    case 'number':
      return numberArbitrary(def);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'undefined':
    case 'void':
      return fc.constant(undefined);
    case 'any':
    case 'unknown':
      return fc.jsonValue({ maxDepth: 2 });
    case 'literal':
      return fc.constantFrom(...def.values);
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries));
    case 'optional':
    case 'default':
    case 'prefault':
      return fc.option(deriveArbitrary(def.innerType, path, settings), { nil: undefined });
    case 'nullable':
      return fc.option(deriveArbitrary(def.innerType, path, settings), { nil: null });
    case 'nonoptional':
      return deriveArbitrary(def.innerType, path, settings).filter((value) => value !== undefined);
    case 'catch':
    case 'readonly':
      return deriveArbitrary(def.innerType, path, settings);
    case 'lazy':
      return deriveArbitrary(def.getter(), path, settings);
    case 'pipe':
      // A transform takes anything: the input is the other side's (`x.transform()` pipes
      // into a transform; `string().pipe(email())` narrows to the out side).
      return (def.out as z.core.$ZodTypes)._zod.def.type === 'transform'
        ? deriveArbitrary(def.in, path, settings)
        : deriveArbitrary(def.out, path, settings);
    case 'union':
      return fc.oneof(...def.options.map((option) => deriveArbitrary(option, path, settings)));
    case 'array':
      return arrayArbitrary(def, path, settings);
    case 'object':
      return objectArbitrary(def, path, settings);
    default:
      throw new Error(
        `No arbitrary for a zod ${def.type} at "${path || '(root)'}": add an override for it`,
      );
  }
}

function stringArbitrary(def: z.core.$ZodStringDef, settings: Settings): fc.Arbitrary<string> {
  let minimum = 0;
  let maximum = Number.POSITIVE_INFINITY;
  let format: { name: string; pattern: RegExp | undefined } | undefined =
    'format' in def && typeof def.format === 'string'
      ? {
          name: def.format,
          pattern: 'pattern' in def && def.pattern instanceof RegExp ? def.pattern : undefined,
        }
      : undefined;
  for (const check of def.checks ?? []) {
    const checkDef = (check as z.core.$ZodChecks)._zod.def;
    if (checkDef.check === 'min_length') {
      minimum = Math.max(minimum, checkDef.minimum);
    } else if (checkDef.check === 'max_length') {
      maximum = Math.min(maximum, checkDef.maximum);
    } else if (checkDef.check === 'length_equals') {
      minimum = checkDef.length;
      maximum = checkDef.length;
    } else if (checkDef.check === 'string_format') {
      format = { name: checkDef.format, pattern: checkDef.pattern };
    }
  }
  if (format !== undefined) {
    return formatArbitrary(format.name, format.pattern, minimum).filter(
      (value) => value.length >= minimum && value.length <= maximum,
    );
  }
  return fc
    .string({
      minLength: minimum,
      maxLength: Math.min(maximum, Math.max(minimum, settings.maxStringLength)),
      // Mostly readable text, with any unicode and control characters mixed in.
      unit: fc.oneof(
        { weight: 4, arbitrary: unitOf('grapheme-ascii') },
        { weight: 2, arbitrary: unitOf('grapheme') },
        { weight: 1, arbitrary: unitOf('binary') },
      ),
    })
    .filter((value) => value.length <= maximum);
}

/** One character of the named fast-check unit. */
function unitOf(unit: 'grapheme-ascii' | 'grapheme' | 'binary'): fc.Arbitrary<string> {
  return fc.string({ unit, minLength: 1, maxLength: 1 });
}

function formatArbitrary(
  format: string,
  pattern: RegExp | undefined,
  minimum: number,
): fc.Arbitrary<string> {
  switch (format) {
    case 'email':
      // fc.emailAddress() follows RFC 5322, which allows far more than zod's (and any real
      // sign-up form's) email pattern: build addresses of the common shape instead.
      return fc
        .tuple(
          fc.stringMatching(/^[A-Za-z0-9_+-]{1,16}(\.[A-Za-z0-9_+-]{1,8})?$/),
          fc.array(fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?$/), {
            minLength: 1,
            maxLength: 3,
          }),
          fc.stringMatching(/^[a-z]{2,6}$/),
        )
        .map(([local, labels, tld]) => `${local}@${[...labels, tld].join('.')}`);
    case 'url':
      return fc.webUrl();
    case 'uuid':
    case 'guid':
      return fc.uuid();
    default:
      if (pattern !== undefined) {
        // Longer draws for patterns that must repeat many times to reach the minimum length.
        return fc.stringMatching(pattern, { size: minimum > 16 ? 'medium' : 'small' });
      }
      throw new Error(`No arbitrary for the string format "${format}": add an override for it`);
  }
}

function numberArbitrary(def: z.core.$ZodNumberDef): fc.Arbitrary<number> {
  let minimum = -Number.MAX_VALUE;
  let maximum = Number.MAX_VALUE;
  let isMinExcluded = false;
  let isMaxExcluded = false;
  let isInteger = false;
  for (const check of def.checks ?? []) {
    const checkDef = (check as z.core.$ZodChecks)._zod.def;
    if (checkDef.check === 'greater_than') {
      minimum = Number(checkDef.value);
      isMinExcluded = !checkDef.inclusive;
    } else if (checkDef.check === 'less_than') {
      maximum = Number(checkDef.value);
      isMaxExcluded = !checkDef.inclusive;
    } else if (checkDef.check === 'number_format') {
      isInteger = checkDef.format !== 'float32' && checkDef.format !== 'float64';
    }
  }
  if (isInteger) {
    return fc.integer({
      min: Math.max(Math.ceil(minimum + (isMinExcluded ? 1 : 0)), Number.MIN_SAFE_INTEGER),
      max: Math.min(Math.floor(maximum - (isMaxExcluded ? 1 : 0)), Number.MAX_SAFE_INTEGER),
    });
  }
  return fc.double({
    min: minimum,
    max: maximum,
    minExcluded: isMinExcluded,
    maxExcluded: isMaxExcluded,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

function arrayArbitrary(
  def: z.core.$ZodArrayDef,
  path: string,
  settings: Settings,
): fc.Arbitrary<unknown[]> {
  let minimum = 0;
  let maximum = Number.POSITIVE_INFINITY;
  for (const check of def.checks ?? []) {
    const checkDef = (check as z.core.$ZodChecks)._zod.def;
    if (checkDef.check === 'min_length') {
      minimum = checkDef.minimum;
    } else if (checkDef.check === 'max_length') {
      maximum = checkDef.maximum;
    } else if (checkDef.check === 'length_equals') {
      minimum = checkDef.length;
      maximum = checkDef.length;
    }
  }
  return fc.array(deriveArbitrary(def.element, `${path}[]`, settings), {
    minLength: minimum,
    maxLength: Math.min(maximum, Math.max(minimum, settings.maxArrayLength)),
  });
}

function objectArbitrary(
  def: z.core.$ZodObjectDef,
  path: string,
  settings: Settings,
): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(def.shape);
  const model = Object.fromEntries(
    keys.map((key) => [
      key,
      deriveArbitrary(def.shape[key], path === '' ? key : `${path}.${key}`, settings),
    ]),
  );
  // Optional and defaulted keys may be left out.
  const requiredKeys = keys.filter((key) => def.shape[key]._zod.optin === undefined);
  return fc
    .record(model, { requiredKeys })
    .map((record) =>
      Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)),
    );
}
