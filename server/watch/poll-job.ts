import type { Db } from '#server/db/database.ts';
import type { EndpointShape } from '#shared/upstream/index.ts';
import type { RequestTarget } from '#shared/watch/index.ts';
import type { EgressPool } from './egress.ts';

// What a planned request carries from the planner to whichever worker polls it, and what
// polling needs from its host process.

/** One planned request as a job carries it. */
export type RequestJob = {
  countryCode: string;
  target: RequestTarget;
  productIds: string[];
  /** Stores whose targets the plan meant this request for. */
  storeIds: string[];
  /** An alerting sweep's request asks only these parts; null asks every part of the types. */
  partNumbers: string[] | null;
  /** The targets ([product, store]) the plan meant this request for. */
  covers: [string, string][];
  /** The country's control part this cycle, if any. */
  controlPart: string | null;
  /** The location a seed asks (its store's postal code or city). */
  location: string | null;
  cycleStartedAt: number;
};

/** Everything polling needs from its host process. */
export type PollerDeps = {
  db: Db;
  now: () => number;
  random: () => number;
  sleep: (ms: number) => Promise<void>;
  pool: EgressPool;
  baseUrl: string;
  /** The shape asked first (pickup-message by default). */
  shape: EndpointShape;
  intervalMs: number;
  quietWindowMs: number;
  /** Most parts in one request, the control part included. */
  partsPerRequest: number;
  /** Longest wait for a token before a request is left to the next cycle. */
  maxTokenWaitMs?: number;
  /** Aborted when the worker stops: requests still waiting for a token are dropped. */
  signal?: AbortSignal;
  /** Longest backoff of a failing seed. */
  maxBackoffMs?: number;
};
