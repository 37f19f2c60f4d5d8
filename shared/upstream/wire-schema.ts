import { z } from 'zod';

// Zod schemas for Apple's pickup JSON. Only the envelope is strict: every leaf field falls
// back to `undefined` when it has an unexpected type, so one odd field spoils nothing else.

const optionalText = z.string().optional().catch(undefined);
const optionalBoolean = z.boolean().optional().catch(undefined);

// Apple sends numbers, but older answers and some locales quote them ("3.39", "5,2").
const optionalNumber = z
  .preprocess((value) => (typeof value === 'string' ? parseNumericText(value) : value), z.number())
  .optional()
  .catch(undefined);

function parseNumericText(value: string): number | undefined {
  const text = value.trim();
  return text === '' ? undefined : Number(text.replace(',', '.'));
}

const regularMessageSchema = z.object({
  storePickupQuote: optionalText,
  storePickupProductTitle: optionalText,
  storeSelectionEnabled: optionalBoolean,
});

/** One entry of `partsAvailability`; every field optional so a partial entry still parses. */
export const wirePartSchema = z.object({
  partNumber: optionalText,
  pickupDisplay: optionalText,
  pickupSearchQuote: optionalText,
  storePickEligible: optionalBoolean,
  pickupType: optionalText,
  // The older pickup-message answer carried these directly on the part.
  storePickupQuote: optionalText,
  storePickupProductTitle: optionalText,
  messageTypes: z
    .object({ regular: regularMessageSchema.optional().catch(undefined) })
    .optional()
    .catch(undefined),
});

/**
 * The part of Apple's per-store `retailStore` record read: fallbacks for top-level fields, and
 * what filing a store the catalog lacks needs (zone, address, phone; the AE capture of
 * ../shared/reference/apple/captures carries about 40 fields, most of them null).
 */
const retailStoreSchema = z.object({
  storeNumber: optionalText,
  name: optionalText,
  phoneNumber: optionalText,
  latitude: optionalNumber,
  longitude: optionalNumber,
  distance: optionalNumber,
  distanceUnit: optionalText,
  timezone: optionalText,
  address: z
    .object({
      companyName: optionalText,
      street: optionalText,
      street2: optionalText,
      city: optionalText,
      state: optionalText,
      postalCode: optionalText,
      countryCode: optionalText,
    })
    .optional()
    .catch(undefined),
});

/** A store's own address block: `address` is the "Apple <name>" label, the street follows. */
const storeAddressSchema = z.object({
  address: optionalText,
  address2: optionalText,
  address3: optionalText,
  postalCode: optionalText,
});

/** One entry of `stores`; parts stay raw here so each is parsed on its own. */
export const wireStoreSchema = z.object({
  storeNumber: optionalText,
  storeName: optionalText,
  city: optionalText,
  state: optionalText,
  country: optionalText,
  storedistance: optionalNumber,
  storeDistanceWithUnit: optionalText,
  storelatitude: optionalNumber,
  storelongitude: optionalNumber,
  phoneNumber: optionalText,
  address: storeAddressSchema.optional().catch(undefined),
  retailStore: retailStoreSchema.optional().catch(undefined),
  partsAvailability: z.record(z.string(), z.unknown()).optional().catch(undefined),
});

/** The block that lists stores: `body` itself, or `body.content.pickupMessage`. */
const storeListSchema = z.object({
  stores: z.array(z.unknown()).optional(),
  errorMessage: optionalText,
  location: optionalText,
});

/** The envelope of both answer shapes; failing this is a malformed answer. */
export const wireEnvelopeSchema = z.object({
  head: z
    .object({ status: z.union([z.string(), z.number()]).optional().catch(undefined) })
    .optional()
    .catch(undefined),
  body: storeListSchema.extend({
    content: z.object({ pickupMessage: storeListSchema.optional() }).optional(),
  }),
});

/** A part entry as parsed from the wire. */
export type WirePart = z.infer<typeof wirePartSchema>;

/** A store entry as parsed from the wire. */
export type WireStore = z.infer<typeof wireStoreSchema>;

/** A store-listing block as parsed from the wire. */
export type WireStoreList = z.infer<typeof storeListSchema>;
