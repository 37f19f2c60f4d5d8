import { wirePartSchema, wireStoreSchema, type WireStore } from './wire-schema.ts';
import type {
  DistanceUnit,
  PartAvailability,
  PickupStatus,
  StoreAvailability,
  StoreDistance,
  StoreFacts,
} from './types.ts';

// Turns individual wire stores and parts into the model. Everything here is total: a part
// it cannot read becomes `unknown`, a store it cannot identify becomes null.

/** Options shared by the store and part parsers. */
export type StoreParseOptions = {
  /** Parts the request asked for; any a store leaves out are reported as `unknown`. */
  requestedParts?: readonly string[];
  /** Unit assumed when a distance carries none (the request country's usual unit). */
  defaultUnit?: DistanceUnit;
};

/** Maps Apple's `pickupDisplay` onto a status; anything unrecognised is `unknown`. */
export function mapPickupDisplay(value: string | undefined): PickupStatus {
  switch (value?.trim().toLowerCase()) {
    case 'available':
      return 'available';
    case 'unavailable':
      return 'unavailable';
    case 'ineligible':
      return 'ineligible';
    default:
      return 'unknown';
  }
}

/** Parses one raw `partsAvailability` entry; never throws. */
export function parsePart(partNumber: string, raw: unknown): PartAvailability {
  const parsed = wirePartSchema.safeParse(raw);
  if (!parsed.success) return buildUnknownPart(partNumber);
  const part = parsed.data;
  const regular = part.messageTypes?.regular;
  return {
    partNumber,
    status: mapPickupDisplay(part.pickupDisplay),
    pickupQuote: cleanQuote(
      regular?.storePickupQuote ?? part.storePickupQuote ?? part.pickupSearchQuote,
    ),
    productTitle: cleanQuote(regular?.storePickupProductTitle ?? part.storePickupProductTitle),
    isPickEligible: part.storePickEligible ?? null,
  };
}

/** A part the answer said nothing readable about. */
export function buildUnknownPart(partNumber: string): PartAvailability {
  return {
    partNumber,
    status: 'unknown',
    pickupQuote: null,
    productTitle: null,
    isPickEligible: null,
  };
}

/** Parses one raw store; null when it has no store number to file its parts under. */
export function parseStore(
  raw: unknown,
  options: StoreParseOptions = {},
): StoreAvailability | null {
  const parsed = wireStoreSchema.safeParse(raw);
  if (!parsed.success) return null;
  const store = parsed.data;
  const storeNumber = (store.storeNumber ?? store.retailStore?.storeNumber)?.trim();
  if (storeNumber === undefined || storeNumber === '') return null;
  const address = store.retailStore?.address;
  return {
    storeNumber,
    name: cleanQuote(store.storeName) ?? cleanQuote(store.retailStore?.name) ?? storeNumber,
    city: cleanQuote(store.city) ?? cleanQuote(address?.city) ?? null,
    state: cleanQuote(store.state) ?? cleanQuote(address?.state) ?? null,
    country: nonEmpty(store.country) ?? nonEmpty(address?.countryCode) ?? null,
    distance: readDistance(store, options.defaultUnit),
    latitude: inRange(store.storelatitude ?? store.retailStore?.latitude, 90),
    longitude: inRange(store.storelongitude ?? store.retailStore?.longitude, 180),
    parts: parseParts(store.partsAvailability ?? {}, options.requestedParts ?? []),
    facts: readStoreFacts(store),
  };
}

// The store's own address block first (its `address` line is the "Apple <name>" label, the
// street follows in `address2`), then `retailStore.address` (street, street2).
function readStoreFacts(store: WireStore): StoreFacts {
  const own = store.address;
  const retail = store.retailStore;
  return {
    timezone: nonEmpty(retail?.timezone) ?? null,
    street: cleanQuote(own?.address2) ?? cleanQuote(retail?.address?.street) ?? null,
    street2: cleanQuote(own?.address3) ?? cleanQuote(retail?.address?.street2) ?? null,
    postalCode: nonEmpty(own?.postalCode) ?? nonEmpty(retail?.address?.postalCode) ?? null,
    phone: cleanQuote(store.phoneNumber) ?? cleanQuote(retail?.phoneNumber) ?? null,
  };
}

// Requested parts first, in request order, so callers can zip results with their query;
// parts Apple added on its own are kept after them rather than dropped.
function parseParts(
  availability: Record<string, unknown>,
  requestedParts: readonly string[],
): PartAvailability[] {
  const requested = requestedParts.map((partNumber) =>
    Object.hasOwn(availability, partNumber)
      ? parsePart(partNumber, availability[partNumber])
      : buildUnknownPart(partNumber),
  );
  const extra = Object.keys(availability)
    .filter((partNumber) => !requestedParts.includes(partNumber))
    .map((partNumber) => parsePart(partNumber, availability[partNumber]));
  return [...requested, ...extra];
}

function readDistance(
  store: WireStore,
  defaultUnit: DistanceUnit | undefined,
): StoreDistance | null {
  const text = store.storeDistanceWithUnit;
  const value = store.storedistance ?? store.retailStore?.distance ?? parseDistanceText(text);
  if (value === undefined || value < 0) return null;
  const unit =
    detectUnit(text) ?? detectUnit(store.retailStore?.distanceUnit) ?? defaultUnit ?? 'km';
  return { value, unit };
}

/** Reads the number in "3.39 mi", "5,2 km" or "1,204.5 mi". */
export function parseDistanceText(text: string | undefined): number | undefined {
  const match = text?.match(/\d[\d.,]*/);
  if (!match) return undefined;
  const digits = match[0];
  // A comma followed by one or two digits is a decimal comma ("5,2 km"); otherwise thousands.
  const normalized =
    /,\d{1,2}$/.test(digits) && !digits.includes('.')
      ? digits.replace(',', '.')
      : digits.replace(/,/g, '');
  const value = Number(normalized);
  return Number.isFinite(value) ? value : undefined;
}

function detectUnit(text: string | undefined): DistanceUnit | undefined {
  if (text === undefined) return undefined;
  if (/\bmi\b|\bmiles?\b/i.test(text)) return 'mi';
  if (/\bkm\b|公里|キロ|킬로/i.test(text)) return 'km';
  return undefined;
}

// Quotes arrive with markup ("Available<br/>Today") and names with U+00A0 between words;
// alerts and lists want plain text (JavaScript's \s covers U+00A0).
function cleanQuote(value: string | undefined): string | null {
  if (value === undefined) return null;
  const text = value
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? null : text;
}

function nonEmpty(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text === '' ? undefined : text;
}

function inRange(value: number | undefined, limit: number): number | null {
  return value !== undefined && Math.abs(value) <= limit ? value : null;
}
