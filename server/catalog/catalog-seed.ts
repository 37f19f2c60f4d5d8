import { readFile } from 'node:fs/promises';
import {
  ANSWER_ONLY_STORE_IDS,
  COUNTRY_SEEDS,
  STORE_SEEDS,
  describeCountryFromLocale,
  parseStoreDirectory,
  type CountrySeed,
} from '#shared/catalog/index.ts';
import type { Db } from '#server/db/database.ts';
import {
  listCountries,
  upsertCountries,
  upsertStores,
} from '#server/db/repositories/catalog-repository.ts';
import { seedBundledCatalog } from './apply-catalog-file.ts';
import { markCatalogChanged } from './catalog-cache.ts';

/**
 * Loads the curated catalog shipped with the code; safe to run on every start. Product types
 * and models come from the bundled catalog file, applied once per content (see
 * seedBundledCatalog) so that imports and syncs made since are kept.
 */
export async function seedCatalog(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await upsertCountries(trx, COUNTRY_SEEDS);
    await upsertStores(
      trx,
      STORE_SEEDS.map((store) => ({
        ...store,
        is_learned: ANSWER_ONLY_STORE_IDS.has(store.store_id),
      })),
    );
  });
  await seedBundledCatalog(db);
  markCatalogChanged();
}

/** What an import did. */
export type StoreImportReport = {
  imported: number;
  countriesAdded: string[];
  skipped: { reason: string; id?: string }[];
};

/**
 * Imports Apple's store directory (`/rsp-web/store-list` format) from a file path or an
 * http(s) URL. Known stores are updated in place (keeping their coordinates); countries
 * the catalog lacks are added so every store has one.
 */
export async function importStoreDirectory(
  db: Db,
  source: string,
  fetchDirectory: typeof fetch = fetch,
): Promise<StoreImportReport> {
  const json = await readDirectory(source, fetchDirectory);
  const parsed = parseStoreDirectory(json);
  const report = await db.transaction().execute(async (trx) => {
    const known = new Set((await listCountries(trx)).map((country) => country.locale_code));
    const added: CountrySeed[] = [];
    const unplaceable = new Set<string>();
    for (const locale of new Set(parsed.stores.map((store) => store.country_locale))) {
      if (known.has(locale)) {
        continue;
      }
      const country = describeCountryFromLocale(locale);
      if (country === undefined) {
        unplaceable.add(locale);
      } else {
        added.push(country);
      }
    }
    await upsertCountries(trx, added);
    const stores = parsed.stores.filter((store) => !unplaceable.has(store.country_locale));
    const skipped = [
      ...parsed.skipped,
      ...parsed.stores
        .filter((store) => unplaceable.has(store.country_locale))
        .map((store) => ({
          id: store.store_id,
          reason: `unknown country for locale ${store.country_locale}`,
        })),
    ];
    const imported = await upsertStores(trx, stores);
    return { imported, countriesAdded: added.map((country) => country.country_code), skipped };
  });
  markCatalogChanged();
  return report;
}

async function readDirectory(source: string, fetchDirectory: typeof fetch): Promise<unknown> {
  if (/^https?:\/\//i.test(source)) {
    const response = await fetchDirectory(source, { headers: { Accept: 'application/json' } });
    if (!response.ok) {
      throw new Error(`Store directory request to ${source} failed with HTTP ${response.status}`);
    }
    return (await response.json()) as unknown;
  }
  let text: string;
  try {
    text = await readFile(source, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read store directory file ${source}`, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`Store directory file ${source} is not valid JSON`, { cause: error });
  }
}
