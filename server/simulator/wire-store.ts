import type { DistanceUnit } from '#shared/upstream/index.ts';
import type { ListedStore, SimStore } from './sim-catalog.ts';
import {
  buildAddressUuid,
  buildRetailUrl,
  buildShippingPickupUrl,
  buildStoreImageUrl,
  findTimezone,
  formatDateStamp,
  listStoreHours,
} from './store-facts.ts';
import { buildPartEntry, type PartLine } from './wire-parts.ts';

// One store of an answer, field for field as the AE pickup-message capture
// (../shared/reference/apple/captures/ae-pickup-message-abu-dhabi-2026-09-21-mjx94.json)
// carries it. What the catalog does not know is sent as Apple sends a missing value there:
// null, or an empty string where the field is text.

/** One store row of an answer: the store, its distance and its parts. */
export type StoreRow = ListedStore & { parts: PartLine[] };

/** What a store entry needs to know about the request. */
export type StoreEntryContext = { unit: DistanceUnit; nowMs: number };

const KM_PER_MILE = 1.609344;

/** Formats a distance the way Apple's storeDistanceWithUnit does ("3.39 mi", "9.44 km"). */
export function formatDistance(
  distanceKm: number,
  unit: DistanceUnit,
): { value: number; text: string } {
  const value = Math.round((unit === 'mi' ? distanceKm / KM_PER_MILE : distanceKm) * 100) / 100;
  return { value, text: `${value.toFixed(2)} ${unit}` };
}

/** One entry of `stores`, ranked `listNumber` (1 for the nearest). */
export function buildStoreEntry(
  row: StoreRow,
  listNumber: number,
  context: StoreEntryContext,
): Record<string, unknown> {
  const { store } = row;
  const distance = formatDistance(row.distanceKm, context.unit);
  const retailUrl = buildRetailUrl(store);
  // Apple sends `state` only where a country has states: the AE capture has no such key.
  const state = store.state_code ?? (store.countryCode === 'CN' ? store.state_name : null);
  return {
    storeEmail: `${store.store_slug}@apple.com`,
    storeName: store.store_name,
    reservationUrl: retailUrl,
    makeReservationUrl: retailUrl,
    ...(state === null ? {} : { state }),
    storeImageUrl: buildStoreImageUrl(store),
    country: store.countryCode,
    city: store.city,
    storeNumber: store.store_id,
    partsAvailability: Object.fromEntries(
      row.parts.map((part) => [part.model.part_number, buildPartEntry(part, store.store_name)]),
    ),
    phoneNumber: store.telephone ?? '',
    pickupTypeAvailabilityText: 'In-Store Pickup available at this location.',
    address: {
      address: `Apple ${store.store_name}`,
      address3: store.address2,
      address2: store.address1,
      postalCode: store.postal_code,
    },
    hoursUrl: retailUrl,
    storeHours: {
      storeHoursText: 'Store Hours:',
      bopisPickupDays: 'Days',
      bopisPickupHours: 'Hours',
      hours: listStoreHours(store).map((line) => ({
        storeTimings: line.timings,
        storeDays: `${line.days}:`,
      })),
    },
    storelatitude: store.latitude,
    storelongitude: store.longitude,
    storedistance: distance.value,
    storeDistanceWithUnit: distance.text,
    storeDistanceVoText: '',
    retailStore: buildRetailStore(store, distance, context),
    storelistnumber: listNumber,
    storeListNumber: listNumber,
    pickupOptionsDetails: buildPickupOptionsDetails(store.countryCode),
    rank: listNumber,
  };
}

