import type { ProductModelSeed } from '#shared/catalog/index.ts';
import type { KnownPickupStatus } from '#shared/upstream/index.ts';

// Apple's per-part records: a store's `partsAvailability` entry, as in the AE pickup-message
// capture (ae-pickup-message-abu-dhabi-2026-09-21-mjx94.json), and fulfillment-messages'
// `pickupEligibility` and `deliveryMessage` entries, as in the HK capture
// (hk-fulfillment-messages-no-location-2025-10-06.json). Both in ../shared/reference/apple/captures.

/** A requested part the answer reports, with its status at one store. */
export type PartLine = { model: ProductModelSeed; status: KnownPickupStatus };

/** The message types fulfillment-messages answers for (`mts.N`); pickup-message sends `regular`. */
export const MESSAGE_TYPES = ['regular', 'sticky'] as const;

/** One of MESSAGE_TYPES. */
export type MessageType = (typeof MESSAGE_TYPES)[number];

// The quote's store name as a button; unavailable and available quotes carry the icon classes
// and the hidden "(Check Availability)", the ineligible quote a plain button (AE capture).
function buildStoreButton(storeLabel: string, status: KnownPickupStatus): string {
  const base =
    'rf-pickup-quote-overlay-trigger as-retailavailabilitytrigger-infobutton retail-availability-search-trigger as-buttonlink';
  const attributes = 'data-ase-overlay="buac-overlay" data-ase-click="show"';
  if (status === 'ineligible') {
    return `<button type="button" class="${base}" ${attributes}>${storeLabel}</button>`;
  }
  return `<button type="button" class="${base} as-buttonlink-inline icon icon-after icon-pluscircle" ${attributes}>${storeLabel}<span class="visuallyhidden"> (Check Availability)</span></button>`;
}

// [pickupSearchQuote, storePickupQuote's lead]. Unavailable and ineligible are the AE
// capture's words; available is the older captures' (tests/shared/upstream/fixtures).
const QUOTES: Record<KnownPickupStatus, [search: string, lead: string]> = {
  available: ['Available<br/>Today', 'Today at'],
  unavailable: ['Currently unavailable', 'Currently unavailable at'],
  ineligible: ['Currently unavailable', 'Unavailable for pickup at'],
};

/**
 * The 5-character base code Apple sends as `basePartNumber` ("MJX94" for "MJX94AH/A"); every
 * part number on record is the base, a 1-2 letter region and "/A" or "/B" (AU capture).
 */
export function readBasePartNumber(partNumber: string): string {
  return (
    /^([A-Z0-9]{5})[A-Z]{1,2}\/[A-Z]$/.exec(partNumber)?.[1] ?? partNumber.replace(/\/.*$/, '')
  );
}

/**
 * One store's `partsAvailability` entry. `storePickEligible` is true whatever the status: the
 * AE capture's Dubai Mall reads `ineligible` with it true.
 */
export function buildPartEntry(part: PartLine, storeName: string): Record<string, unknown> {
  const storeLabel = `Apple ${storeName}`;
  const [searchQuote, lead] = QUOTES[part.status];
  return {
    storePickEligible: true,
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
        storePickupQuote: `${lead} ${storeLabel}`,
        storePickupQuote2_0: `${lead} ${buildStoreButton(storeLabel, part.status)}`,
        storePickupLinkText: 'Check availability',
        storePickupProductTitle: part.model.display_name,
        basePartNumber: readBasePartNumber(part.model.part_number),
      },
    },
  };
}

/** fulfillment-messages' `pickupMessage.pickupEligibility`: per part, per message type. */
export function buildPickupEligibility(
  models: readonly ProductModelSeed[],
  messageTypes: readonly MessageType[],
): Record<string, unknown> {
  const eligibility = (model: ProductModelSeed): Record<string, unknown> => ({
    storePickupLabel: 'Pickup:',
    storePickupLinkText: 'Check availability',
    storePickEligible: true,
    storePickupProductTitle: model.display_name,
    storePickupMessage: 'In-Store Pickup',
    storeSearchEnabled: true,
  });
  return Object.fromEntries(
    models.map((model) => [
      model.part_number,
      { messageTypes: Object.fromEntries(messageTypes.map((type) => [type, eligibility(model)])) },
    ]),
  );
}

const DAY_MS = 86_400_000;

/**
 * fulfillment-messages' `deliveryMessage`: per part and message type a delivery quote, then the
 * flags. The simulator ships everything in 2 to 4 days, free.
 */
export function buildDeliveryMessage(
  models: readonly ProductModelSeed[],
  messageTypes: readonly MessageType[],
  nowMs: number,
): Record<string, unknown> {
  const from = formatDeliveryDate(nowMs + 2 * DAY_MS);
  const until = formatDeliveryDate(nowMs + 4 * DAY_MS);
  const window = `${from.text} – ${until.text}`;
  const quote = (model: ProductModelSeed): Record<string, unknown> => ({
    orderByDeliveryBy: 'Order today.',
    deliveryOptionMessages: [
      {
        displayName: `${window} — Free`,
        inHomeSetup: 'false',
        encodedUpperDateString: until.encoded,
      },
    ],
    deliveryOptions: [{ displayName: 'Standard Delivery', date: window, shippingCost: 'Free' }],
    showDeliveryOptionsLink: false,
    messageType: 'Delivery',
    basePartNumber: readBasePartNumber(model.part_number),
    commitCodeId: '200',
    subHeader: `For ${model.display_name}`,
    stickyMessageSTH: `<span class="bold">${window}</span> (Free)`,
    buyability: { reason: 'OK', commitCode: '200', isBuyable: true },
    defaultLocationEnabled: false,
    idl: false,
    inHomeSetup: false,
    isElectronic: false,
    isBuyable: true,
  });
  return {
    ...Object.fromEntries(
      models.map((model) => [
        model.part_number,
        Object.fromEntries(messageTypes.map((type) => [type, quote(model)])),
      ]),
    ),
    geoLocated: false,
    availableOptionsText: 'Available Options',
    dudeCookieSet: false,
    dudeLocated: false,
    locationCookieValueFoundForThisCountry: false,
    accessibilityDeliveryOptions: 'Delivery options',
  };
}

// "24/10/2025" and "20251024", as the HK capture writes its delivery window.
function formatDeliveryDate(ms: number): { text: string; encoded: string } {
  const date = new Date(ms);
  const day = String(date.getUTCDate()).padStart(2, '0');
  const month = String(date.getUTCMonth() + 1).padStart(2, '0');
  const year = String(date.getUTCFullYear());
  return { text: `${day}/${month}/${year}`, encoded: `${year}${month}${day}` };
}
