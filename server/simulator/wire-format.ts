import type { ProductModelSeed } from '#shared/catalog/index.ts';
import {
  getCountryStore,
  type DistanceUnit,
  type EndpointShape,
  type KnownPickupStatus,
} from '#shared/upstream/index.ts';
import type { ListedStore, SimStore } from './sim-catalog.ts';

// Apple's pickup JSON, field for field as the captured answers in
// tests/shared/upstream/fixtures carry it: the fulfillment-messages shape nests stores in
// body.content.pickupMessage and adds retailStore and rank; pickup-message puts them on body.

/** A requested part Apple knows in this country, with its status at one store. */
export type PartLine = { model: ProductModelSeed; status: KnownPickupStatus };

/** One store row of an answer: the store, its distance and its parts. */
export type StoreRow = ListedStore & { parts: PartLine[] };

/** What every part of an answer needs to know about the request. */
export type AnswerContext = {
  shape: EndpointShape;
  countryCode: string;
  unit: DistanceUnit;
  /** The searched location as Apple echoes it: the postal code of the searched store. */
  location: string;
  nowMs: number;
};

/** Apple's own words when it cannot find stores for a query. */
export const STORE_SEARCH_ERROR_MESSAGE =
  'We’re having trouble finding stores near you right now. Please try again later.';

/** Apple's words when a requested part is invalid or not buyable in that country. */
export const INVALID_PRODUCT_MESSAGE = 'Product(s) Invalid or not buyable';

const KM_PER_MILE = 1.609344;

const PICKUP_MESSAGE_EXTRAS = {
  overlayInitiatedFromWarmStart: false,
  viewMoreHoursLinkText: 'View more hours',
  little: false,
  notAvailableNearby: 'Not available today at [X] nearest stores.',
  notAvailableNearOneStore: 'Not available today at the nearest store.',
  warmDudeWithAPU: false,
  viewMoreHoursVoText: '(Opens in a new window)',
  availability: { isComingSoon: false },
  viewDetailsText: 'View details',
  legendLabelText: 'Stores',
  filteredTopStore: false,
};

/** The whole 200 answer listing stores, in the requested shape. */
export function buildStoresAnswer(rows: readonly StoreRow[], context: AnswerContext): unknown {
  const stores = rows.map((row, index) => buildStoreEntry(row, index + 1, context));
  const listFields = {
    ...PICKUP_MESSAGE_EXTRAS,
    storesCount: `${rows.length} ${rows.length === 1 ? 'store' : 'stores'} found near ${context.location}`,
    location: context.location,
  };
  if (context.shape === 'pickup-message') {
    const first = rows[0]?.store;
    return {
      head: { status: '200', data: {} },
      body: {
        stores,
        ...listFields,
        pickupLocationLabel: 'Your Apple Store:',
        pickupLocation: first === undefined ? '' : `Apple ${first.store_name}`,
      },
    };
  }
  const models = rows[0]?.parts.map((part) => part.model) ?? [];
  return {
    head: { status: '200', data: {} },
    body: {
      content: {
        pickupMessage: {
          stores,
          ...listFields,
          availabilityStores: rows
            .map((row) => row.store.store_id)
            .sort()
            .join(','),
        },
        deliveryMessage: buildDeliveryMessage(models, context.location),
      },
    },
  };
}

/** The 200 answer Apple gives when it lists no stores: an errorMessage and no stores. */
export function buildErrorAnswer(
  shape: EndpointShape,
  location: string,
  errorMessage: string = STORE_SEARCH_ERROR_MESSAGE,
): unknown {
  const list = { ...PICKUP_MESSAGE_EXTRAS, location, errorMessage };
  if (shape === 'pickup-message') return { head: { status: '200', data: {} }, body: list };
  return {
    head: { status: '200', data: {} },
    body: { content: { pickupMessage: list, deliveryMessage: buildDeliveryMessage([], location) } },
  };
}

/** Formats a distance the way Apple's storeDistanceWithUnit does ("3.39 mi", "5.20 km"). */
export function formatDistance(
  distanceKm: number,
  unit: DistanceUnit,
): { value: number; text: string } {
  const value = Math.round((unit === 'mi' ? distanceKm / KM_PER_MILE : distanceKm) * 100) / 100;
  return { value, text: `${value.toFixed(2)} ${unit}` };
}

