// Time compression: the benchmark runs the shipped defaults K times faster. Every duration
// the engine and the simulated Apple are configured with is divided by K (poll interval,
// cool-downs, the full-sweep target, the quiet window, Apple's block window and block) and
// every rate multiplied by K, while counts stay as they are (burst 20, 30 requests before a
// block, 40 parts a request). Each compressed minute therefore holds a real minute's requests
// and blocks. Polling-side times measured in wall-clock are multiplied by K to read as real
// minutes; delivery (outbox to SMTP) is not compressed and is reported as measured.

/** The shipped defaults the benchmark answers for (server/config/app-config.ts). */
export const DEFAULTS = {
  pollIntervalSeconds: 60,
  upstreamRatePerMinute: 1,
  upstreamBurst: 20,
  partsPerRequest: 20,
  coolDownSeconds: 300,
  maxCoolDownSeconds: 3600,
  fullSweepMinutes: 60,
  quietWindowMinutes: 30,
} as const;

/**
 * Apple's block as public reports describe it and the simulator plays it by default: more
 * than 30 requests from one address within 10 minutes, then 541 for 10 minutes.
 */
export const APPLE_BLOCK = {
  afterRequests: 30,
  windowSeconds: 600,
  blockSeconds: 600,
} as const;

/**
 * Factors every compressed setting stays a whole number at: K divides 30 (the quiet window
 * in minutes) and 60 (the interval in seconds, the full-sweep target in minutes).
 */
export const ALLOWED_FACTORS = [1, 2, 3, 5, 6, 10, 15, 30] as const;

/** The compressed settings of a run. */
export type Compression = {
  factor: number;
  intervalSeconds: number;
  ratePerMinute: number;
  coolDownSeconds: number;
  maxCoolDownSeconds: number;
  fullSweepMinutes: number;
  quietWindowMinutes: number;
  block: { afterRequests: number; windowSeconds: number; blockSeconds: number };
};

/** The settings at factor K; throws for a factor the settings cannot take. */
export function compressDefaults(factor: number): Compression {
  if (!(ALLOWED_FACTORS as readonly number[]).includes(factor))
    throw new Error(`BENCH_WATCH_FACTOR: ${factor} is not one of ${ALLOWED_FACTORS.join(', ')}`);
  return {
    factor,
    intervalSeconds: DEFAULTS.pollIntervalSeconds / factor,
    ratePerMinute: DEFAULTS.upstreamRatePerMinute * factor,
    coolDownSeconds: DEFAULTS.coolDownSeconds / factor,
    maxCoolDownSeconds: DEFAULTS.maxCoolDownSeconds / factor,
    fullSweepMinutes: DEFAULTS.fullSweepMinutes / factor,
    quietWindowMinutes: DEFAULTS.quietWindowMinutes / factor,
    block: {
      afterRequests: APPLE_BLOCK.afterRequests,
      windowSeconds: APPLE_BLOCK.windowSeconds / factor,
      blockSeconds: APPLE_BLOCK.blockSeconds / factor,
    },
  };
}

/** The environment a `shelfwatch worker` runs the compressed defaults with. */
export function describeWorkerSettings(compression: Compression): Record<string, string> {
  return {
    POLL_INTERVAL_SECONDS: String(compression.intervalSeconds),
    UPSTREAM_RATE_PER_MINUTE: String(compression.ratePerMinute),
    UPSTREAM_BURST: String(DEFAULTS.upstreamBurst),
    UPSTREAM_PARTS_PER_REQUEST: String(DEFAULTS.partsPerRequest),
    UPSTREAM_COOL_DOWN_SECONDS: String(compression.coolDownSeconds),
    UPSTREAM_MAX_COOL_DOWN_SECONDS: String(compression.maxCoolDownSeconds),
    WATCH_FULL_SWEEP_MINUTES: String(compression.fullSweepMinutes),
    ALERT_QUIET_WINDOW_MINUTES: String(compression.quietWindowMinutes),
  };
}

/** What stays uncompressed at factor K, and what that does to the figures. */
export function describeDistortions(factor: number): string[] {
  const interval = DEFAULTS.pollIntervalSeconds / factor;
  const share = (seconds: number): string => `${Math.round((seconds / interval) * 100)} %`;
  return [
    `pg-boss looks for cycle jobs every 1 s and the busy re-check waits 1 s: up to ${share(1)} of a ${interval} s interval ` +
      '(at the defaults under 2 %), so cycles run later than the interval says and staleness reads high.',
    `Poll workers fetch jobs every 0.5 s (${share(0.5)} of an interval); planning a cycle takes the same wall time at any K, ` +
      'so it weighs K times more than at the defaults.',
    'Windows the engine keeps in real time: the control part is the busiest of the last hour (K real hours here), the other ' +
      'endpoint shape is probed at most hourly, a 541 within 10 minutes of another address answering counts as that ' +
      "address's block, and a refused part is held out 24 hours. With no shape dying and no invalid part, only the control " +
      "part's window matters, and a longer one changes nothing while the shelves hold still.",
    'The 20 s job heartbeat, the 30 s worker heartbeat and the 2 min liveness of workers and addresses are not compressed; ' +
      'with no worker killed they change nothing.',
  ];
}
