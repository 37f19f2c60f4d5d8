// Time compression: the benchmark runs the shipped defaults K times faster. The poll interval
// is divided by K and every worker's request rate multiplied by K, so each interval holds the
// defaults' requests and the budget-to-interval ratio is the defaults' exactly; the alert quiet
// window shrinks by K too. Polling-side times measured in
// wall-clock are multiplied by K to read as real minutes; delivery (outbox to SMTP) is not
// compressed and is reported as measured. The simulator's shelves hold still (only flips
// change them), so the stock schedule needs no compressing.

/** The shipped defaults the benchmark answers for. */
export const DEFAULTS = {
  pollIntervalSeconds: 60,
  upstreamRatePerMinute: 1,
  upstreamBurst: 20,
  partsPerRequest: 40,
  quietWindowMinutes: 30,
} as const;

/**
 * Factors the configuration accepts: POLL_INTERVAL_SECONDS and ALERT_QUIET_WINDOW_MINUTES are
 * whole numbers, so K divides both 60 and 30; 30 (a 2 s interval) is the most the watcher's
 * own fixed timings allow (see `describeDistortions`).
 */
export const ALLOWED_FACTORS = [1, 2, 3, 5, 6, 10, 15, 30] as const;

/** What decides a configuration's factor and window. */
export type CompressionInputs = {
  workers: number;
  /** Largest K to use: the watcher's fixed timings weigh more the shorter the interval. */
  maxFactor: number;
  /** The planner's promise at the defaults ("every group fresh within"), in real ms. */
  allFreshWithinMs: number;
  /** Its promise for alerting groups, in real ms. */
  alertingFreshWithinMs: number;
  /** Most upstream requests a second the machine is asked to serve at the compressed budget. */
  maxBudgetPerSecond: number;
  minWindowMs: number;
  maxWindowMs: number;
  /** Most wall time flips are spread over (at most half the window). */
  flipSpreadMs: number;
};

/** After the window, workers run on at least this long for flips still on their way... */
const SHORT_FLIP_TAIL_MS = 20_000;
/** ...and up to this long when the promise says every flip is asked about by then. */
const LONGEST_FLIP_TAIL_MS = 90_000;
/** Time allowed for an email once its group was asked. */
const DELIVERY_ALLOWANCE_MS = 10_000;

/** A configuration's factor and measuring window (wall-clock). */
export type Compression = {
  factor: number;
  intervalSeconds: number;
  ratePerMinute: number;
  quietWindowMinutes: number;
  windowMs: number;
  /** Share of the promised all-groups period the window covers, in real time. */
  promiseCoverage: number;
  /** Wall time the flips are spread over, from the window's start. */
  flipSpreadMs: number;
  /** Time the workers run on after the window so flips' emails can arrive. */
  flipTailMs: number;
  /** True when the promise says a flip made at the end of the spread is emailed within the tail. */
  doFlipsFit: boolean;
};

/**
 * The smallest allowed K that fits one promised period (plus 5 %) into the longest window,
 * but no larger than the compressed budget the machine can serve; then the window that
 * period needs, within the bounds, and the tail after it for flips' emails.
 */
export function chooseCompression(inputs: CompressionInputs): Compression {
  const budgetPerSecond = (factor: number): number =>
    (inputs.workers * DEFAULTS.upstreamRatePerMinute * factor) / 60;
  const affordable = ALLOWED_FACTORS.filter(
    (factor) =>
      factor === 1 ||
      (factor <= inputs.maxFactor && budgetPerSecond(factor) <= inputs.maxBudgetPerSecond),
  );
  const periodMs = inputs.allFreshWithinMs * 1.05;
  const factor =
    affordable.find((candidate) => periodMs / candidate <= inputs.maxWindowMs) ??
    affordable[affordable.length - 1];
  const windowMs = Math.round(
    Math.min(inputs.maxWindowMs, Math.max(inputs.minWindowMs, periodMs / factor)),
  );
  const flipSpreadMs = Math.round(Math.min(inputs.flipSpreadMs, windowMs / 2));
  const neededTailMs =
    flipSpreadMs + inputs.alertingFreshWithinMs / factor + DELIVERY_ALLOWANCE_MS - windowMs;
  const doFlipsFit = neededTailMs <= LONGEST_FLIP_TAIL_MS;
  return {
    factor,
    intervalSeconds: DEFAULTS.pollIntervalSeconds / factor,
    ratePerMinute: DEFAULTS.upstreamRatePerMinute * factor,
    quietWindowMinutes: DEFAULTS.quietWindowMinutes / factor,
    windowMs,
    promiseCoverage: (windowMs * factor) / inputs.allFreshWithinMs,
    flipSpreadMs,
    // A tail that could not save the late flips anyway is kept short.
    flipTailMs: doFlipsFit
      ? Math.max(SHORT_FLIP_TAIL_MS, Math.round(neededTailMs))
      : SHORT_FLIP_TAIL_MS,
    doFlipsFit,
  };
}

/** What the watcher's fixed (uncompressed) timings do to figures at factor K. */
export function describeDistortions(factor: number): string[] {
  const interval = DEFAULTS.pollIntervalSeconds / factor;
  const share = (seconds: number): string => `${Math.round((seconds / interval) * 100)} %`;
  return [
    `pg-boss looks for cycle jobs every 1 s and the busy re-check waits 1 s: up to ${share(1)} of a ${interval} s interval ` +
      `(at the defaults under 2 %), so cycles run later than the interval says and staleness reads high.`,
    `Cycle start delays are rounded to whole seconds: the ±10 % jitter of a ${interval} s interval ` +
      `${interval * 0.1 < 0.5 ? 'rounds away entirely' : 'is kept only to the second'}.`,
    `Poll workers fetch jobs every 0.5 s (${share(0.5)} of an interval); planning a cycle (demand query, ` +
      `neighbour lists, job inserts) takes the same wall time at any K, so it weighs K times more than at the defaults.`,
    `The 20 s job heartbeat, the 30 s worker heartbeat and the 2 min worker liveness are not compressed; with no worker killed they change nothing.`,
  ];
}
