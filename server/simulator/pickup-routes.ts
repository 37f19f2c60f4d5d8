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
  buildErrorAnswer,
  INVALID_PRODUCT_MESSAGE,
  buildStoresAnswer,
  type PartLine,
  type StoreRow,
} from './wire-format.ts';

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

type PickupQuery = Record<string, string | string[] | undefined>;

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
 * Whether a request carries what a browser opening the pickup overlay sends: a browser
 * `User-Agent` and a buy page (`/shop/buy-...`) as `Referer`. Without them Apple answered 503
 * in 2025 (../shared/reference/apple/README.md, "Budget per address").
 */
export function isBrowserLike(headers: Record<string, string | string[] | undefined>): boolean {
  const userAgent = headers['user-agent'];
  const referer = headers.referer;
  return (
    typeof userAgent === 'string' &&
    userAgent.startsWith('Mozilla/') &&
    typeof referer === 'string' &&
    /\/shop\/buy-[a-z]/.test(referer)
  );
}

/**
 * Builds the JSON answer for one pickup query in a known country.
 *
 * pickup-message: `store=` lists that one store, whatever `searchNearby` says; `location=`
 * (a seeded postal code or city) lists the NEARBY_STORE_LIMIT stores of the country nearest
 * to it. fulfillment-messages (when alive) answers as it did until 2024: the store or location
 * and, with `searchNearby=true`, its nearest neighbours. A part the country does not sell
 * spoils the whole answer (see README.md, "Unknown input").
 */
export function answerPickup(
  options: Pick<PickupRouteOptions, 'catalog' | 'state'>,
  shape: EndpointShape,
  countryCode: string,
  query: PickupQuery,
): unknown {
  const { catalog, state } = options;
  const storeParam = readParam(query, 'store');
  const locationParam = readParam(query, 'location');
  const partNumbers = readPartNumbers(query);
  const echoedLocation = locationParam ?? '';
  if (partNumbers.length === 0) return buildErrorAnswer(shape, echoedLocation);
  const models = partNumbers.map((partNumber) => catalog.findModel(countryCode, partNumber));
  if (!models.every((model) => model !== undefined)) {
    return buildErrorAnswer(shape, echoedLocation, INVALID_PRODUCT_MESSAGE);
  }

  const isNearby = readParam(query, 'searchNearby') === 'true';
  let listed: ListedStore[];
  let label: string;
  if (storeParam !== undefined) {
    const store = catalog.findStore(countryCode, storeParam);
    if (store === undefined) return buildErrorAnswer(shape, echoedLocation);
    const limit = shape === 'fulfillment-messages' && isNearby ? NEARBY_STORE_LIMIT : 1;
    listed = catalog.listNearestStores(store, limit);
    label = store.postal_code ?? store.city;
  } else {
    const location =
      locationParam === undefined ? undefined : catalog.findLocation(countryCode, locationParam);
    if (location === undefined) return buildErrorAnswer(shape, echoedLocation);
    const limit = shape === 'pickup-message' || isNearby ? NEARBY_STORE_LIMIT : 1;
    listed = catalog.listStoresNear(location, limit);
    label = location.label;
  }
  const rows: StoreRow[] = listed.map((entry) => ({
    ...entry,
    parts: models.map((model): PartLine => ({
      model,
      status: state.getStatus(entry.store.store_id, model.part_number),
    })),
  }));
  return buildStoresAnswer(rows, {
    shape,
    countryCode,
    unit: catalog.getDistanceUnit(countryCode),
    location: label,
    nowMs: state.now(),
  });
}

function readParam(query: PickupQuery, name: string): string | undefined {
  const raw = query[name];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value === undefined || value === '' ? undefined : value;
}

// parts.0, parts.1, ... in index order, duplicates dropped as Apple's overlay would.
function readPartNumbers(query: PickupQuery): string[] {
  const indexed = Object.keys(query)
    .map((key) => /^parts\.(\d+)$/.exec(key))
    .filter((found): found is RegExpExecArray => found !== null)
    .map((found) => ({ index: Number(found[1]), value: readParam(query, found[0]) }))
    .sort((a, b) => a.index - b.index);
  const parts: string[] = [];
  for (const { value } of indexed) {
    if (value !== undefined && !parts.includes(value)) parts.push(value);
  }
  return parts;
}

function sendRaw(reply: FastifyReply, raw: RawReply): FastifyReply {
  return reply.code(raw.status).headers(raw.headers).send(raw.body);
}
