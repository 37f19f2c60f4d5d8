import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EndpointShape } from '#shared/upstream/index.ts';
import { normalizeCallerAddress, type AddressBudget } from './address-budget.ts';
import {
  buildBlockedReply,
  buildDeadEndpointReply,
  buildHtmlReply,
  renderErrorPage,
  truncateJson,
  waitOutSlowFault,
  type RawReply,
} from './faults.ts';
import type { ListedStore, SimCatalog } from './sim-catalog.ts';
import type { SimulatorState } from './sim-state.ts';
import type { SimulatorBehaviour } from '#server/config/simulator-settings.ts';
import {
  isRetired,
  readAskedParts,
  readParam,
  selectAnsweredModels,
  type PickupQuery,
} from './answer-parts.ts';
import {
  buildEmptyContentAnswer,
  buildErrorAnswer,
  buildNoLocationAnswer,
  buildStoresAnswer,
  readMessageTypes,
} from './wire-format.ts';
import type { PartLine } from './wire-parts.ts';
import type { StoreRow } from './wire-store.ts';

/** Everything the pickup routes read. */
export type PickupRouteOptions = {
  catalog: SimCatalog;
  state: SimulatorState;
  /** Per-caller-address counts and the block. */
  budget: AddressBudget;
  behaviour: SimulatorBehaviour;
  /** Aborted when the simulator closes, releasing requests held by a `slow` fault. */
  closing: AbortSignal;
};

/** Apple lists at most about twelve stores per answer: the nearest ones to the location. */
export const NEARBY_STORE_LIMIT = 12;

const PICKUP_PATH = /^(?:(.+)\/)?shop\/(fulfillment-messages|retail\/pickup-message)$/;
const JSON_HEADERS = {
  'content-type': 'application/json;charset=utf-8',
  'cache-control': 'no-cache, no-store',
};

/** Registers `GET /{country path}shop/fulfillment-messages` and `.../shop/retail/pickup-message`. */
export function registerPickupRoutes(app: FastifyInstance, options: PickupRouteOptions): void {
  app.get('/*', async (request: FastifyRequest<{ Querystring: PickupQuery }>, reply) => {
    const path = request.url.split('?')[0]?.replace(/^\/+/, '') ?? '';
    const match = PICKUP_PATH.exec(path);
    const countryCode =
      match === null ? undefined : options.catalog.findCountryByPath(match[1] ?? '');
    if (match === null || countryCode === undefined) {
      return sendRaw(reply, {
        status: 404,
        headers: { 'content-type': 'text/html; charset=UTF-8' },
        body: renderErrorPage(),
      });
    }
    const shape: EndpointShape =
      match[2] === 'fulfillment-messages' ? 'fulfillment-messages' : 'pickup-message';
    options.state.countRequest(shape);
    // The socket's own peer: a header such as X-Forwarded-For is the caller's to invent.
    const address = normalizeCallerAddress(request.socket.remoteAddress);
    const send = (raw: RawReply): FastifyReply => {
      if (raw.status === 541) options.budget.count541(address);
      return sendRaw(reply, raw);
    };

    // Every request counts toward the address's budget, a dead endpoint's too: Apple counts them.
    if (!options.budget.admit(address).isAllowed) return send(buildBlockedReply(541, undefined));
    const mode =
      shape === 'fulfillment-messages'
        ? options.behaviour.fulfillmentMessages
        : options.behaviour.pickupMessage;
    if (mode === 'dead') return send(buildDeadEndpointReply());
    if (!isBrowserLike(request.headers)) return send(buildBlockedReply(503, undefined));
    const fault = options.state.getActiveFault();
    if (fault?.kind === '541' || fault?.kind === '503') {
      return send(buildBlockedReply(fault.kind === '541' ? 541 : 503, fault.retryAfterSeconds));
    }
    if (fault?.kind === 'html') return send(buildHtmlReply());
    if (fault?.kind === 'slow') {
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      await waitOutSlowFault(options.state, AbortSignal.any([options.closing, gone.signal]));
    }
    const bodyText = JSON.stringify(answerPickup(options, shape, countryCode, request.query));
    const isMalformed = fault?.kind === 'malformed';
    return send({
      status: 200,
      headers: JSON_HEADERS,
      body: isMalformed ? truncateJson(bodyText) : bodyText,
    });
  });
}

