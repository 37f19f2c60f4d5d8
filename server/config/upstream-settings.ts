import { z } from 'zod';
import { DEFAULT_PARTS_PER_REQUEST } from '#shared/watch/engine/engine-limits.ts';
import { defaultOnBoolean } from './environment-values.ts';
import {
  DEFAULT_SIMULATOR_BEHAVIOUR,
  MAX_BLOCK_SECONDS,
  type SimulatorBehaviour,
} from './simulator-settings.ts';

/** The upstream simulator (server/simulator); started when the upstream is it. */
export type SimulatorSettings = {
  port: number;
  seed: number;
  isEnabled: boolean;
  behaviour: SimulatorBehaviour;
};

/** Where pickup availability is read: the simulator by default, https://www.apple.com for real stores. */
export type UpstreamSettings = {
  baseUrl: string;
  shape: 'fulfillment-messages' | 'pickup-message';
  /** Proxy URLs, each one more egress address (may carry credentials: never log them). */
  proxies: string[];
  isDirect: boolean;
  allowH2: boolean;
  partsPerRequest: number;
  /** Control part per country code, from UPSTREAM_CONTROL_PARTS (else the busiest part seen). */
  controlParts: ReadonlyMap<string, string>;
  coolDownSeconds: number;
  maxCoolDownSeconds: number;
};

/** The watch engine: poll cadence and upstream pacing (see server/watch). */
export type WatchSettings = {
  isEnabled: boolean;
  pollIntervalSeconds: number;
  upstreamRatePerMinute: number;
  upstreamBurst: number;
  /** WATCH_FULL_SWEEP_MINUTES: how often full sweeps aim to ask every watched part. */
  fullSweepMinutes: number;
};

/** The simulator's and the upstream's variables (SIMULATOR_*, UPSTREAM_*). */
export const upstreamEnvironmentSchema = z.object({
  SIMULATOR_PORT: z.coerce.number().int().min(1).max(65535).default(4010),
  SIMULATOR_SEED: z.coerce.number().int().default(1),
  SIMULATOR_FULFILLMENT_MESSAGES: z
    .enum(['dead', 'alive'])
    .default(DEFAULT_SIMULATOR_BEHAVIOUR.fulfillmentMessages),
  SIMULATOR_BLOCK_AFTER_REQUESTS: z.coerce
    .number()
    .int()
    .min(0)
    .default(DEFAULT_SIMULATOR_BEHAVIOUR.blockAfterRequests),
  SIMULATOR_BLOCK_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_BLOCK_SECONDS)
    .default(DEFAULT_SIMULATOR_BEHAVIOUR.blockWindowSeconds),
  SIMULATOR_BLOCK_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_BLOCK_SECONDS)
    .default(DEFAULT_SIMULATOR_BEHAVIOUR.blockSeconds),
  UPSTREAM_BASE_URL: z
    .union([z.literal(''), z.string().url()])
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
  UPSTREAM_SHAPE: z.enum(['fulfillment-messages', 'pickup-message']).default('pickup-message'),
  UPSTREAM_PROXIES: z
    .string()
    .optional()
    .transform((value, context) => {
      const list = (value ?? '')
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
      for (const item of list) {
        let url: URL | undefined;
        try {
          url = new URL(item);
        } catch {
          url = undefined;
        }
        if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
          // Never echo the entry: it may carry a proxy password.
          context.addIssue({
            code: 'custom',
            message: 'each entry must be an http:// or https:// proxy URL',
          });
          return z.NEVER;
        }
      }
      return list;
    }),
  UPSTREAM_DIRECT: defaultOnBoolean,
  UPSTREAM_HTTP2: defaultOnBoolean,
  // Apple answers at most 20 parts a request and leaves the rest out (Dgon5000/iphone-stock-
  // watch-hk: MAX_PARTS_PER_REQUEST = 20, measured; jhdavis789 sends 20 in the US; see
  // ../shared/reference/apple/README.md and DEFAULT_PARTS_PER_REQUEST).
  UPSTREAM_PARTS_PER_REQUEST: z.coerce
    .number()
    .int()
    .min(2)
    .max(100)
    .default(DEFAULT_PARTS_PER_REQUEST),
  UPSTREAM_CONTROL_PARTS: z
    .string()
    .optional()
    .transform((value, context) => {
      const map = new Map<string, string>();
      for (const item of (value ?? '').split(',').map((entry) => entry.trim())) {
        if (item === '') continue;
        const match = /^([A-Za-z]{2}):(\S+)$/.exec(item);
        if (match === null) {
          context.addIssue({
            code: 'custom',
            message: `"${item}" is not COUNTRY:PART (e.g. US:MFHP4LL/A)`,
          });
          return z.NEVER;
        }
        map.set(match[1].toUpperCase(), match[2].toUpperCase());
      }
      return map;
    }),
  UPSTREAM_COOL_DOWN_SECONDS: z.coerce.number().int().min(1).default(300),
  UPSTREAM_MAX_COOL_DOWN_SECONDS: z.coerce.number().int().min(1).default(3600),
});

