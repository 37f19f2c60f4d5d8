import { parseBuyPage } from '#shared/catalog/buy-page.ts';
import {
  buildBuyPageUrl,
  buildCountryPageHeaders,
  buildPickupHeaders,
  buildPickupUrl,
  getCountryStore,
  isBlockedStatus,
  parsePickupDocument,
  type EndpointShape,
  type FetchLike,
} from '#shared/upstream/index.ts';
import type { DoctorTarget } from './doctor-target.ts';
import {
  FULFILLMENT_MESSAGES_SHAPE,
  isEmptyContentAnswer,
  PICKUP_MESSAGE_SHAPE,
} from './pickup-shape.ts';
import { compareWithShape, describeDifference, type JsonShape } from './shape-drift.ts';

// The doctor's three requests through one egress address: pickup-message, a probe of
// fulfillment-messages, and the part's buy page. Each is asked once, never retried, and
// judged against what the captures show (pickup-shape.ts, and the buy-page reader).

/** One way out to Apple, as the watcher builds it (server/watch/egress-agents.ts). */
export type DoctorAddress = {
  label: string;
  kind: 'direct' | 'proxy';
  fetch: FetchLike;
  close: () => Promise<void>;
};

/** How one request went: as captured, drifted, blocked, failed, or telling nothing. */
export type ProbeVerdict = 'ok' | 'drift' | 'blocked' | 'failed' | 'inconclusive';

/** One request's report. */
export type ProbeReport = {
  name: EndpointShape | 'buy page';
  url: string;
  verdict: ProbeVerdict;
  httpStatus: number | null;
  latencyMs: number;
  /** What answered, in a line. */
  summary: string;
  /** Differences from the capture in what Shelfwatch reads. */
  drift: string[];
  /** Differences from the capture in what nobody reads yet. */
  notes: string[];
};

/** What a probe needs besides its address. */
export type ProbeDeps = {
  baseUrl: string;
  now: () => number;
  timeoutMs: number;
  /** Notes count as drift. */
  isStrict: boolean;
};

type Fetched =
  | {
      ok: true;
      status: number;
      contentType: string;
      bodyText: string;
      finalUrl: string | null;
      latencyMs: number;
    }
  | { ok: false; detail: string; latencyMs: number };

/** Asks pickup-message for the target's part and holds the answer against the capture. */
export async function probePickupMessage(
  deps: ProbeDeps,
  fetch: FetchLike,
  target: DoctorTarget,
): Promise<ProbeReport> {
  return await probePickupShape(deps, fetch, target, 'pickup-message');
}

/**
 * Asks fulfillment-messages once. Its 541 is what Apple has answered everyone since 2026
 * (reference README, "Endpoint"), so that counts as expected, not as a block, when
 * pickup-message answered through the same address just before.
 */
export async function probeFulfillmentMessages(
  deps: ProbeDeps,
  fetch: FetchLike,
  target: DoctorTarget,
): Promise<ProbeReport> {
  const report = await probePickupShape(deps, fetch, target, 'fulfillment-messages');
  if (report.httpStatus !== 541) return report;
  return { ...report, verdict: 'ok', summary: 'retired: Apple answers everyone so since 2026' };
}

async function probePickupShape(
  deps: ProbeDeps,
  fetch: FetchLike,
  target: DoctorTarget,
  shape: EndpointShape,
): Promise<ProbeReport> {
  const { countryCode, partNumber } = target;
  const url = buildPickupUrl(deps.baseUrl, shape, {
    countryCode,
    ...target.where,
    partNumbers: [partNumber],
    searchNearby: shape === 'fulfillment-messages',
  });
  const referer = buildBuyPageUrl(deps.baseUrl, countryCode, target.buyPagePath ?? undefined);
  const fetched = await timedGet(deps, fetch, url, buildPickupHeaders(countryCode, referer));
  const base = { name: shape, url, drift: [], notes: [] };
  if (!fetched.ok) {
    return {
      ...base,
      verdict: 'failed',
      httpStatus: null,
      latencyMs: fetched.latencyMs,
      summary: fetched.detail,
    };
  }
  const { status, latencyMs, bodyText } = fetched;
  const answered = { ...base, httpStatus: status, latencyMs };
  const failure = judgeStatus(fetched, true);
  if (failure !== undefined) return { ...answered, ...failure };
  let document: unknown;
  try {
    document = JSON.parse(bodyText);
  } catch {
    return {
      ...answered,
      verdict: 'drift',
      summary: 'HTTP 200, not JSON',
      drift: ['the answer is not JSON'],
    };
  }
  if (isEmptyContentAnswer(document)) {
    const summary = `empty answer as captured: Apple sells none of the parts asked here (${partNumber})`;
    return { ...answered, verdict: 'inconclusive', summary };
  }
  const expected: JsonShape =
    shape === 'pickup-message' ? PICKUP_MESSAGE_SHAPE : FULFILLMENT_MESSAGES_SHAPE;
  const judged = judgeShape(deps, document, expected);
  const parsed = parsePickupDocument(document, {
    requestedParts: [partNumber],
    defaultUnit: getCountryStore(countryCode).distanceUnit,
  });
  if (!parsed.ok) {
    const isInconclusive =
      parsed.failure.kind === 'invalid_parts' || parsed.failure.kind === 'upstream_error';
    return {
      ...answered,
      ...judged,
      verdict: isInconclusive && judged.verdict === 'ok' ? 'inconclusive' : 'drift',
      summary: `Apple said: ${parsed.failure.message}`,
    };
  }
  const statuses = parsed.value.stores.map(
    (store) => store.parts.find((part) => part.partNumber === partNumber)?.status ?? 'unknown',
  );
  const counts = countStatuses(statuses);
  const notes = [...judged.notes];
  if (statuses.length > 0 && statuses.every((status) => status === 'unknown')) {
    notes.push(`${partNumber} is missing from every store listed (a bad part, or past the 20th)`);
  }
  return {
    ...answered,
    ...judged,
    notes,
    summary: `${statuses.length} stores; ${partNumber} ${counts}`,
  };
}

