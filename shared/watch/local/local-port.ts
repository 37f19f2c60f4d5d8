import {
  chooseEndpointShape,
  createEndpointMemory,
  fetchPickupAvailability,
  rememberAnswer,
  rememberBlock,
  type EndpointMemory,
  type EndpointShape,
  type FetchLike,
  type PickupAnswer,
  type UpstreamFailure,
  type UpstreamResult,
} from '#shared/upstream/index.ts';
import type { SkipReason, WatchPort } from '#shared/watch/engine/index.ts';
import { recordLocalRetirementEvidence, type RetiredModel } from './local-retirement.ts';
import type { RequestBudget } from './request-budget.ts';
import { invalidPartKey, type LocalEndpoint, type LocalWatchState } from './state.ts';

// The local loop's side of the watch engine's port (shared/watch/engine): the Mac (or the
// terminal watcher) is one egress address with one budget, shared with the machine's other
// local watchers (request-budget.ts), and one cool-down; each country remembers which endpoint
// shape answers, in the loop's own memory.

/** First cool-down after a block (public reports: 5 minutes after a 541). */
export const BASE_COOL_DOWN_MS = 5 * 60_000;
/** Longest cool-down: repeated blocks double it up to an hour. */
export const MAX_COOL_DOWN_MS = 60 * 60_000;
/** What asking needs from the host. */
export type AskDeps = {
  fetch: FetchLike;
  now: () => number;
  /** The machine's budget at Apple, shared by its local watchers. */
  budget: RequestBudget;
  baseUrl: string;
  /** The shape asked first (pickup-message unless set). */
  preferredShape: EndpointShape;
};

/** Where one planned request asks, and the models it may file refusals for. */
export type LocalAsk = {
  countryCode: string;
  where: { location: string } | { storeNumber: string };
  /** Part numbers with their product type. */
  models: readonly { part_number: string; product_id: string }[];
  /** The catalog model of any part asked (the control part too), for retiring it. */
  findModel: (partNumber: string) => RetiredModel | undefined;
};

/** Called with each believable answer and the watched parts it was asked for. */
export type OnAnswer = (answer: PickupAnswer, askedParts: readonly string[]) => void;

/**
 * The engine's port on this machine: one address with one budget and one cool-down,
 * each country's endpoint shape remembered, refused parts held in the loop's memory, and each
 * believable answer handed to the caller to file.
 */
export function createLocalPort(
  deps: AskDeps,
  state: LocalWatchState,
  ask: LocalAsk,
  onAnswer: OnAnswer,
): WatchPort {
  return {
    send: async (partNumbers) =>
      await askOnce(deps, state, ask.countryCode, ask.where, partNumbers),
    recordRefusedParts: async (parts, reason) => {
      for (const part of parts) {
        const model = ask.models.find((candidate) => candidate.part_number === part);
        state.invalid_parts[invalidPartKey(ask.countryCode, part)] = {
          country_code: ask.countryCode,
          part_number: part,
          product_id: model?.product_id ?? '',
          reason,
          found_at: deps.now(),
        };
      }
    },
    recordRetirementEvidence: async (evidence) =>
      recordLocalRetirementEvidence(state, ask.countryCode, evidence, ask.findModel, deps.now()),
    recordAnswer: async (answer, askedParts) => onAnswer(answer, askedParts),
  };
}

/**
 * One HTTP request from this Mac: cool-down and budget first (a cool-down another watcher of
 * the machine met is this loop's too), shape memory kept up to date.
 */
async function askOnce(
  deps: AskDeps,
  state: LocalWatchState,
  countryCode: string,
  where: LocalAsk['where'],
  partNumbers: readonly string[],
): Promise<UpstreamResult<PickupAnswer> | { skipped: SkipReason }> {
  if ((state.address.cool_down_until ?? 0) > deps.now()) return { skipped: 'cooling_down' };
  const taken = await deps.budget.take();
  if (taken.kind === 'cooling_down') {
    state.address.cool_down_until = Math.max(state.address.cool_down_until ?? 0, taken.until);
    return { skipped: 'cooling_down' };
  }
  if (taken.kind === 'no_budget') return { skipped: 'no_budget' };
  const now = deps.now();
  const memory = loadEndpoint(state, countryCode, deps.preferredShape, now);
  const { shape, isProbe } = chooseEndpointShape(memory, deps.preferredShape, now);
  const result = await fetchPickupAvailability(
    { fetch: deps.fetch, now: deps.now, baseUrl: deps.baseUrl, shape, fallbackShape: false },
    {
      countryCode,
      ...where,
      partNumbers,
      // pickup-message answers `location=` with the nearby list by itself; the older shape needs the flag.
      searchNearby: shape === 'fulfillment-messages',
    },
  );
  const at = deps.now();
  // Empty content is Apple answering about the parts: the shape and the address work.
  if (result.ok || result.failure.kind === 'nothing_sellable') {
    saveEndpoint(state, countryCode, rememberAnswer(memory, shape, at));
    state.address.consecutive_blocks = 0;
  } else if (result.failure.kind === 'blocked' || result.failure.kind === 'html') {
    saveEndpoint(state, countryCode, rememberBlock(memory, shape, result.failure.httpStatus, at));
    await coolDown(deps, state, result.failure, isProbe, at);
  }
  return result;
}

/**
 * Doubles the cool-down per block in a row up to an hour (a probe of the other shape does not
 * escalate), and holds the machine's other watchers back as long.
 */
async function coolDown(
  deps: AskDeps,
  state: LocalWatchState,
  failure: UpstreamFailure,
  isProbe: boolean,
  at: number,
): Promise<void> {
  const { address } = state;
  if (!isProbe) address.consecutive_blocks += 1;
  const doublings = Math.min(20, Math.max(0, address.consecutive_blocks - 1));
  const doubled = Math.min(MAX_COOL_DOWN_MS, BASE_COOL_DOWN_MS * 2 ** doublings);
  const until = Math.max(
    address.cool_down_until ?? at,
    at + Math.max(doubled, failure.coolDownSeconds * 1000),
  );
  address.cool_down_until = until;
  address.last_block_at = at;
  await deps.budget.coolDown(until);
}

function loadEndpoint(
  state: LocalWatchState,
  countryCode: string,
  preferred: EndpointShape,
  now: number,
): EndpointMemory {
  const saved = state.endpoints[countryCode];
  if (saved === undefined) return createEndpointMemory(preferred, now);
  return {
    shape: saved.shape,
    reason: saved.reason,
    switchedAt: saved.switched_at,
    suspectShape: saved.suspect_shape,
    suspectSince: saved.suspect_since,
    otherProbedAt: saved.other_probed_at,
  };
}

function saveEndpoint(state: LocalWatchState, countryCode: string, memory: EndpointMemory): void {
  const saved: LocalEndpoint = {
    shape: memory.shape,
    reason: memory.reason,
    switched_at: memory.switchedAt,
    suspect_shape: memory.suspectShape,
    suspect_since: memory.suspectSince,
    other_probed_at: memory.otherProbedAt,
  };
  state.endpoints[countryCode] = saved;
}