function buildRetailStore(
  store: SimStore,
  distance: { value: number; text: string },
  context: StoreEntryContext,
): Record<string, unknown> {
  const retailUrl = buildRetailUrl(store);
  const imageUrl = buildStoreImageUrl(store);
  const timezone = findTimezone(store);
  return {
    storeNumber: store.store_id,
    storeUniqueId: store.store_id,
    name: store.store_name,
    storeTypeKey: '1',
    storeSubTypeKey: '0',
    storeType: 'APPLESTORE_DEFAULT',
    phoneNumber: store.telephone ?? '',
    email: `${store.store_slug}@apple.com`,
    carrierCode: null,
    locationType: null,
    latitude: store.latitude,
    longitude: store.longitude,
    address: buildAddressRecord(store),
    urlKey: null,
    directionsUrl: null,
    storeImageUrl: imageUrl.replace(/^https:/, 'http:'),
    makeReservationUrl: retailUrl,
    hoursAndInfoUrl: retailUrl,
    storeHours: listStoreHours(store).map((line) => ({
      storeDays: line.days,
      voStoreDays: line.spokenDays,
      storeTimings: line.timings,
    })),
    storeHolidays: [],
    secureStoreImageUrl: imageUrl,
    distance: distance.value,
    distanceUnit: context.unit,
    distanceWithUnit: distance.text,
    timezone,
    storeIsActive: true,
    lastUpdated: 0,
    lastFetched: context.nowMs,
    dateStamp: formatDateStamp(context.nowMs, timezone),
    distanceSeparator: '.',
    nextAvailableDate: null,
    storeHolidayLookAheadWindow: 7,
    driveDistanceWithUnit: null,
    driveDistanceInMeters: null,
    dynamicAttributes: {},
    storePickupMethodByType: {
      INSTORE: {
        type: 'INSTORE',
        services: ['APU', 'Service'],
        typeDirection: { directionByLocale: null },
        typeCoordinate: { lat: store.latitude, lon: store.longitude },
        typeMeetupLocation: { meetingLocationByLocale: null },
      },
    },
    storeTimings: null,
    availableNow: true,
  };
}

// retailStore.address: Apple's full address record, most of it null for a store.
function buildAddressRecord(store: SimStore): Record<string, unknown> {
  const [language = 'en'] = store.country_locale.split('_');
  return {
    ...nullFields('title firstName middleName lastName suffix firstNamePhonetic lastNamePhonetic'),
    companyName: `Apple ${store.store_name}`,
    street: store.address1,
    street2: store.address2,
    street3: null,
    suburb: null,
    city: store.city,
    county: null,
    district: null,
    postalCode: store.postal_code,
    addressCode: null,
    state: store.state_code,
    province: null,
    countryCode: store.countryCode,
    daytimePhoneSelected: null,
    daytimePhoneAreaCode: null,
    daytimePhone: store.telephone ?? '',
    ...nullFields(
      'fullPhoneNumber eveningPhoneAreaCode eveningPhone mobilePhone mobilePhoneAreaCode secondaryPhoneAreaCode secondaryPhone emailAddress residenceStatus moveInDate subscriberId locationType carrierCode twoLineAddress metadata',
    ),
    uuid: buildAddressUuid(store),
    geoCode: null,
    label: null,
    languageCode: `${language}-${store.countryCode}`.toLowerCase(),
    mailStop: null,
    type: 'SHIPPING',
    addressSourceType: null,
    outsideCityFlag: null,
    primaryAddress: false,
    businessAddress: false,
    cityStateZip: null,
    verificationState: 'UN_VERIFIED',
    matchingScenario: null,
    qualityCode: null,
    savedState: null,
  };
}

function nullFields(names: string): Record<string, null> {
  return Object.fromEntries(names.split(' ').map((name) => [name, null]));
}

// The pickup overlay's explanation, in the AE capture's words, linking the country's page.
function buildPickupOptionsDetails(countryCode: string): Record<string, unknown> {
  const link = buildShippingPickupUrl(countryCode);
  return {
    whatToExpectAtPickup:
      '<h4 class="as-pickupmethods-intro-header">What to expect at pickup </h4><br /> We’ll email detailed pickup instructions when your order is ready. For new device setup, schedule a free online session with an Apple Specialist.',
    comparePickupOptionsLink: `<a href="${link}" data-feature-name="Astro Link" data-display-name="AOS: shop/shipping-pickup" target="_blank">Learn more about delivery <br />and pickup<span class="icon icon-after icon-external"></span><span class="visuallyhidden">(Opens in a new window)</span></a>`,
    pickupOptions: [
      {
        pickupOptionTitle: 'In-Store',
        pickupOptionDescription:
          'Pick up your online order. You may be able to get setup help and shop for accessories.',
        index: 1,
      },
    ],
  };
}
