import { z } from 'zod';
import { buildNullPrototypeRecord, catalogDateSchema, sourceKeySchema } from './catalog-fields.ts';

// The stores and countries that ship with the code are data (store-seed.json), rebuilt by
// bin/build-store-seed.ts and checked here at load: every store and country names where it
// comes from, and every store carries coordinates so distances work before the first answer.
// docs/catalog.md ("The store seed") describes the format for people.

/** The `format` value the store seed file carries. */
export const STORE_SEED_FILE_FORMAT = 'shelfwatch-stores/1';

/** How close a store's coordinates are to its door, best first. */
export const COORDINATE_PRECISIONS = ['store', 'curated', 'postal-code', 'city'] as const;

/** How close a store's coordinates are to its door. */
export type CoordinatePrecision = (typeof COORDINATE_PRECISIONS)[number];

/** The seed's source key for Apple's own store directory (rsp-web/store-list). */
export const STORE_DIRECTORY_SOURCE_KEY = 'apple-store-list-2022';

const sourceListSchema = z.array(sourceKeySchema).min(1, 'must name at least one source');
const optionalText = z.string().min(1, 'must be null rather than empty').nullable();

/** A country with stores: Apple's directory locale for it and where that was seen. */
export const storeSeedCountrySchema = z.strictObject({
  country_code: z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter country code'),
  locale_code: z.string().regex(/^[a-z]{2,3}_[A-Z]{2}$/, 'must be a locale like en_US'),
  display_name: z.string().min(1, 'must name the country'),
  source: sourceListSchema,
});

/** One Apple Store with its sources, coordinates and time zone. */
export const storeSeedEntrySchema = z.strictObject({
  store_id: z.string().regex(/^R\d{3,4}$/, 'must be a store number like R072'),
  store_name: z.string().min(1, 'must name the store'),
  country_locale: z.string().regex(/^[a-z]{2,3}_[A-Z]{2}$/, 'must be a locale like en_US'),
  city: z.string().min(1, 'must name the city'),
  state_code: optionalText,
  state_name: optionalText,
  address1: z.string().min(1, 'must give the street address'),
  address2: optionalText,
  postal_code: optionalText,
  telephone: optionalText,
  store_slug: z.string().min(1, 'must give the slug of its page'),
  source: sourceListSchema,
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  coordinate_precision: z.enum(COORDINATE_PRECISIONS),
  coordinate_source: sourceListSchema,
  /** IANA zone of the store, e.g. "Asia/Dubai". */
  time_zone: z.string().regex(/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)+$|^UTC$/, 'must be an IANA zone'),
  time_zone_source: sourceListSchema,
});

/** The whole store seed file: sources by key, countries in display order, stores. */
export const storeSeedFileSchema = z.strictObject({
  format: z.literal(STORE_SEED_FILE_FORMAT),
  /** When the content was last rebuilt or checked, YYYY-MM-DD. */
  version: catalogDateSchema,
  sources: buildNullPrototypeRecord(sourceKeySchema, z.string().min(1).max(600)),
  countries: z.array(storeSeedCountrySchema),
  stores: z.array(storeSeedEntrySchema),
});

/** A parsed store seed file. */
export type StoreSeedFile = z.infer<typeof storeSeedFileSchema>;
/** One store of the seed file. */
export type StoreSeedEntry = z.infer<typeof storeSeedEntrySchema>;
/** One country of the seed file. */
export type StoreSeedCountry = z.infer<typeof storeSeedCountrySchema>;

/** The outcome of reading a store seed file: the file, or every problem found in it. */
export type StoreSeedFileResult =
  { ok: true; file: StoreSeedFile } | { ok: false; errors: string[] };

/**
 * Validates a store seed file, then what a schema cannot see: a source key nobody defined,
 * a store listed twice, a store whose locale has no country.
 */
export function parseStoreSeedFile(json: unknown): StoreSeedFileResult {
  const parsed = storeSeedFileSchema.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map(
        (issue) => `${describeSeedPath(json, issue.path)}: ${issue.message}`,
      ),
    };
  }
  const errors = findSeedConsistencyErrors(parsed.data);
  return errors.length === 0 ? { ok: true, file: parsed.data } : { ok: false, errors };
}

function findSeedConsistencyErrors(file: StoreSeedFile): string[] {
  const errors: string[] = [];
  const isKnownSource = (key: string): boolean => Object.hasOwn(file.sources, key);
  const locales = new Set<string>();
  const countryCodes = new Set<string>();
  for (const country of file.countries) {
    if (countryCodes.has(country.country_code) || locales.has(country.locale_code)) {
      errors.push(`country ${country.country_code}: listed twice`);
    }
    countryCodes.add(country.country_code);
    locales.add(country.locale_code);
    for (const key of country.source.filter((key) => !isKnownSource(key))) {
      errors.push(`country ${country.country_code}: unknown source "${key}"`);
    }
  }
  const storeIds = new Set<string>();
  for (const store of file.stores) {
    if (storeIds.has(store.store_id)) errors.push(`store ${store.store_id}: listed twice`);
    storeIds.add(store.store_id);
    if (!locales.has(store.country_locale)) {
      errors.push(`store ${store.store_id}: no country has locale ${store.country_locale}`);
    }
    const keys = [...store.source, ...store.coordinate_source, ...store.time_zone_source];
    for (const key of new Set(keys.filter((key) => !isKnownSource(key)))) {
      errors.push(`store ${store.store_id}: unknown source "${key}"`);
    }
  }
  return errors;
}

// Names a problem by store number or country code rather than its position in the arrays.
function describeSeedPath(json: unknown, path: readonly PropertyKey[]): string {
  const names: string[] = [];
  let node: unknown = json;
  for (const key of path) {
    node =
      typeof node === 'object' && node !== null && Object.hasOwn(node, key)
        ? (node as Record<PropertyKey, unknown>)[key]
        : undefined;
    if (typeof key !== 'number') {
      names.push(String(key));
      continue;
    }
    const id = readId(node);
    names.push(id ?? `entry ${key + 1}`);
  }
  return names.length === 0 ? 'file' : names.join(' > ');
}

function readId(node: unknown): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const record = node as Record<string, unknown>;
  if (typeof record.store_id === 'string') return `store ${record.store_id}`;
  if (typeof record.country_code === 'string') return `country ${record.country_code}`;
  return undefined;
}
