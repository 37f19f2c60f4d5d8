// Field names are snake_case because these rows go straight into the database and out through
// /v2 (see shared/api/catalog.ts); renaming them here would mean a mapping layer everywhere.

/** A country Shelfwatch serves; `locale_code` matches the store directory's locale for it. */
export type CountrySeed = {
  country_code: string;
  locale_code: string;
  display_name: string;
};

/** An Apple retail store; optional address parts are null rather than empty strings. */
export type StoreSeed = {
  store_id: string;
  store_name: string;
  country_locale: string;
  city: string;
  state_code: string | null;
  state_name: string | null;
  address1: string;
  address2: string | null;
  postal_code: string | null;
  telephone: string | null;
  store_slug: string;
  latitude: number;
  longitude: number;
  /** IANA zone ("Europe/London"); the seed carries one for every store (store-seed.json). */
  time_zone?: string | null;
};

/** A store read from Apple's directory, which carries no coordinates nor time zone. */
export type DirectoryStore = Omit<StoreSeed, 'latitude' | 'longitude' | 'time_zone'> & {
  latitude: null;
  longitude: null;
};

/** Icon family of a product type (spec section 2, "Product icons"). */
export type ProductFamily =
  | 'earbuds'
  | 'headphones'
  | 'watch'
  | 'tablet'
  | 'phone-classic'
  | 'phone-modern'
  | 'phone-foldable'
  | 'laptop'
  | 'studio-desktop'
  | 'mini-desktop'
  | 'display'
  | 'pencil-adapter'
  | 'smart-speaker';

/** A product type a search watches, e.g. 'iphone16pro'. */
export type ProductTypeSeed = {
  product_id: string;
  product_name: string;
  family: ProductFamily;
  sort_order: number;
  /** Launch date, YYYY-MM-DD, when known. */
  launched_on?: string | null;
  /** No longer sold anywhere from this date (YYYY-MM-DD); null while sold. */
  retired_on?: string | null;
  /** Path of its buy page under a country's store, e.g. "/shop/buy-iphone/iphone-18-pro". */
  buy_page?: string | null;
  /** Since when (YYYY-MM-DD) that page redirects elsewhere: it is no longer read. */
  buy_page_retired_on?: string | null;
};

/** One orderable configuration of a product type in one country. */
export type ProductModelSeed = {
  product_id: string;
  country_code: string;
  part_number: string;
  display_name: string;
  /** Where the part number was seen (the catalog file's sources, spelled out). */
  source?: string;
  /** No longer sold in this country from this date (YYYY-MM-DD); null while sold. */
  retired_on?: string | null;
};

/** The parts of a tablet product code that pick its icon. */
export type TabletVariant = {
  line: 'mini' | 'air' | 'pro';
  size?: 11 | 13;
  connectivity: 'wifi' | 'cellular';
};
