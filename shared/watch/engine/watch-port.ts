import type {
  PickupAnswer,
  RetirementEvidence,
  UpstreamFailure,
  UpstreamResult,
} from '#shared/upstream/index.ts';

// The port between the one watch engine and the storage of its host. The server implements it
// over PostgreSQL and its egress addresses (server/watch/pg-watch-port.ts); the Mac and
// `shelfwatch watch` over their local memory and one address (shared/watch/local/local-port.ts).

/** Why a request was not sent: its targets were covered meanwhile, or no address could ask. */
export type SkipReason = 'covered' | 'cooling_down' | 'no_budget';

/** What the engine needs from its host to ask one planned request. */
export type WatchPort = {
  /**
   * Sends one HTTP request for these parts (the control part included) through an address
   * with budget, keeping the country's endpoint-shape memory and the address's cool-down.
   * `isFirst` is true for a planned request's first HTTP request only: the host may then skip
   * it when answers since the cycle began covered its targets.
   */
  send: (
    partNumbers: readonly string[],
    options: { isFirst: boolean },
  ) => Promise<UpstreamResult<PickupAnswer> | { skipped: SkipReason }>;
  /** Holds parts Apple refused out of later requests. */
  recordRefusedParts: (partNumbers: readonly string[], reason: string) => Promise<void>;
  /**
   * Counts a believed answer towards retiring parts: each part `ineligible` at every listed
   * store extends its run of such answers (RETIRE_AFTER_ANSWERS in a row retire it in the
   * country), each part reported sold ends it. Answers the parts it just retired.
   */
  recordRetirementEvidence: (evidence: RetirementEvidence) => Promise<string[]>;
  /** Files a believable answer (snapshots, transitions, neighbours, the seed's store list). */
  recordAnswer: (answer: PickupAnswer, askedParts: readonly string[]) => Promise<void>;
  /** Backs off what was asked after a failure that is neither a block nor refused parts. */
  backOff?: (failure: UpstreamFailure) => Promise<void>;
};

/** What one planned request came to. */
export type AskTally = {
  /** HTTP requests sent, bisection included. */
  requests: number;
  bisections: number;
  /** Believable answers filed. */
  answers: number;
  failure?: UpstreamFailure;
  /** Why the first request was never sent. */
  skipped?: SkipReason;
  /** Parts found refused during this request. */
  refused: string[];
  /** Parts this request's answers retired (ineligible everywhere, answers in a row). */
  retired: string[];
  /** Stores the believed answers listed. */
  listedStoreIds: Set<string>;
};
