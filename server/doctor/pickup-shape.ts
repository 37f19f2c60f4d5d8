import type { FieldShape, JsonShape } from './shape-drift.ts';

// The shape of Apple's pickup answers as captured, written out so `shelfwatch doctor` can hold
// a live answer against it without ../shared (which users do not have). Sources, in
// ../shared/reference/apple/captures/:
// - ae-pickup-message-abu-dhabi-2026-09-21-mjx94.json: pickup-message with stores at
//   `body.stores` (UAE, location=Abu Dhabi, 2026-09-21): every key below, its nesting and its
//   type; nulls there are nullable here; `state` is absent there but read where Apple sends it.
// - hk-pickup-message-empty-content-2025-10-06.json: the answer when nothing asked is
//   sellable, `{"head":{"status":"200","data":{}},"body":{"content":{}}}`.
// - the 2021-2024 fulfillment-messages answer (reference README, "The pickup availability
//   endpoint"): stores at `body.content.pickupMessage.stores`.
// `isRead` marks what shared/upstream (wire-schema.ts, parse-stores.ts) and the filing of
// stores learned from answers read; a difference there is drift, any other a note.

const STRING: JsonShape = { type: 'string' };
const NUMBER: JsonShape = { type: 'number' };
const BOOLEAN: JsonShape = { type: 'boolean' };
const ANY: JsonShape = { type: 'any' };

/** A field Shelfwatch reads. */
function read(shape: JsonShape, extra: Omit<FieldShape, 'shape' | 'isRead'> = {}): FieldShape {
  return { shape, isRead: true, ...extra };
}

/** A field the capture carries and Shelfwatch does not read. */
function seen(shape: JsonShape, extra: Omit<FieldShape, 'shape' | 'isRead'> = {}): FieldShape {
  return { shape, isRead: false, ...extra };
}

function object(fields: Record<string, FieldShape>, isOpen = false): JsonShape {
  return { type: 'object', fields, isOpen };
}

function array(items: JsonShape): JsonShape {
  return { type: 'array', items };
}

const REGULAR_MESSAGE = object({
  storeSearchEnabled: seen(BOOLEAN),
  storePickupLabel: seen(STRING),
  storeSelectionEnabled: read(BOOLEAN),
  storePickupQuote: read(STRING),
  storePickupQuote2_0: seen(STRING),
  storePickupLinkText: seen(STRING),
  storePickupProductTitle: read(STRING),
  basePartNumber: seen(STRING),
});

const PART = object({
  storePickEligible: read(BOOLEAN),
  pickupSearchQuote: read(STRING),
  partNumber: read(STRING),
  purchaseOption: seen(STRING),
  ctoOptions: seen(STRING),
  pickupDisplay: read(STRING),
  pickupType: read(STRING),
  messageTypes: read(object({ regular: read(REGULAR_MESSAGE) })),
});

// retailStore.address holds some fifty keys, nearly all null in the capture: the ones read or
// carrying a value are listed, the rest are not worth a note each.
const RETAIL_ADDRESS = object(
  {
    companyName: seen(STRING),
    street: read(STRING),
    city: read(STRING),
    postalCode: read(STRING, { isNullable: true }),
    state: read(STRING, { isNullable: true }),
    countryCode: read(STRING),
    daytimePhone: seen(STRING, { isNullable: true }),
    uuid: seen(STRING),
    languageCode: seen(STRING),
    type: seen(STRING),
    primaryAddress: seen(BOOLEAN),
    businessAddress: seen(BOOLEAN),
    verificationState: seen(STRING),
  },
  true,
);

const RETAIL_STORE = object({
  storeNumber: read(STRING),
  storeUniqueId: seen(STRING),
  name: read(STRING),
  storeTypeKey: seen(STRING),
  storeSubTypeKey: seen(STRING),
  storeType: seen(STRING),
  phoneNumber: seen(STRING),
  email: seen(STRING),
  carrierCode: seen(ANY),
  locationType: seen(ANY),
  latitude: read(NUMBER),
  longitude: read(NUMBER),
  address: read(RETAIL_ADDRESS),
  urlKey: seen(ANY),
  directionsUrl: seen(ANY),
  storeImageUrl: seen(STRING),
  makeReservationUrl: seen(STRING),
  hoursAndInfoUrl: seen(STRING),
  storeHours: seen(
    array(
      object({ storeDays: seen(STRING), voStoreDays: seen(STRING), storeTimings: seen(STRING) }),
    ),
  ),
  storeHolidays: seen(array(ANY)),
  secureStoreImageUrl: seen(STRING),
  distance: read(NUMBER),
  distanceUnit: read(STRING),
  distanceWithUnit: seen(STRING),
  timezone: read(STRING),
  storeIsActive: seen(BOOLEAN),
  lastUpdated: seen(NUMBER),
  lastFetched: seen(NUMBER),
  dateStamp: seen(STRING),
  distanceSeparator: seen(STRING),
  nextAvailableDate: seen(ANY),
  storeHolidayLookAheadWindow: seen(NUMBER),
  driveDistanceWithUnit: seen(ANY),
  driveDistanceInMeters: seen(ANY),
  dynamicAttributes: seen(ANY),
  storePickupMethodByType: seen(ANY),
  storeTimings: seen(ANY),
  availableNow: seen(BOOLEAN),
});

