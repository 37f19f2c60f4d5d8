// The one model both endpoint shapes are parsed into, and the typed failures the client
// reports instead of ever guessing "unavailable".

/** The two retail endpoints Apple serves pickup availability from. */
export type EndpointShape = 'fulfillment-messages' | 'pickup-message';

/** Pickup status of one part at one store; `unknown` means the answer could not tell. */
export type PickupStatus = 'available' | 'unavailable' | 'ineligible' | 'unknown';

/** A status that says something definite about the shelf. */
export type KnownPickupStatus = Exclude<PickupStatus, 'unknown'>;

/** Unit of a store distance as Apple reports it (miles in the US and UK). */
export type DistanceUnit = 'mi' | 'km';

/** Distance from the searched store or location to a listed store. */
export type StoreDistance = { value: number; unit: DistanceUnit };

/** Availability of one part at one store. */
export type PartAvailability = {
  partNumber: string;
  status: PickupStatus;
  /** Human quote such as "Today at Apple University Village", tags stripped. */
  pickupQuote: string | null;
  /** Model display name, e.g. "iPhone 14 Pro 128GB Deep Purple". */
  productTitle: string | null;
  isPickEligible: boolean | null;
};

/**
 * What an answer says about a store besides its stock (pickup-message's `retailStore` and
 * address blocks), enough to file a store the catalog lacks. Every field may be missing.
 */
export type StoreFacts = {
  /** IANA zone, e.g. "Asia/Dubai". */
  timezone: string | null;
  /** Street lines, without the "Apple <name>" label line Apple puts first. */
  street: string | null;
  street2: string | null;
  postalCode: string | null;
  phone: string | null;
};

/** One store listed in an answer, with every part the answer covered there. */
export type StoreAvailability = {
  storeNumber: string;
  name: string;
  city: string | null;
  state: string | null;
  country: string | null;
  distance: StoreDistance | null;
  latitude: number | null;
  longitude: number | null;
  parts: PartAvailability[];
  /** Left out by callers that build stores by hand; the parser always sets it. */
  facts?: StoreFacts;
};

/** What a readable answer contains, independent of how it was fetched. */
export type ParsedPickup = {
  /** The searched location as Apple echoes it ("98107"), when it does. */
  location: string | null;
  /** Stores nearest first, as listed upstream. */
  stores: StoreAvailability[];
  /** Stores left out because they carried no store number to file them under. */
  skippedStoreCount: number;
};

/** A successful pickup availability answer. */
export type PickupAnswer = ParsedPickup & {
  endpoint: EndpointShape;
  url: string;
  observedAt: number;
};

/** Why an upstream call produced no usable stores. */
export type UpstreamFailureKind =
  | 'blocked'
  | 'http'
  | 'html'
  | 'upstream_error'
  | 'invalid_parts'
  /** Apple's empty-content answer: nothing asked is sellable there (not an upstream fault). */
  | 'nothing_sellable'
  | 'implausible'
  | 'malformed'
  | 'network';

/** A typed failure; callers turn it into `unknown` observations, never `unavailable`. */
export type UpstreamFailure = {
  kind: UpstreamFailureKind;
  message: string;
  httpStatus?: number;
  /** Seconds to leave this upstream host alone; 0 means ordinary backoff is enough. */
  coolDownSeconds: number;
  endpoint?: EndpointShape;
  url?: string;
};

/** Either a value or a typed upstream failure. */
export type UpstreamResult<T> = { ok: true; value: T } | { ok: false; failure: UpstreamFailure };

/** Where to look: one store (Apple's store number) or a free-form location such as a ZIP. */
export type PickupTarget =
  { storeNumber: string; location?: never } | { location: string; storeNumber?: never };

/** One upstream question: these parts at this store (and, by default, its neighbours). */
export type PickupRequest = PickupTarget & {
  /** ISO 3166-1 alpha-2 code, e.g. "US", "GB", "CN". */
  countryCode: string;
  partNumbers: readonly string[];
  /** Defaults to true: one request then also answers for the ~11 nearest stores. */
  searchNearby?: boolean;
  /** Buy page under `shop/` used as Referer, e.g. "buy-iphone/iphone-14-pro". */
  buyPagePath?: string;
};
