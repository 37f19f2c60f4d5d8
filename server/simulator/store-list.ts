import type { FastifyInstance } from 'fastify';
import type { CountrySeed, StoreSeed } from '#shared/catalog/index.ts';

// Apple's public store directory, GET /rsp-web/store-list?locale=en_US, played from the
// simulator's stores. Shape as the October 2022 capture (reference README, "store-list.json"):
// { storeListData: [ { locale, calledLocale, hasStates, state: [ { name, store: [...] } ] } ] },
// a locale without states carrying `store: [...]` directly (en_SG). The answer for one locale
// lists every locale, as the capture of en_US lists 25, each with `calledLocale` made of the
// asked language and the entry's country ("en_AT" beside "de_AT"). Thailand's store-list
// answers 404 in 2025-2026 (reference README, "Store directory"), so some locales answer 404
// here too (th_TH by default) and are left out of every other answer.

/** Locales whose store-list answers 404 unless told otherwise: Apple's Thailand. */
export const DEFAULT_MISSING_DIRECTORY_LOCALES: readonly string[] = ['th_TH'];

/** A store the directory lists (coordinates and zone are not part of it). */
export type DirectoryListing = Omit<StoreSeed, 'latitude' | 'longitude' | 'time_zone'>;

/** What the directory lists now, changed through the control API. */
export type StoreListState = {
  /** Lists a store from now on: a seeded one taken off before, or a new one. */
  listStore(store: DirectoryListing): void;
  /** Takes a store off the directory; false when it was not listed. */
  unlistStore(storeId: string): boolean;
  /** Puts a listed-before store back; false when the directory never had it. */
  relistStore(storeId: string): boolean;
  /** Makes a locale answer 404 (`isMissing`) or its directory again. */
  setLocaleMissing(locale: string, isMissing: boolean): void;
  /** The locales the directory knows (one per country of the simulator). */
  listLocales(): string[];
  /** Locales answering 404 now. */
  listMissingLocales(): string[];
  /** The answer for `locale`, or undefined for a 404. */
  answer(locale: string): StoreListAnswer | undefined;
};

type DirectoryAddress = {
  address1: string;
  address2: string;
  city: string;
  stateName?: string;
  stateCode?: string;
  postalCode?: string;
};
type DirectoryStoreJson = {
  id: string;
  name: string;
  telephone: string;
  address: DirectoryAddress;
  slug: string;
};
type LocaleEntry = {
  locale: string;
  hasStates: boolean;
  calledLocale: string;
  state?: { name: string; store: DirectoryStoreJson[] }[];
  store?: DirectoryStoreJson[];
};
/** Body of a 200 answer. */
export type StoreListAnswer = { storeListData: LocaleEntry[] };

const LOCALE_PATTERN = /^([a-z]{2,3})_([A-Z]{2})$/;

/** Starts the directory from the seeded stores of the simulator's countries. */
export function createStoreListState(options: {
  stores: readonly StoreSeed[];
  countries: readonly CountrySeed[];
  missingLocales?: readonly string[];
}): StoreListState {
  const locales = options.countries.map((country) => country.locale_code);
  const known = new Map<string, DirectoryListing>();
  for (const store of options.stores) {
    if (!locales.includes(store.country_locale)) continue;
    known.set(store.store_id, toListing(store));
  }
  const unlisted = new Set<string>();
  const missing = new Set(options.missingLocales ?? DEFAULT_MISSING_DIRECTORY_LOCALES);

  const describeLocale = (locale: string, language: string): LocaleEntry => {
    const stores = [...known.values()]
      .filter((store) => store.country_locale === locale && !unlisted.has(store.store_id))
      .sort((a, b) => a.store_id.localeCompare(b.store_id));
    const calledLocale = `${language}_${locale.slice(-2)}`;
    const hasStates = stores.some((store) => store.state_name !== null);
    if (!hasStates) {
      return {
        locale,
        hasStates,
        calledLocale,
        store: stores.map((store) => writeStore(store, false)),
      };
    }
    const groups = new Map<string, DirectoryStoreJson[]>();
    for (const store of stores) {
      const name = store.state_name ?? store.city;
      groups.set(name, [...(groups.get(name) ?? []), writeStore(store, true)]);
    }
    return {
      locale,
      hasStates,
      calledLocale,
      state: [...groups].map(([name, store]) => ({ name, store })),
    };
  };

  return {
    listStore: (store) => {
      known.set(store.store_id, store);
      unlisted.delete(store.store_id);
      if (!locales.includes(store.country_locale)) locales.push(store.country_locale);
    },
    unlistStore: (storeId) => {
      if (!known.has(storeId) || unlisted.has(storeId)) return false;
      unlisted.add(storeId);
      return true;
    },
    relistStore: (storeId) => known.has(storeId) && unlisted.delete(storeId),
    setLocaleMissing: (locale, isMissing) => {
      if (isMissing) missing.add(locale);
      else missing.delete(locale);
    },
    listLocales: () => [...locales],
    listMissingLocales: () => [...missing].sort(),
    answer: (locale) => {
      const match = LOCALE_PATTERN.exec(locale);
      if (match === null || missing.has(locale) || !locales.includes(locale)) return undefined;
      const language = match[1];
      const order = [locale, ...locales.filter((other) => other !== locale)];
      return {
        storeListData: order
          .filter((entry) => !missing.has(entry))
          .map((entry) => describeLocale(entry, language)),
      };
    },
  };
}

// The directory's fields of a seeded store: no coordinates, no zone.
function toListing(store: StoreSeed): DirectoryListing {
  return {
    store_id: store.store_id,
    store_name: store.store_name,
    country_locale: store.country_locale,
    city: store.city,
    state_code: store.state_code,
    state_name: store.state_name,
    address1: store.address1,
    address2: store.address2,
    postal_code: store.postal_code,
    telephone: store.telephone,
    store_slug: store.store_slug,
  };
}

// Apple writes "" for a missing address2 or telephone and leaves postalCode out where a store
// has none; stores of a locale without states carry no stateName or stateCode at all.
function writeStore(store: DirectoryListing, hasStates: boolean): DirectoryStoreJson {
  const address: DirectoryAddress = {
    address1: store.address1,
    address2: store.address2 ?? '',
    city: store.city,
  };
  if (hasStates) {
    address.stateName = store.state_name ?? '';
    address.stateCode = store.state_code ?? '';
  }
  if (store.postal_code !== null) address.postalCode = store.postal_code;
  return {
    id: store.store_id,
    name: store.store_name,
    telephone: store.telephone ?? '',
    address,
    slug: store.store_slug,
  };
}

/**
 * GET /rsp-web/store-list?locale=xx_YY. A locale the simulator has no country for, or one set
 * missing, answers 404 with Apple's "Page Not Found" text, as Thailand's does. Not a pickup
 * request: never counted toward an address's budget (nothing on record says Apple counts it).
 */
export function registerStoreListRoutes(
  app: FastifyInstance,
  options: { directory: StoreListState },
): void {
  app.get('/rsp-web/store-list', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const locale = typeof query.locale === 'string' ? query.locale : '';
    const answer = options.directory.answer(locale);
    if (answer === undefined) {
      return reply.code(404).type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
    }
    return reply.type('application/json;charset=UTF-8').send(answer);
  });
}

const NOT_FOUND_PAGE =
  '<!DOCTYPE html><html lang="en-US"><head><title>Page Not Found - Apple</title></head><body><h1>The page you’re looking for can’t be found.</h1></body></html>';
