import {
  COUNTRY_SEEDS,
  isModelSold,
  listCurrentProductTypes,
  PRODUCT_MODEL_SEEDS,
  PRODUCT_TYPE_SEEDS,
  STORE_SEEDS,
  type CountrySeed,
  type ProductModelSeed,
  type ProductTypeSeed,
  type StoreSeed,
} from '#shared/catalog/index.ts';
import { isSupportedCountry, normalizeCountryCode } from '#shared/upstream/index.ts';
import { chooseSeedLocation } from '#shared/watch/engine/plan-inputs.ts';

// What `shelfwatch doctor` asks about: a country, one part, where, and the part's buy page.
// Whatever the operator leaves out comes from the bundled catalog, chosen as the watcher
// would: the first current model of the country in picker order, asked at the location of
// the country's first store (its postal code, or its city where it has none).

/** The options as typed; every one may be left out. */
export type DoctorTargetOptions = {
  country?: string;
  part?: string;
  location?: string;
  store?: string;
  buyPage?: string;
};

/** What one doctor run asks every address. */
export type DoctorTarget = {
  countryCode: string;
  partNumber: string;
  /** The catalog's name of the part there, or null for a part the catalog does not list. */
  displayName: string | null;
  where: { location: string } | { storeNumber: string };
  /** Buy page path ("/shop/buy-iphone/iphone-18-pro"), or null when none is known. */
  buyPagePath: string | null;
};

/** The catalog the defaults come from; the bundled one unless a test passes another. */
export type DoctorCatalog = {
  countries: readonly CountrySeed[];
  stores: readonly StoreSeed[];
  types: readonly ProductTypeSeed[];
  models: readonly ProductModelSeed[];
};

/** A bad option: its message says which and what would do. */
export class DoctorOptionError extends Error {}

const BUNDLED_CATALOG: DoctorCatalog = {
  countries: COUNTRY_SEEDS,
  stores: STORE_SEEDS,
  types: PRODUCT_TYPE_SEEDS,
  models: PRODUCT_MODEL_SEEDS,
};
const PART_NUMBER = /^[A-Z0-9]{4,5}[A-Z]{1,2}\/[A-Z]$/;
const STORE_NUMBER = /^R\d{3,4}$/;

/** Resolves the options against the catalog; throws DoctorOptionError for a bad one. */
export function resolveDoctorTarget(
  options: DoctorTargetOptions,
  catalog: DoctorCatalog = BUNDLED_CATALOG,
): DoctorTarget {
  const countryCode = normalizeCountryCode(options.country ?? 'US');
  if (!isSupportedCountry(countryCode)) {
    throw new DoctorOptionError(
      `--country ${options.country ?? ''} is not a country Shelfwatch can ask (e.g. US, GB, DE, JP)`,
    );
  }
  const model = choosePart(options.part, countryCode, catalog);
  const type = catalog.types.find((candidate) => candidate.product_id === model?.product_id);
  const partNumber = model?.part_number ?? normalizePart(options.part ?? '');
  return {
    countryCode,
    partNumber,
    displayName: model?.display_name ?? null,
    where: chooseWhere(options, countryCode, catalog),
    buyPagePath: options.buyPage?.trim() || type?.buy_page || null,
  };
}

function normalizePart(part: string): string {
  const normalized = part.trim().toUpperCase();
  if (!PART_NUMBER.test(normalized)) {
    throw new DoctorOptionError(`--part ${part} is not an Apple part number (e.g. MJW44LL/A)`);
  }
  return normalized;
}

// A named part the catalog lacks is still asked (a new launch); its model is then unknown.
function choosePart(
  part: string | undefined,
  countryCode: string,
  catalog: DoctorCatalog,
): ProductModelSeed | undefined {
  const sold = catalog.models.filter(
    (model) => model.country_code === countryCode && isModelSold(model),
  );
  if (part !== undefined) {
    const partNumber = normalizePart(part);
    return sold.find((model) => model.part_number === partNumber);
  }
  const order = listCurrentProductTypes(catalog.types, catalog.models).map(
    (type) => type.product_id,
  );
  const first = order
    .map((productId) => sold.find((model) => model.product_id === productId))
    .find((model) => model !== undefined);
  if (first === undefined) {
    throw new DoctorOptionError(
      `The catalog sells no model in ${countryCode}; name a part with --part`,
    );
  }
  return first;
}

function chooseWhere(
  options: DoctorTargetOptions,
  countryCode: string,
  catalog: DoctorCatalog,
): DoctorTarget['where'] {
  if (options.store !== undefined) {
    const storeNumber = options.store.trim().toUpperCase();
    if (!STORE_NUMBER.test(storeNumber)) {
      throw new DoctorOptionError(`--store ${options.store} is not an Apple store number (R095)`);
    }
    return { storeNumber };
  }
  if (options.location !== undefined) {
    const location = options.location.trim();
    if (location === '') throw new DoctorOptionError('--location needs a postal code or a city');
    return { location };
  }
  const locales = new Set(
    catalog.countries
      .filter((country) => country.country_code === countryCode)
      .map((country) => country.locale_code),
  );
  const store = catalog.stores.find((candidate) => locales.has(candidate.country_locale));
  if (store === undefined) {
    throw new DoctorOptionError(
      `The catalog has no store in ${countryCode}; name one with --store or --location`,
    );
  }
  return { location: chooseSeedLocation(store.postal_code, store.city) };
}