function buildStoreEntry(
  row: StoreRow,
  listNumber: number,
  context: AnswerContext,
): Record<string, unknown> {
  const { store } = row;
  const distance = formatDistance(row.distanceKm, context.unit);
  const retailUrl = buildRetailUrl(store);
  const imageUrl = `https://rtlimages.apple.com/cmc/dieter/store/4_3/${store.store_id}.png?resize=828:*&output-format=jpg`;
  const state = store.state_code ?? (store.countryCode === 'CN' ? store.state_name : null);
  const entry: Record<string, unknown> = {
    storeEmail: `${store.store_slug}@apple.com`,
    storeName: store.store_name,
    reservationUrl: retailUrl,
    makeReservationUrl: retailUrl,
    ...(state === null ? {} : { state }),
    storeImageUrl: imageUrl,
    country: store.countryCode,
    city: store.city,
    storeNumber: store.store_id,
    partsAvailability: Object.fromEntries(
      row.parts.map((part) => [part.model.part_number, buildPartEntry(part, store)]),
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
    directionsUrl: retailUrl,
    storeHours: {
      storeHoursText: 'Store Hours',
      bopisPickupDays: 'Days',
      bopisPickupHours: 'Hours',
      hours: buildStoreHours(store).map(([days, timings]) => ({
        storeTimings: timings,
        storeDays: `${days}:`,
      })),
    },
    storelatitude: store.latitude,
    storelongitude: store.longitude,
    storedistance: distance.value,
    storeDistanceWithUnit: distance.text,
    storeDistanceVoText: `${distance.text} from ${context.location}`,
  };
  if (context.shape === 'fulfillment-messages') {
    entry.retailStore = buildRetailStore(store, distance, context, { retailUrl, imageUrl });
  }
  entry.storelistnumber = listNumber;
  entry.storeListNumber = listNumber;
  if (context.shape === 'fulfillment-messages') entry.rank = listNumber;
  return entry;
}

function buildPartEntry(part: PartLine, store: SimStore): Record<string, unknown> {
  const storeLabel = `Apple ${store.store_name}`;
  const trigger = `<button type="button" class="rf-pickup-quote-overlay-trigger as-retailavailabilitytrigger-infobutton retail-availability-search-trigger as-buttonlink" data-ase-overlay="buac-overlay" data-ase-click="show">${storeLabel}<span class="visuallyhidden">(Check Availability)</span></button>`;
  const quotes: Record<KnownPickupStatus, [search: string, quote: string, quote2: string]> = {
    available: ['Available<br/>Today', `Today at ${storeLabel}`, `Available today at ${trigger}`],
    unavailable: [
      'Currently unavailable',
      `Currently unavailable at ${storeLabel}`,
      `Currently unavailable at ${trigger}`,
    ],
    ineligible: [
      'Not available<br/>for pickup',
      `Not available for pickup at ${storeLabel}`,
      `Not available for pickup at ${trigger}`,
    ],
  };
  const [searchQuote, pickupQuote, pickupQuote2] = quotes[part.status];
  return {
    storePickEligible: part.status !== 'ineligible',
    pickupSearchQuote: searchQuote,
    partNumber: part.model.part_number,
    purchaseOption: '',
    ctoOptions: '',
    pickupDisplay: part.status,
    pickupType: 'In-Store Pickup',
    messageTypes: {
      regular: {
        storeSearchEnabled: true,
        storePickupLabel: 'Pickup:',
        storeSelectionEnabled: part.status === 'available',
        storePickupQuote: pickupQuote,
        storePickupQuote2_0: pickupQuote2,
        storePickupLinkText: 'Check availability',
        storePickupProductTitle: part.model.display_name,
      },
    },
  };
}

function buildRetailStore(
  store: SimStore,
  distance: { value: number; text: string },
  context: AnswerContext,
  urls: { retailUrl: string; imageUrl: string },
): Record<string, unknown> {
  const [, language = 'en'] = /^([a-z]+)_/i.exec(store.country_locale) ?? [];
  const cityLine = [store.city, store.state_code, store.postal_code]
    .filter((part) => part !== null)
    .join(', ');
  return {
    storeNumber: store.store_id,
    storeUniqueId: store.store_id,
    name: store.store_name,
    storeTypeKey: '1',
    storeSubTypeKey: '0',
    storeType: 'APPLESTORE_DEFAULT',
    phoneNumber: store.telephone,
    email: `${store.store_slug}@apple.com`,
    latitude: store.latitude,
    longitude: store.longitude,
    address: {
      city: store.city,
      companyName: `Apple ${store.store_name}`,
      countryCode: store.countryCode,
      languageCode: `${store.countryCode}-${language.toUpperCase()}`,
      postalCode: store.postal_code,
      state: store.state_code,
      street: store.address1,
      street2: store.address2,
      daytimePhone: store.telephone,
      type: 'SHIPPING',
      twoLineAddress: `${store.address1},\n${cityLine}`,
    },
    directionsUrl: urls.retailUrl,
    storeImageUrl: urls.imageUrl.replace(/^https:/, 'http:'),
    hoursAndInfoUrl: urls.retailUrl,
    storeHours: buildStoreHours(store).map(([days, timings]) => ({
      storeDays: days,
      voStoreDays: days,
      storeTimings: timings,
    })),
    storeHolidays: [],
    secureStoreImageUrl: urls.imageUrl,
    distance: distance.value,
    distanceUnit: context.unit,
    distanceWithUnit: distance.text,
    timezone: guessTimezone(store),
    storeIsActive: true,
    lastUpdated: 0,
    lastFetched: context.nowMs,
    distanceSeparator: '.',
    nextAvailableDate: null,
    storeHolidayLookAheadWindow: 7,
    storePickupMethodByType: {
      INSTORE: {
        services: ['APU'],
        typeCoordinate: { lat: store.latitude, lon: store.longitude },
        type: 'INSTORE',
      },
    },
    availableNow: true,
  };
}

function buildDeliveryMessage(
  models: readonly ProductModelSeed[],
  location: string,
): Record<string, unknown> {
  const message: Record<string, unknown> = {
    geoLocated: false,
    availableOptionsText: 'Available Options',
    geoEnabled: true,
    dudeLocated: false,
    accessibilityDeliveryOptions: 'delivery options',
  };
  for (const model of models) {
    message[model.part_number] = {
      regular: {
        orderByDeliveryBy: 'Order today.',
        deliveryOptions: [
          { displayName: 'Standard Delivery', date: 'In stock', shippingCost: 'Free' },
        ],
        address: { postalCode: location },
        messageType: 'Delivery',
        basePartNumber: model.part_number.replace(/[A-Z]{1,2}\/A$/, ''),
        subHeader: `For ${model.display_name}`,
        isBuyable: true,
      },
    };
  }
  return message;
}

// Apple links stores under the country's path on www.apple.com, China under apple.com.cn.
function buildRetailUrl(store: SimStore): string {
  if (store.countryCode === 'CN') return `http://www.apple.com.cn/retail/${store.store_slug}`;
  const path = getCountryStore(store.countryCode).path;
  return `http://www.apple.com/${path === '' ? '' : `${path}/`}retail/${store.store_slug}`;
}

// US stores use 12-hour clocks, everywhere else 24-hour ones, as on Apple's pages.
function buildStoreHours(store: SimStore): [days: string, timings: string][] {
  if (store.countryCode === 'US')
    return [
      ['Mon-Sat', '10:00 AM-8:00 PM'],
      ['Sun', '11:00 AM-6:00 PM'],
    ];
  return [
    ['Mon-Sat', '10:00-20:00'],
    ['Sun', '12:00-18:00'],
  ];
}

const COUNTRY_TIMEZONES: Readonly<Record<string, string>> = {
  GB: 'Europe/London',
  DE: 'Europe/Berlin',
  FR: 'Europe/Paris',
  JP: 'Asia/Tokyo',
  CN: 'Asia/Shanghai',
  SG: 'Asia/Singapore',
  AU: 'Australia/Sydney',
};

// Good enough for the seeded stores: US and Canada split by longitude.
function guessTimezone(store: SimStore): string {
  if (store.countryCode === 'US' || store.countryCode === 'CA') {
    if (store.longitude < -115)
      return store.countryCode === 'US' ? 'America/Los_Angeles' : 'America/Vancouver';
    if (store.longitude < -101) return 'America/Denver';
    if (store.longitude < -85) return 'America/Chicago';
    return store.countryCode === 'US' ? 'America/New_York' : 'America/Toronto';
  }
  return COUNTRY_TIMEZONES[store.countryCode] ?? 'UTC';
}
