import type { PlannedRequest } from '#shared/watch/request-planner.ts';
import type { EndpointShape, FetchLike, UpstreamFailure } from '#shared/upstream/index.ts';
import type { LocalWatchCatalog } from './local-catalog.ts';
import type { LocalAlert } from './observe.ts';
import type { RequestBudget } from './request-budget.ts';

// What one check of the local loop needs from its host, what it reports back, the one
// function that writes its log lines, and the words a failure is told in.

/** One line per planned request (or per check that could ask nothing), for logs and the terminal. */
export type LocalCheckLog = {
  at: number;
  /** Null for a line about the whole check (a cool-down). */
  countryCode: string | null;
  productIds: string[];
  /** Where it asked: "near 10153 (R095)" or "at R095"; null for the whole check. */
  where: string | null;
  result: 'ok' | 'failed' | 'skipped';
  detail: string;
  /** HTTP requests it took. */
  requests: number;
  changes: number;
  alerts: number;
};

/** What one check did. */
export type LocalCycleReport = {
  /** HTTP requests sent. */
  requests: number;
  alerts: LocalAlert[];
  /** Planned requests that brought back a believable answer, and those that failed. */
  answered: number;
  failures: number;
  /** Targets left for a later check (cool-down, budget, backoff). */
  skipped: number;
};

/** What a check needs from the loop and its host. */
export type CheckDeps = {
  fetch: FetchLike;
  now: () => number;
  random: () => number;
  budget: RequestBudget;
  baseUrl: string;
  shape: EndpointShape;
  partsPerRequest: number;
  catalog: LocalWatchCatalog;
  intervalMs: number;
  quietWindowMs: number;
  isNotifying: boolean;
  defaultMaxDistanceMiles: number | null;
  /** Shows one notification: a search's alerts released together by its cadence. */
  notify: (searchId: string, alerts: LocalAlert[]) => void;
  /** Every alert as it is raised, before the cadence holds any (the terminal's lines). */
  onAlert?: (alert: LocalAlert) => void;
  onCheck?: (line: LocalCheckLog) => void;
  describeFailure: (failure: UpstreamFailure) => string;
};

/** Reports one line of the check. */
export function log(
  deps: CheckDeps,
  at: number,
  request: PlannedRequest | null,
  result: LocalCheckLog['result'],
  detail: string,
  where: string | null = null,
  requests = 0,
  changes = 0,
  alerts = 0,
): void {
  deps.onCheck?.({
    at,
    countryCode: request?.countryCode ?? null,
    productIds: request?.productIds ?? [],
    where,
    result,
    detail,
    requests,
    changes,
    alerts,
  });
}

/** A failure in words a user can act on (the tray, My Searches, the terminal). */
export function describeFailure(failure: UpstreamFailure): string {
  switch (failure.kind) {
    case 'blocked':
      return `Apple is refusing requests for a while (HTTP ${failure.httpStatus ?? '?'})`;
    case 'html':
      return 'Apple answered with a web page instead of stock data';
    case 'malformed':
    case 'upstream_error':
      return 'Apple sent an answer that could not be read';
    case 'invalid_parts':
      return 'Apple says a watched model is invalid or not sold there';
    case 'nothing_sellable':
      return 'Apple sells none of the watched models there';
    case 'implausible':
      return 'Apple reported even its most common model unavailable everywhere: the answer was not believed';
    case 'network':
      return "Apple's servers could not be reached (offline?)";
    case 'http':
      return `Apple answered HTTP ${failure.httpStatus ?? '?'}`;
  }
}