/** Fetches the part's buy page and checks that the product's reader still finds products on it. */
export async function probeBuyPage(
  deps: ProbeDeps,
  fetch: FetchLike,
  target: DoctorTarget,
): Promise<ProbeReport | undefined> {
  if (target.buyPagePath === null) return undefined;
  const url = buildBuyPageUrl(deps.baseUrl, target.countryCode, target.buyPagePath);
  const fetched = await timedGet(deps, fetch, url, buildCountryPageHeaders(target.countryCode));
  const base = { name: 'buy page' as const, url, drift: [], notes: [] };
  if (!fetched.ok) {
    return {
      ...base,
      verdict: 'failed',
      httpStatus: null,
      latencyMs: fetched.latencyMs,
      summary: fetched.detail,
    };
  }
  const answered = { ...base, httpStatus: fetched.status, latencyMs: fetched.latencyMs };
  const failure = judgeStatus(fetched, false);
  if (failure !== undefined) {
    const isGone = fetched.status === 404 || fetched.status === 410;
    return isGone
      ? { ...answered, ...failure, verdict: 'drift', drift: ['the buy page is gone'] }
      : { ...answered, ...failure };
  }
  if (fetched.finalUrl !== null && new URL(fetched.finalUrl).pathname !== new URL(url).pathname) {
    const drift = [`redirects to ${fetched.finalUrl}: a retired page (run catalog sync-models)`];
    return { ...answered, verdict: 'drift', summary: 'redirected, no product data', drift };
  }
  // The catalog sync's own reader: what it cannot read here, the sync cannot either.
  const read = parseBuyPage(fetched.bodyText);
  if (read.products.length === 0) {
    const drift = read.problems.length > 0 ? read.problems : ['no product data on the page'];
    return { ...answered, verdict: 'drift', summary: 'no products', drift };
  }
  const isListed = read.products.some((product) => product.partNumber === target.partNumber);
  const shapes = [
    read.hasSelectionData ? 'productSelectionData' : '',
    read.hasMetrics ? 'metrics' : '',
  ]
    .filter((shape) => shape !== '')
    .join(' and ');
  const notes = [...read.problems];
  if (!isListed) notes.push(`${target.partNumber} is not on this page`);
  return {
    ...answered,
    verdict: 'ok',
    summary: `${read.products.length} products from ${shapes}${isListed ? `, ${target.partNumber} among them` : ''}`,
    notes,
  };
}

/** A failure by status or body kind, or undefined for a 2xx answer worth reading. */
function judgeStatus(
  fetched: Extract<Fetched, { ok: true }>,
  isJsonExpected: boolean,
): Pick<ProbeReport, 'verdict' | 'summary'> | undefined {
  const { status } = fetched;
  if (isBlockedStatus(status)) return { verdict: 'blocked', summary: `HTTP ${status}: blocked` };
  if (status < 200 || status > 299) return { verdict: 'failed', summary: `HTTP ${status}` };
  const isHtml =
    fetched.contentType.includes('text/html') || fetched.bodyText.trimStart().startsWith('<');
  if (isJsonExpected && isHtml) {
    return { verdict: 'blocked', summary: 'HTML page where JSON was expected (a challenge page)' };
  }
  return undefined;
}

function judgeShape(
  deps: ProbeDeps,
  document: unknown,
  shape: JsonShape,
): Pick<ProbeReport, 'verdict' | 'drift' | 'notes'> {
  const differences = compareWithShape(document, shape);
  const drift = differences.filter((difference) => difference.isRead || deps.isStrict);
  const notes = differences.filter((difference) => !drift.includes(difference));
  return {
    verdict: drift.length > 0 ? 'drift' : 'ok',
    drift: drift.map(describeDifference),
    notes: notes.map(describeDifference),
  };
}

function countStatuses(statuses: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  const parts = [...counts].map(([status, count]) => `${status} at ${count}`);
  return parts.length === 0 ? 'at no store' : parts.join(', ');
}

async function timedGet(
  deps: ProbeDeps,
  fetch: FetchLike,
  url: string,
  headers: Record<string, string>,
): Promise<Fetched> {
  const startedAt = deps.now();
  try {
    const response = await fetch(url, {
      method: 'GET',
      headers,
      signal: AbortSignal.timeout(deps.timeoutMs),
    });
    const bodyText = await response.text();
    return {
      ok: true,
      status: response.status,
      contentType: (response.headers.get('content-type') ?? '').toLowerCase(),
      bodyText,
      finalUrl: readFinalUrl(response),
      latencyMs: deps.now() - startedAt,
    };
  } catch (error) {
    const detail =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${deps.timeoutMs} ms`
        : `request failed: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, detail, latencyMs: deps.now() - startedAt };
  }
}

// fetch follows redirects and says where it ended up in `url`; fakes may not say.
function readFinalUrl(response: object): string | null {
  return 'url' in response && typeof response.url === 'string' && response.url !== ''
    ? response.url
    : null;
}
