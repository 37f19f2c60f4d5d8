import type { Store } from '#shared/api/catalog.ts';

// Store labels of the signed-in screens: the create-search dropdown (label, typed filtering,
// order) and the search header. Kept apart from store-labels.ts, which only the landing page
// loads, so none of this counts against the landing page's script budget.

/** Store fields the create-search dropdown shows and filters on. */
export type StoreLabelInput = Pick<Store, 'store_name' | 'city' | 'state_code' | 'closed_on'>;

/**
 * Dropdown label: "name | city, state code", or "name | city" without a state code; a closed
 * store (offered only as a search's own) reads "name (closed) | city".
 */
export function formatStoreOptionLabel(store: StoreLabelInput): string {
  const place =
    store.state_code === null || store.state_code === ''
      ? store.city
      : `${store.city}, ${store.state_code}`;
  const name =
    store.closed_on === null || store.closed_on === undefined
      ? store.store_name
      : `${store.store_name} (closed)`;
  return `${name} | ${place}`;
}

/** Search header line: "near {store name} | {city}, {state}" (no state: "| {city}"). */
export function formatSearchLocation(search: {
  store_name: string;
  store_city: string;
  store_state: string | null;
}): string {
  const place =
    search.store_state === null || search.store_state === ''
      ? search.store_city
      : `${search.store_city}, ${search.store_state}`;
  return `near ${search.store_name} | ${place}`;
}

/** Store fields the create-search filter matches typed text against. */
export type StoreFilterInput = StoreLabelInput & Pick<Store, 'state_name' | 'postal_code'>;

// "W1B2EL" and "w1b 2el" both find "W1B 2EL": postal codes are compared without spaces or case.
function normalizePostalCode(text: string): string {
  return text.replaceAll(/\s+/g, '').toLowerCase();
}

/**
 * Typing filters stores by their label (name and city) or full state name, ignoring case, or
 * by the start of their postal code ("941" finds 94108).
 */
export function matchesStoreFilter(store: StoreFilterInput, input: string): boolean {
  const needle = input.trim().toLowerCase();
  if (needle === '') {
    return true;
  }
  const postalNeedle = normalizePostalCode(needle);
  return (
    formatStoreOptionLabel(store).toLowerCase().includes(needle) ||
    (store.state_name ?? '').toLowerCase().includes(needle) ||
    (store.postal_code !== null &&
      postalNeedle !== '' &&
      normalizePostalCode(store.postal_code).startsWith(postalNeedle))
  );
}

/** Store fields the dropdown order reads. */
export type StoreOrderInput = Pick<Store, 'store_name' | 'city' | 'state_code' | 'country_locale'>;

// Apple writes store locales with an underscore ("en_GB"); Intl wants a hyphen.
function parseLocale(tag: string): Intl.Locale | undefined {
  try {
    return new Intl.Locale(tag.trim().replaceAll('_', '-'));
  } catch {
    return undefined;
  }
}

/**
 * Two-letter region of a language tag ("en-US" -> "US", "de_DE" -> "DE"). A tag without one
 * ("de") takes its language's likely region, so a German browser still sees German stores first.
 */
export function readLocaleRegion(tag: string): string | undefined {
  const locale = parseLocale(tag);
  if (locale === undefined) return undefined;
  const region = locale.region ?? locale.maximize().region;
  // Numeric UN M49 areas ("es-419") are not countries with stores.
  return region !== undefined && /^[A-Z]{2}$/.test(region) ? region : undefined;
}

/** Sorts by the dropdown label in the visitor's language, falling back to English. */
function createLabelCollator(languageTag: string): Intl.Collator {
  try {
    return new Intl.Collator(languageTag, { sensitivity: 'base', numeric: true });
  } catch {
    return new Intl.Collator('en', { sensitivity: 'base', numeric: true });
  }
}

/**
 * Stores for the create-search dropdown: those in the visitor's country (the region of the
 * browser's language tag) first, then every other store; each group alphabetical by label.
 */
export function orderStoresForLocale<T extends StoreOrderInput>(
  stores: readonly T[],
  languageTag: string,
): T[] {
  const region = readLocaleRegion(languageTag);
  const collator = createLabelCollator(languageTag);
  // A few hundred stores share a dozen locales: parse each locale once.
  const regions = new Map<string, string | undefined>();
  const regionOf = (locale: string) => {
    if (!regions.has(locale)) regions.set(locale, readLocaleRegion(locale));
    return regions.get(locale);
  };
  const labelled = stores.map((store) => ({
    store,
    label: formatStoreOptionLabel(store),
    isLocal: region !== undefined && regionOf(store.country_locale) === region,
  }));
  labelled.sort(
    (a, b) => Number(b.isLocal) - Number(a.isLocal) || collator.compare(a.label, b.label),
  );
  return labelled.map(({ store }) => store);
}