const STORE = object({
  storeEmail: seen(STRING),
  storeName: read(STRING),
  reservationUrl: seen(STRING),
  makeReservationUrl: seen(STRING),
  storeImageUrl: seen(STRING),
  country: read(STRING),
  city: read(STRING),
  state: read(STRING, { isOptional: true }),
  storeNumber: read(STRING),
  partsAvailability: read({ type: 'map', values: PART }),
  phoneNumber: seen(STRING),
  pickupTypeAvailabilityText: seen(STRING),
  address: read(
    object({
      address: read(STRING),
      address2: read(STRING, { isNullable: true }),
      address3: seen(STRING, { isNullable: true }),
      postalCode: read(STRING, { isNullable: true }),
    }),
  ),
  hoursUrl: seen(STRING),
  storeHours: seen(
    object({
      storeHoursText: seen(STRING),
      bopisPickupDays: seen(STRING),
      bopisPickupHours: seen(STRING),
      hours: seen(array(object({ storeTimings: seen(STRING), storeDays: seen(STRING) }))),
    }),
  ),
  storelatitude: read(NUMBER),
  storelongitude: read(NUMBER),
  storedistance: read(NUMBER),
  storeDistanceWithUnit: read(STRING),
  storeDistanceVoText: seen(STRING),
  retailStore: read(RETAIL_STORE),
  storelistnumber: seen(NUMBER),
  storeListNumber: seen(NUMBER),
  pickupOptionsDetails: seen(
    object({
      whatToExpectAtPickup: seen(STRING),
      comparePickupOptionsLink: seen(STRING),
      pickupOptions: seen(
        array(
          object({
            pickupOptionTitle: seen(STRING),
            pickupOptionDescription: seen(STRING),
            index: seen(NUMBER),
          }),
        ),
      ),
    }),
  ),
  rank: seen(NUMBER),
});

/** A pickup-message answer that lists stores (the UAE capture). */
export const PICKUP_MESSAGE_SHAPE: JsonShape = object({
  head: read(object({ status: read(STRING), data: seen(ANY) })),
  body: read(
    object({
      stores: read(array(STORE)),
      overlayInitiatedFromWarmStart: seen(BOOLEAN),
      viewMoreHoursLinkText: seen(STRING),
      storesCount: seen(STRING),
      little: seen(BOOLEAN),
      location: read(STRING, { isOptional: true }),
      notAvailableNearby: seen(STRING),
      notAvailableNearOneStore: seen(STRING),
      warmDudeWithAPU: seen(BOOLEAN),
      viewMoreHoursVoText: seen(STRING),
      availability: seen(object({ isComingSoon: seen(BOOLEAN) })),
      viewDetailsText: seen(STRING),
      legendLabelText: seen(STRING),
      filteredTopStore: seen(BOOLEAN),
    }),
  ),
});

/** A fulfillment-messages answer with stores, as until 2024: only what Shelfwatch reads. */
export const FULFILLMENT_MESSAGES_SHAPE: JsonShape = object({
  head: read(object({ status: read(STRING) }, true)),
  body: read(
    object(
      {
        content: read(
          object(
            {
              pickupMessage: read(
                object(
                  {
                    stores: read(
                      array(
                        object(
                          {
                            storeNumber: read(STRING),
                            storeName: read(STRING),
                            partsAvailability: read({
                              type: 'map',
                              values: object({ pickupDisplay: read(STRING) }, true),
                            }),
                          },
                          true,
                        ),
                      ),
                    ),
                  },
                  true,
                ),
              ),
            },
            true,
          ),
        ),
      },
      true,
    ),
  ),
});

/**
 * True for the captured "nothing asked is sellable here" answer: HTTP 200, head status "200",
 * `body.content` an empty object and no stores.
 */
export function isEmptyContentAnswer(document: unknown): boolean {
  const body = readObject(readObject(document)?.body);
  const content = readObject(body?.content);
  return (
    body !== undefined &&
    content !== undefined &&
    Object.keys(content).length === 0 &&
    !Object.hasOwn(body, 'stores')
  );
}

function readObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