/** The watch engine's variables: its cadence and its pace at the upstream. */
export const watchEnvironmentSchema = z.object({
  POLL_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(60),
  // One request a minute sustained, bursts of 20, per egress address: the pace public checkers
  // settled on after Apple's 541 blocks (about 30 quick requests, then 10+ minutes blocked).
  UPSTREAM_RATE_PER_MINUTE: z.coerce.number().positive().default(1),
  UPSTREAM_BURST: z.coerce.number().int().min(1).default(20),
  // What full sweeps aim for; bench:watch shortens it with the interval when it compresses time.
  WATCH_FULL_SWEEP_MINUTES: z.coerce.number().int().min(1).default(60),
  WATCH_ENABLED: z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((value) => value !== 'false' && value !== '0'),
});

type UpstreamValues = z.output<typeof upstreamEnvironmentSchema>;

/** The simulator's settings from the validated environment. */
export function readSimulatorSettings(values: UpstreamValues): SimulatorSettings {
  return {
    port: values.SIMULATOR_PORT,
    seed: values.SIMULATOR_SEED,
    isEnabled:
      values.UPSTREAM_BASE_URL === undefined ||
      isSimulatorUrl(values.UPSTREAM_BASE_URL, values.SIMULATOR_PORT),
    behaviour: {
      fulfillmentMessages: values.SIMULATOR_FULFILLMENT_MESSAGES,
      pickupMessage: 'alive',
      blockAfterRequests: values.SIMULATOR_BLOCK_AFTER_REQUESTS,
      blockWindowSeconds: values.SIMULATOR_BLOCK_WINDOW_SECONDS,
      blockSeconds: values.SIMULATOR_BLOCK_SECONDS,
    },
  };
}

/** The upstream's settings from the validated environment. */
export function readUpstreamSettings(values: UpstreamValues): UpstreamSettings {
  return {
    baseUrl: (values.UPSTREAM_BASE_URL ?? `http://localhost:${values.SIMULATOR_PORT}`).replace(
      /\/+$/,
      '',
    ),
    shape: values.UPSTREAM_SHAPE,
    proxies: values.UPSTREAM_PROXIES,
    isDirect: values.UPSTREAM_DIRECT,
    allowH2: values.UPSTREAM_HTTP2,
    partsPerRequest: values.UPSTREAM_PARTS_PER_REQUEST,
    controlParts: values.UPSTREAM_CONTROL_PARTS,
    coolDownSeconds: values.UPSTREAM_COOL_DOWN_SECONDS,
    maxCoolDownSeconds: Math.max(
      values.UPSTREAM_COOL_DOWN_SECONDS,
      values.UPSTREAM_MAX_COOL_DOWN_SECONDS,
    ),
  };
}

/** The watch engine's settings from the validated environment. */
export function readWatchSettings(values: z.output<typeof watchEnvironmentSchema>): WatchSettings {
  return {
    isEnabled: values.WATCH_ENABLED,
    pollIntervalSeconds: values.POLL_INTERVAL_SECONDS,
    upstreamRatePerMinute: values.UPSTREAM_RATE_PER_MINUTE,
    upstreamBurst: values.UPSTREAM_BURST,
    fullSweepMinutes: values.WATCH_FULL_SWEEP_MINUTES,
  };
}

/** True when the upstream URL is the local simulator's port on a loopback host. */
function isSimulatorUrl(baseUrl: string, simulatorPort: number): boolean {
  const url = new URL(baseUrl);
  const isLoopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname.toLowerCase());
  return isLoopback && url.protocol === 'http:' && url.port === String(simulatorPort);
}
