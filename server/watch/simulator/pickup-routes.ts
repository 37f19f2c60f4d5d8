import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EndpointShape } from '#shared/upstream/index.ts';
import {
  buildBlockedReply,
  buildHtmlReply,
  renderErrorPage,
  truncateJson,
  waitOutSlowFault,
  type RawReply,
} from './faults.ts';
import type { SimCatalog, SimStore } from './sim-catalog.ts';
import type { SimulatorState } from './sim-state.ts';
import {
  buildErrorAnswer,
  buildStoresAnswer,
  type PartLine,
  type StoreRow,
} from './wire-format.ts';

/** Everything the pickup routes read. */
export type PickupRouteOptions = {
  catalog: SimCatalog;
  state: SimulatorState;
  /** Aborted when the simulator closes, releasing requests held by a `slow` fault. */
  closing: AbortSignal;
};

/** Apple lists the searched store and its eleven nearest neighbours. */
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

    const fault = options.state.getActiveFault();
    if (fault?.kind === '541' || fault?.kind === '503') {
      return sendRaw(
        reply,
        buildBlockedReply(fault.kind === '541' ? 541 : 503, fault.retryAfterSeconds),
      );
    }
    if (fault?.kind === 'html') return sendRaw(reply, buildHtmlReply());
    if (fault?.kind === 'slow') {
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      await waitOutSlowFault(options.state, AbortSignal.any([options.closing, gone.signal]));
    }
    const bodyText = JSON.stringify(answerPickup(options, shape, countryCode, request.query));
    const isMalformed = fault?.kind === 'malformed';
    return sendRaw(reply, {
      status: 200,
      headers: JSON_HEADERS,
      body: isMalformed ? truncateJson(bodyText) : bodyText,
    });
  });
}

/** Builds the JSON answer for one pickup query in a known country. */
export function answerPickup(
  options: Pick<PickupRouteOptions, 'catalog' | 'state'>,
  shape: EndpointShape,
  countryCode: string,
  query: PickupQuery,
): unknown {
  const { catalog, state } = options;
  const storeParam = readParam(query, 'store');
  const locationParam = readParam(query, 'location');
  const origin: SimStore | undefined =
    storeParam !== undefined
      ? catalog.findStore(countryCode, storeParam)
      : locationParam !== undefined
        ? catalog.findStoreByPostalCode(countryCode, locationParam)
        : undefined;
  const partNumbers = readPartNumbers(query);
  if (origin === undefined || partNumbers.length === 0) {
    return buildErrorAnswer(shape, locationParam ?? '');
  }
  const isNearby = readParam(query, 'searchNearby') === 'true';
  const listed = catalog.listNearestStores(origin, isNearby ? NEARBY_STORE_LIMIT : 1);
  // A part Apple does not sell in this country is left out of partsAvailability, as Apple does.
  const models = partNumbers.flatMap(
    (partNumber) => catalog.findModel(countryCode, partNumber) ?? [],
  );
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
    location: origin.postal_code ?? locationParam ?? origin.city,
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
