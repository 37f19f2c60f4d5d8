import type { ProductModelSeed } from '#shared/catalog/index.ts';
import type { DistanceUnit, EndpointShape } from '#shared/upstream/index.ts';
import {
  buildDeliveryMessage,
  buildPickupEligibility,
  MESSAGE_TYPES,
  type MessageType,
} from './wire-parts.ts';
import { buildStoreEntry, type StoreRow } from './wire-store.ts';

// Whole answers of Apple's two pickup endpoints, as the answers in
// ../shared/reference/apple/captures carry them: pickup-message puts the stores on `body`
// (AE capture), fulfillment-messages nests them in `body.content.pickupMessage` and adds a
// `deliveryMessage` and `footnotes` (HK capture). Stores and parts are built in wire-store.ts
// and wire-parts.ts.

/** What a whole answer needs to know about the request. */
export type AnswerContext = {
  shape: EndpointShape;
  unit: DistanceUnit;
  /** The searched location as Apple echoes it: a postal code or a city name. */
  location: string;
  nowMs: number;
  /** Message types asked with `mts.N` (fulfillment-messages answers each); `regular` if none. */
  messageTypes: readonly MessageType[];
};

/** Apple's own words when it cannot find stores for a query. */
export const STORE_SEARCH_ERROR_MESSAGE =
  'We’re having trouble finding stores near you right now. Please try again later.';

// The fields around `stores` in the AE capture, in its order. The error answer has no
// storesCount (tests/shared/upstream/fixtures/fulfillment-messages-error.json).
function buildListFields(location: string, hasStoresCount: boolean): Record<string, unknown> {
  return {
    overlayInitiatedFromWarmStart: false,
    viewMoreHoursLinkText: 'View more hours',
    ...(hasStoresCount ? { storesCount: '' } : {}),
    little: false,
    location,
    notAvailableNearby: 'Not available today at [X] nearest stores.',
    notAvailableNearOneStore: 'Not available today at the nearest store.',
    warmDudeWithAPU: false,
    viewMoreHoursVoText: '(Opens in a new window)',
    availability: { isComingSoon: false },
    viewDetailsText: 'View details',
    legendLabelText: 'Stores',
    filteredTopStore: false,
  };
}

// pickup-message's head carries an empty `data` (AE and HK captures); fulfillment-messages'
// does not (HK capture).
const PICKUP_MESSAGE_HEAD = { status: '200', data: {} };
const FULFILLMENT_HEAD = { status: '200' };
const FOOTNOTES = { nextAvailableNumber: 1 };

/**
 * What pickup-message answers when no part asked is sellable there: HTTP 200 and this body,
 * no stores and no errorMessage (hk-pickup-message-empty-content-2025-10-06.json; the same
 * 57 bytes ENCHIGO/apple-pickup-watcher issue #24 reports for mainland China).
 */
export function buildEmptyContentAnswer(): unknown {
  return { head: { status: '200', data: {} }, body: { content: {} } };
}

/** The message types `mts.0`, `mts.1`, ... name (regular before sticky); `regular` if none is known. */
export function readMessageTypes(
  query: Record<string, string | string[] | undefined>,
): MessageType[] {
  const asked = Object.entries(query)
    .filter(([key]) => /^mts\.\d+$/.test(key))
    .map(([, value]) => (Array.isArray(value) ? value[0] : value)?.trim());
  const known = MESSAGE_TYPES.filter((type) => asked.includes(type));
  return known.length === 0 ? ['regular'] : known;
}

/** The whole 200 answer listing stores, in the requested shape. */
export function buildStoresAnswer(rows: readonly StoreRow[], context: AnswerContext): unknown {
  const stores = rows.map((row, index) => buildStoreEntry(row, index + 1, context));
  const list = { stores, ...buildListFields(context.location, true) };
  if (context.shape === 'pickup-message') return { head: PICKUP_MESSAGE_HEAD, body: list };
  const models = rows[0]?.parts.map((part) => part.model) ?? [];
  return {
    head: FULFILLMENT_HEAD,
    body: {
      content: {
        pickupMessage: {
          ...list,
          availabilityStores: rows
            .map((row) => row.store.store_id)
            .sort()
            .join(','),
        },
        deliveryMessage: buildDeliveryMessage(models, context.messageTypes, context.nowMs),
      },
      footnotes: FOOTNOTES,
    },
  };
}

/**
 * fulfillment-messages asked without a store or location: each part's pickup eligibility and
 * delivery quote and no stores (hk-fulfillment-messages-no-location-2025-10-06.json).
 */
export function buildNoLocationAnswer(
  models: readonly ProductModelSeed[],
  context: Pick<AnswerContext, 'messageTypes' | 'nowMs'>,
): unknown {
  return {
    head: FULFILLMENT_HEAD,
    body: {
      content: {
        pickupMessage: {
          pickupEligibility: buildPickupEligibility(models, context.messageTypes),
          little: false,
        },
        deliveryMessage: buildDeliveryMessage(models, context.messageTypes, context.nowMs),
      },
      footnotes: FOOTNOTES,
    },
  };
}

/**
 * The 200 answer for a store or location Apple cannot find: the list fields without stores or
 * `storesCount`, and an errorMessage (as tests/shared/upstream/fixtures/fulfillment-messages-error.json).
 */
export function buildErrorAnswer(shape: EndpointShape, location: string, nowMs: number): unknown {
  const list = { ...buildListFields(location, false), errorMessage: STORE_SEARCH_ERROR_MESSAGE };
  if (shape === 'pickup-message') return { head: PICKUP_MESSAGE_HEAD, body: list };
  return {
    head: FULFILLMENT_HEAD,
    body: {
      content: { pickupMessage: list, deliveryMessage: buildDeliveryMessage([], [], nowMs) },
      footnotes: FOOTNOTES,
    },
  };
}