/**
 * Whether a request carries a browser `User-Agent` (`Mozilla/...`). 2026 checkers get answers
 * with only that and no `Referer`; without a browser agent Apple answered 503 in 2025
 * (../shared/reference/apple/README.md, "What real 2025-2026 answers show", Headers).
 */
export function isBrowserLike(headers: Record<string, string | string[] | undefined>): boolean {
  const userAgent = headers['user-agent'];
  return typeof userAgent === 'string' && userAgent.startsWith('Mozilla/');
}

/**
 * Builds the JSON answer for one pickup query in a known country.
 *
 * Parts first (answer-parts.ts): the first 20 asked, less those the country does not sell;
 * when none is left, or only Apple Watch cases, Apple's empty-content answer. Then the stores:
 * pickup-message lists one store for `store=`, whatever `searchNearby` says, and the
 * NEARBY_STORE_LIMIT stores nearest to a `location=` (a seeded postal code or city).
 * fulfillment-messages (when alive) answers as until 2024: the store or location and, with
 * `searchNearby=true`, its nearest neighbours; with neither, the parts' eligibility and delivery
 * quotes. A retired part reads `ineligible` at every store (see README.md, "Which parts").
 */
export function answerPickup(
  options: Pick<PickupRouteOptions, 'catalog' | 'state'>,
  shape: EndpointShape,
  countryCode: string,
  query: PickupQuery,
): unknown {
  const { catalog, state } = options;
  const models = selectAnsweredModels(catalog, countryCode, readAskedParts(query));
  if (models.length === 0) return buildEmptyContentAnswer();
  const storeParam = readParam(query, 'store');
  const locationParam = readParam(query, 'location');
  const nowMs = state.now();
  const messageTypes = readMessageTypes(query);
  if (shape === 'fulfillment-messages' && storeParam === undefined && locationParam === undefined) {
    return buildNoLocationAnswer(models, { messageTypes, nowMs });
  }
  const listed = listAskedStores(catalog, shape, countryCode, query);
  if (listed === undefined) return buildErrorAnswer(shape, locationParam ?? '', nowMs);
  const rows: StoreRow[] = listed.stores.map((entry) => ({
    ...entry,
    parts: models.map((model): PartLine => ({
      model,
      status: state.getStatus(entry.store.store_id, model.part_number, {
        isRetired: isRetired(model),
      }),
    })),
  }));
  return buildStoresAnswer(rows, {
    shape,
    unit: catalog.getDistanceUnit(countryCode),
    location: listed.label,
    nowMs,
    messageTypes,
  });
}

// The stores an answer lists and the location it echoes; undefined for an unknown store or
// location, or a query naming neither.
function listAskedStores(
  catalog: SimCatalog,
  shape: EndpointShape,
  countryCode: string,
  query: PickupQuery,
): { stores: ListedStore[]; label: string } | undefined {
  const storeParam = readParam(query, 'store');
  const locationParam = readParam(query, 'location');
  const isNearby = readParam(query, 'searchNearby') === 'true';
  if (storeParam !== undefined) {
    const store = catalog.findStore(countryCode, storeParam);
    if (store === undefined) return undefined;
    const limit = shape === 'fulfillment-messages' && isNearby ? NEARBY_STORE_LIMIT : 1;
    return {
      stores: catalog.listNearestStores(store, limit),
      label: store.postal_code ?? store.city,
    };
  }
  const location =
    locationParam === undefined ? undefined : catalog.findLocation(countryCode, locationParam);
  if (location === undefined) return undefined;
  const limit = shape === 'pickup-message' || isNearby ? NEARBY_STORE_LIMIT : 1;
  return { stores: catalog.listStoresNear(location, limit), label: location.label };
}

function sendRaw(reply: FastifyReply, raw: RawReply): FastifyReply {
  return reply.code(raw.status).headers(raw.headers).send(raw.body);
}
