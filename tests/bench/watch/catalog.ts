// The benchmark's catalog: Apple's real store directory when the shared reference data is next
// to the repository (imported with the product's own importer), else the curated seed.
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '#server/db/database.ts';
import { importStoreDirectory, seedCatalog } from '#server/catalog/catalog-seed.ts';
import {
  COUNTRY_SEEDS,
  PRODUCT_MODEL_SEEDS,
  PRODUCT_TYPE_SEEDS,
  STORE_SEEDS,
  parseStoreDirectory,
  type StoreSeed,
} from '#shared/catalog/index.ts';
import { placeStores } from './geo.ts';
import type { Combo } from './skew.ts';

/** The directory as the report names it: relative to the repository, never copied into it. */
const DIRECTORY_LABEL = '../shared/reference/apple/store-list.json';

/** What the run watches over. */
export type BenchCatalog = {
  /** Directory file imported into each database, or undefined for the curated seed only. */
  directoryPath: string | undefined;
  /** Stores the simulator answers for, each with coordinates. */
  simulatorStores: StoreSeed[];
  /** Every (store, product type) a search can watch. */
  combos: Combo[];
  /** Product types, newest launch first (the catalog's sort order). */
  productOrder: string[];
  /** Lines for the report: where the stores came from and how they were placed. */
  notes: string[];
};

/** Reads the directory next to the repository if it is there; never copies it. */
export async function loadBenchCatalog(repoRoot: string): Promise<BenchCatalog> {
  const directoryPath = path.resolve(repoRoot, DIRECTORY_LABEL);
  const productOrder = [...PRODUCT_TYPE_SEEDS]
    .sort((a, b) => a.sort_order - b.sort_order)
    .map((product) => product.product_id);
  const isPresent = await access(directoryPath).then(
    () => true,
    () => false,
  );
  if (!isPresent) {
    return {
      directoryPath: undefined,
      simulatorStores: [...STORE_SEEDS],
      combos: listCombos(STORE_SEEDS),
      productOrder,
      notes: [
        `${DIRECTORY_LABEL} is not there (no ../shared next to the repository): the 521-store directory part is skipped, and the run uses the ` +
          `${STORE_SEEDS.length} curated stores instead (figures are not comparable with a directory run).`,
      ],
    };
  }
  const directory = parseStoreDirectory(
    JSON.parse(await readFile(directoryPath, 'utf8')) as unknown,
  );
  const placement = placeStores(directory.stores, STORE_SEEDS);
  const combos = listCombos(placement.stores);
  const storesWithProducts = new Set(combos.map((combo) => combo.storeId)).size;
  const notes = [
    `Catalog: Apple's store directory from ${DIRECTORY_LABEL} (${directory.stores.length} stores in ${new Set(directory.stores.map((s) => s.country_locale)).size} locales) ` +
      `imported with importStoreDirectory; ${storesWithProducts} of them are in the ${new Set(combos.map((c) => c.countryCode)).size} countries ` +
      `the catalog has models for, and only those can be searched.`,
    `Store coordinates (the simulator's nearest-store lists only; the product learns distances from answers): ` +
      `${placement.seeded} seeded stores keep theirs, ${placement.byCity} sit near an approximate city centre, ` +
      `${placement.fallback.length} fell back to their state's or country's seeded stores, ${placement.unplaced.length} ` +
      `(countries without models or seeded stores) are not in the simulator.`,
  ];
  return {
    directoryPath,
    simulatorStores: placement.stores,
    combos,
    productOrder,
    notes,
  };
}

/** Loads the catalog into a fresh database: the curated seed, then the directory if any. */
export async function loadCatalogInto(db: Db, catalog: BenchCatalog): Promise<string | undefined> {
  await seedCatalog(db);
  if (catalog.directoryPath === undefined) return undefined;
  const report = await importStoreDirectory(db, catalog.directoryPath);
  return `imported ${report.imported} stores, added countries ${report.countriesAdded.join(' ') || 'none'}, skipped ${report.skipped.length}`;
}

/** Every (store, product type) with the parts sold in the store's country. */
function listCombos(stores: readonly StoreSeed[]): Combo[] {
  const countryByLocale = new Map(
    COUNTRY_SEEDS.map((country) => [country.locale_code, country.country_code]),
  );
  const partsByKey = new Map<string, string[]>();
  for (const model of PRODUCT_MODEL_SEEDS) {
    const key = `${model.country_code}|${model.product_id}`;
    const parts = partsByKey.get(key) ?? [];
    parts.push(model.part_number);
    partsByKey.set(key, parts);
  }
  const combos: Combo[] = [];
  for (const store of stores) {
    const countryCode = countryByLocale.get(store.country_locale);
    if (countryCode === undefined) continue;
    for (const product of PRODUCT_TYPE_SEEDS) {
      const parts = partsByKey.get(`${countryCode}|${product.product_id}`);
      if (parts !== undefined) {
        combos.push({ storeId: store.store_id, countryCode, productId: product.product_id, parts });
      }
    }
  }
  return combos;
}
