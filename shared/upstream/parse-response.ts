import { createFailure, createHtmlFailure, createHttpFailure } from './failures.ts';
import { parseStore, type StoreParseOptions } from './parse-stores.ts';
import type { ParsedPickup, StoreAvailability, UpstreamFailure, UpstreamResult } from './types.ts';
import { wireEnvelopeSchema, type WireStoreList } from './wire-schema.ts';

/** The parts of an HTTP answer the interpreter looks at, whatever fetch produced it. */
export type RawPickupResponse = {
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  bodyText: string;
};

/** Options for reading a decoded answer. */
export type PickupParseOptions = StoreParseOptions;

/**
 * Classifies one HTTP answer: a blocked or failed status, an HTML page, unreadable JSON, an
 * upstream error message, or stores. Status wins over body so a 404 page stays a 404.
 */
export function interpretPickupResponse(
  raw: RawPickupResponse,
  nowMs: number,
  options: PickupParseOptions = {},
): UpstreamResult<ParsedPickup> {
  if (raw.status < 200 || raw.status > 299) {
    return fail(createHttpFailure(raw.status, raw.retryAfter, nowMs));
  }
  const text = raw.bodyText.trim();
  if (text.startsWith('<')) return fail(createHtmlFailure(raw.status, raw.retryAfter, nowMs));
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    if (raw.contentType?.toLowerCase().includes('text/html')) {
      return fail(createHtmlFailure(raw.status, raw.retryAfter, nowMs));
    }
    const preview = text === '' ? 'an empty body' : `"${text.slice(0, 40)}"`;
    return fail(
      createFailure('malformed', `Upstream JSON did not parse: ${preview}`, {
        httpStatus: raw.status,
      }),
    );
  }
  const parsed = parsePickupDocument(document, options);
  return parsed.ok ? parsed : fail({ ...parsed.failure, httpStatus: raw.status });
}

/**
 * Reads a decoded answer in either shape (`body.stores` or `body.content.pickupMessage.stores`).
 * A bad envelope fails as a whole; a bad part only makes that part `unknown`.
 */
export function parsePickupDocument(
  document: unknown,
  options: PickupParseOptions = {},
): UpstreamResult<ParsedPickup> {
  const envelope = wireEnvelopeSchema.safeParse(document);
  if (!envelope.success) {
    const issue = envelope.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'the top level';
    return fail(createFailure('malformed', `Unexpected upstream structure at ${where}`));
  }
  const { head, body } = envelope.data;
  const list = pickStoreList(body, body.content?.pickupMessage);
  const rawStores = list?.stores;
  if (rawStores === undefined || rawStores.length === 0) {
    const errorMessage = list?.errorMessage?.trim() || body.errorMessage?.trim();
    if (errorMessage) {
      const kind = isInvalidPartsMessage(errorMessage) ? 'invalid_parts' : 'upstream_error';
      return fail(createFailure(kind, errorMessage));
    }
    const headStatus = head?.status === undefined ? '200' : String(head.status);
    if (headStatus !== '200') {
      return fail(createFailure('upstream_error', `Upstream head.status was ${headStatus}`));
    }
    if (rawStores === undefined && hasEmptyContent(document)) {
      return fail(
        createFailure(
          'nothing_sellable',
          'Upstream answered with empty content: nothing asked is sellable there',
        ),
      );
    }
    if (rawStores === undefined) {
      return fail(createFailure('malformed', 'Upstream answer lists no stores in either shape'));
    }
  }
  const stores: StoreAvailability[] = [];
  for (const rawStore of rawStores ?? []) {
    const store = parseStore(rawStore, options);
    if (store !== null) stores.push(store);
  }
  const skippedStoreCount = (rawStores?.length ?? 0) - stores.length;
  if (stores.length === 0 && skippedStoreCount > 0) {
    return fail(createFailure('malformed', 'No upstream store carried a store number'));
  }
  const location = list?.location?.trim() || null;
  return { ok: true, value: { location, stores, skippedStoreCount } };
}

/**
 * True for the answer pickup-message gives when no part asked is sellable there (a part of
 * another country, a retired one, an Apple Watch case alone):
 * `{"head":{"status":"200","data":{}},"body":{"content":{}}}`, no stores and no errorMessage
 * (../shared/reference/apple/captures/hk-pickup-message-empty-content-2025-10-06.json; the
 * same 57 bytes for mainland China in ENCHIGO/apple-pickup-watcher issue #24). Read from the
 * decoded document, since the schema drops keys it does not know.
 */
export function hasEmptyContent(document: unknown): boolean {
  if (!isRecord(document) || !isRecord(document.body)) return false;
  const { content } = document.body;
  return isRecord(content) && Object.keys(content).length === 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Apple's wording when a requested part is unknown or not sold there ("Product(s) Invalid or
// not buyable"): the whole answer carries no stores, so the caller must find the part at fault.
const INVALID_PARTS_PATTERN = /invalid or not buyable/i;

/** True when an upstream error message says a requested part is invalid or not buyable. */
export function isInvalidPartsMessage(message: string): boolean {
  return INVALID_PARTS_PATTERN.test(message);
}

// The newer shape puts stores on body itself; prefer whichever block actually has them.
function pickStoreList(
  body: WireStoreList,
  pickupMessage: WireStoreList | undefined,
): WireStoreList | undefined {
  if (body.stores !== undefined) return body;
  return pickupMessage;
}

function fail(failure: UpstreamFailure): { ok: false; failure: UpstreamFailure } {
  return { ok: false, failure };
}
