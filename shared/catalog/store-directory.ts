import { z } from 'zod';
import type { DirectoryStore } from './types.ts';

// Parser for Apple's public store directory, GET /rsp-web/store-list?locale=en_US:
// { storeListData: [ { locale, hasStates, state: [ { name, store: [...] } ] | store: [...] } ] }.
// One malformed store or locale must not cost the other five hundred, so entries are checked
// one by one and skipped with a reason; only a payload that is not a directory at all throws.

/** Why a locale entry or store was left out of a directory import. */
export type SkippedDirectoryEntry = { reason: string; id?: string };

/** Stores read from a directory payload, and what was skipped. */
export type StoreDirectory = { stores: DirectoryStore[]; skipped: SkippedDirectoryEntry[] };

// Apple sends "" (and in places omits the key) where a country has no such field.
const optionalText = z.string().nullish();

const addressSchema = z.object({
  address1: z.string(),
  address2: optionalText,
  city: z.string(),
  stateName: optionalText,
  stateCode: optionalText,
  postalCode: optionalText,
});

const storeSchema = z.object({
  id: z.string().regex(/^R\d{3,4}$/, 'expected a store number like R072'),
  name: z.string(),
  telephone: optionalText,
  slug: z.string(),
  address: addressSchema,
});

const stateSchema = z.object({ name: z.string().nullish(), store: z.array(z.unknown()) });

const localeEntrySchema = z.object({
  locale: z.string().regex(/^[a-z]{2,3}_[A-Z]{2}$/, 'expected a locale like en_US'),
  hasStates: z.boolean(),
  state: z.array(stateSchema).optional(),
  store: z.array(z.unknown()).optional(),
});

const directorySchema = z.object({ storeListData: z.array(z.unknown()) });

/** Reads Apple's store directory into store rows; throws only when the payload is not one. */
export function parseStoreDirectory(json: unknown): StoreDirectory {
  const top = directorySchema.safeParse(json);
  if (!top.success) {
    throw new Error(`Not an Apple store directory: ${describeIssues(top.error)}`);
  }
  const stores: DirectoryStore[] = [];
  const skipped: SkippedDirectoryEntry[] = [];
  const seen = new Set<string>();
  top.data.storeListData.forEach((rawEntry, index) => {
    const entry = localeEntrySchema.safeParse(rawEntry);
    if (!entry.success) {
      skipped.push({ reason: `storeListData[${index}]: ${describeIssues(entry.error)}` });
      return;
    }
    const { locale } = entry.data;
    const groups = listStateGroups(entry.data);
    if (groups === undefined) {
      const missing = entry.data.hasStates ? 'state' : 'store';
      skipped.push({
        reason: `${locale}: hasStates is ${entry.data.hasStates} but no ${missing} list`,
      });
      return;
    }
    for (const group of groups) {
      for (const rawStore of group.stores) {
        const row = readStore(rawStore, locale, group.name);
        if ('reason' in row) skipped.push(row);
        else if (seen.has(row.store_id)) {
          skipped.push({ id: row.store_id, reason: `${locale}: store listed twice` });
        } else {
          seen.add(row.store_id);
          stores.push(row);
        }
      }
    }
  });
  return { stores, skipped };
}

type StateGroup = { name: string | null; stores: unknown[] };

// Locales with states nest stores one level deeper; the rest carry them directly.
function listStateGroups(entry: z.infer<typeof localeEntrySchema>): StateGroup[] | undefined {
  if (entry.hasStates) {
    return entry.state?.map((state) => ({ name: cleanText(state.name), stores: state.store }));
  }
  return entry.store === undefined ? undefined : [{ name: null, stores: entry.store }];
}

function readStore(
  raw: unknown,
  locale: string,
  stateGroup: string | null,
): DirectoryStore | SkippedDirectoryEntry {
  const parsed = storeSchema.safeParse(raw);
  if (!parsed.success) {
    return { id: readRawId(raw), reason: `${locale}: ${describeIssues(parsed.error)}` };
  }
  const { id, name, telephone, slug, address } = parsed.data;
  const storeName = cleanText(name);
  const city = cleanText(address.city);
  const address1 = cleanText(address.address1);
  const storeSlug = cleanText(slug);
  if (storeName === null || city === null || address1 === null || storeSlug === null) {
    return { id, reason: `${locale}: name, city, address1 and slug must not be blank` };
  }
  return {
    store_id: id,
    store_name: storeName,
    country_locale: locale,
    city,
    state_code: cleanText(address.stateCode),
    // The group heading names the state when a store's own address leaves it out.
    state_name: cleanText(address.stateName) ?? stateGroup,
    address1,
    address2: cleanText(address.address2),
    postal_code: cleanText(address.postalCode),
    telephone: cleanText(telephone),
    store_slug: storeSlug,
    latitude: null,
    longitude: null,
  };
}

// The directory pads some fields ("150 Quaker Bridge Mall      ", "60  31st Avenue").
function cleanText(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = value.replace(/\s+/g, ' ').trim();
  return text === '' ? null : text;
}

function readRawId(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null || !('id' in raw)) return undefined;
  return typeof raw.id === 'string' ? raw.id : undefined;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}
