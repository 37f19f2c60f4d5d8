import { isIP } from 'node:net';
import path from 'node:path';
import proxyAddr from '@fastify/proxy-addr';
import { z } from 'zod';
import { LOG_FORMATS, type LogFormatSetting } from '#server/logging/logger.ts';
import {
  DEFAULT_SIMULATOR_BEHAVIOUR,
  MAX_BLOCK_SECONDS,
  type SimulatorBehaviour,
} from './simulator-settings.ts';

/** Channel settings from the environment (README: ALLOW_PRIVATE_CHANNEL_TARGETS, TELEGRAM_API_BASE_URL). */
export type ChannelSettings = {
  allowPrivateTargets: boolean;
  telegramApiBaseUrl: string;
  /** Per request: connecting, headers and body each. */
  timeoutMs: number;
};

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

/** A true/false setting that is on unless set to false (or 0). */
const defaultOnBoolean = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value !== 'false' && value !== '0');

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value === '' ? undefined : value));

/**
 * Which proxies may name the client in X-Forwarded-For: none, the nearest `n` hops, or
 * addresses and CIDR ranges (proxy-addr's names loopback, linklocal, uniquelocal too).
 */
export type TrustProxySetting = false | number | string[];

/** Requests allowed per minute by the API's limits (see server/plugins/rate-limits.ts). */
export type RateLimitSettings = {
  /** Public /v2 routes, per client address. */
  perAddressPerMinute: number;
  /** Signed-in routes, per user. */
  perUserPerMinute: number;
  /** Signed-in POST, PATCH and DELETE, per user, on top of the per-user limit. */
  userWritesPerMinute: number;
  /** Checkout calls (unauthenticated), per client address. */
  checkoutPerAddressPerMinute: number;
  /** Answers of 401 per client address before it is refused outright until the minute ends. */
  authFailuresPerAddressPerMinute: number;
};

/**
 * Reads in a signed-in page come in bursts (the search list, then each search's inventory),
 * so the per-user limit is higher than the per-address one of the public catalog.
 */
export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  perAddressPerMinute: 300,
  perUserPerMinute: 600,
  userWritesPerMinute: 60,
  checkoutPerAddressPerMinute: 10,
  authFailuresPerAddressPerMinute: 20,
};

/** Sign-in form posts allowed per minute at the embedded login provider. */
export type LoginLimitSettings = {
  /** Across emails, against password spraying. */
  perAddressPerMinute: number;
  /** For one email, against guessing one account's password. */
  perAddressAndEmailPerMinute: number;
};

/** Default sign-in limits. */
export const DEFAULT_LOGIN_LIMITS: LoginLimitSettings = {
  perAddressPerMinute: 30,
  perAddressAndEmailPerMinute: 10,
};

const PROXY_ADDRESS_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUST_PROXY as a setting, or the sentence saying what is wrong with it. */
function parseTrustProxy(value: string): TrustProxySetting | string {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed === 'false' || trimmed === '0') {
    return false;
  }
  if (trimmed === 'true' || trimmed === '*') {
    return (
      `"${trimmed}" would let any client choose its address with X-Forwarded-For; give the number ` +
      'of proxies in front of Shelfwatch (e.g. 1) or their addresses (e.g. 10.0.0.1,192.168.0.0/16)'
    );
  }
  if (/^\d+$/.test(trimmed)) {
    return Number(trimmed);
  }
  const entries = trimmed.split(',').map((entry) => entry.trim());
  const invalid = entries.filter((entry) => !isProxyAddress(entry));
  return invalid.length === 0
    ? entries
    : `not a hop count, address or CIDR range: ${invalid.map((entry) => `"${entry}"`).join(', ')}`;
}

function isProxyAddress(entry: string): boolean {
  if (PROXY_ADDRESS_NAMES.has(entry)) {
    return true;
  }
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) {
    return false;
  }
  return (
    prefix === undefined ||
    (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128))
  );
}

/**
 * Fastify's form of the setting. A hop count becomes a function: Fastify 5 ignores a bare
 * number (it cannot check the nearest peer), while a count means "the nearest n are proxies".
 * An address list is compiled by proxy-addr, as Fastify would, with its answers remembered.
 */
export function toFastifyTrustProxy(
  setting: TrustProxySetting,
): false | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') {
    return setting === 0 ? false : (_address, hop) => hop < setting;
  }
  if (setting === false) {
    return false;
  }
  return rememberTrust(proxyAddr.compile(setting));
}

/** Addresses whose answer rememberTrust keeps at most before starting over. */
const TRUSTED_ADDRESS_MEMORY = 1024;

/**
 * An address-list trust check that remembers its answers. Fastify checks the connection's
 * own address (the proxy's, the same few all the time) on every request by parsing it with
 * ipaddr.js, a few percent of a cheap route's time. A compiled address list answers by the
 * address alone, whatever the hop.
 */
function rememberTrust(
  trust: (address: string, hop: number) => boolean,
): (address: string, hop: number) => boolean {
  const known = new Map<string, boolean>();
  return (address, hop) => {
    let isTrusted = known.get(address);
    if (isTrusted === undefined) {
      isTrusted = trust(address, hop);
      // Forwarded chains of ever new addresses must not grow it without bound.
      if (known.size >= TRUSTED_ADDRESS_MEMORY) known.clear();
      known.set(address, isTrusted);
    }
    return isTrusted;
  };
}

function perMinute(defaultValue: number) {
  return z.coerce.number().int().min(1).default(defaultValue);
}

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: optionalString,
  SHELFWATCH_DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString,
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(5433),
  IDP_PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  IDP_ISSUER: optionalString,
  AUTH0_DOMAIN: optionalString,
  AUTH0_AUDIENCE: optionalString,
  AUTH0_CLIENT_ID: optionalString,
  AUTH0_DESKTOP_CLIENT_ID: optionalString,
  AUTH0_MGMT_DOMAIN: optionalString,
  AUTH0_MGMT_CLIENT_ID: optionalString,
  AUTH0_MGMT_CLIENT_SECRET: optionalString,
  AUTH0_MGMT_CONNECTION: z.string().default('Username-Password-Authentication'),
  API_AUDIENCE: z.string().default('https://api.shelfwatch.app'),
  SHELFWATCH_DEMO_PASSWORD: optionalString,
  SHELFWATCH_DISABLE_DEMO: booleanFromEnv,
  SUPPORT_EMAIL: z.string().email().default('support@shelfwatch.app'),
  SUPPORT_END_DATE: z.string().default('September 8th, 2025'),
  MAKER_NAME: z.string().default('Lantern Apps'),
  MAKER_URL: z.string().url().default('https://lanternapps.dev'),
  MACOS_DOWNLOAD_URL: optionalString,
  SHELFWATCH_UPDATE_URL: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z
    .union([z.literal(''), z.enum(LOG_FORMATS)])
    .optional()
    .transform((value) => (value === undefined || value === '' ? 'auto' : value)),
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
  UPSTREAM_PARTS_PER_REQUEST: z.coerce.number().int().min(2).max(100).default(40),
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
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default('Shelfwatch <alerts@shelfwatch.app>'),
  TWILIO_ACCOUNT_SID: optionalString,
  TWILIO_AUTH_TOKEN: optionalString,
  TWILIO_FROM_NUMBER: optionalString,
  TWILIO_API_BASE_URL: optionalString,
  // Development only: lets ntfy/Discord/webhook channels point at http:// and private addresses.
  ALLOW_PRIVATE_CHANNEL_TARGETS: z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((value) => value === 'true' || value === '1'),
  TELEGRAM_API_BASE_URL: z.string().url().default('https://api.telegram.org'),
  VAPID_SUBJECT: optionalString,
  ALERT_QUIET_WINDOW_MINUTES: z.coerce.number().int().min(0).default(30),
  STORE_PAGE_BASE_URL: z.string().url().default('https://www.apple.com/retail/'),
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
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, context) => {
      const setting = parseTrustProxy(value ?? '');
      if (typeof setting === 'string') {
        context.addIssue({ code: 'custom', message: setting });
        return z.NEVER;
      }
      return setting;
    }),
  RATE_LIMIT_PER_MINUTE: perMinute(DEFAULT_RATE_LIMITS.perAddressPerMinute),
  USER_RATE_LIMIT_PER_MINUTE: perMinute(DEFAULT_RATE_LIMITS.perUserPerMinute),
  USER_WRITE_RATE_LIMIT_PER_MINUTE: perMinute(DEFAULT_RATE_LIMITS.userWritesPerMinute),
  AUTH_FAILURES_PER_MINUTE: perMinute(DEFAULT_RATE_LIMITS.authFailuresPerAddressPerMinute),
  LOGIN_RATE_LIMIT_PER_MINUTE: perMinute(DEFAULT_LOGIN_LIMITS.perAddressPerMinute),
  METRICS_TOKEN: optionalString,
  METRICS_PORT: z
    .union([z.literal(''), z.coerce.number().int().min(1).max(65535)])
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
});

/** Runtime configuration of the server, read once from the environment. */
export type AppConfig = {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  embeddedPgPort: number;
  idp:
    | { kind: 'embedded'; port: number; issuer: string; clientId: string }
    | {
        kind: 'auth0';
        issuer: string;
        clientId: string;
        /** The macOS app's native client at the tenant, whose tokens the API also accepts. */
        desktopClientId: string | undefined;
      };
  apiAudience: string;
  /**
   * Auth0's Management API (AUTH0_MGMT_*), through which accounts made without a sign-up
   * (checkout, `shelfwatch user add`) are created at Auth0; undefined when not all are set.
   */
  auth0Management:
    { domain: string; clientId: string; clientSecret: string; connection: string } | undefined;
  demo: { isEnabled: boolean; password: string | undefined };
  supportEmail: string;
  supportEndDate: string;
  maker: { name: string; url: string };
  macDownloadUrl: string | null;
  /** The macOS app's update feed; the download page links its newest .dmg without MACOS_DOWNLOAD_URL. */
  macUpdateFeedUrl: string | null;
  logLevel: string;
  /** `auto`: pretty lines in a terminal, JSON lines otherwise. */
  logFormat: LogFormatSetting;
  /** The upstream simulator (server/watch/simulator); started when the upstream is it. */
  simulator: { port: number; seed: number; isEnabled: boolean; behaviour: SimulatorBehaviour };
  /** Where pickup availability is read: the simulator by default, https://www.apple.com for real stores. */
  upstream: {
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
  /** Alert delivery: SMTP/Twilio unset means messages are written under dataDir/outbox/. */
  notify: {
    smtpUrl: string | undefined;
    mailFrom: string;
    twilio:
      | {
          accountSid: string;
          authToken: string;
          fromNumber: string;
          apiBaseUrl: string | undefined;
        }
      | undefined;
    /** Twilio's auth token verifies inbound webhooks even when sending is not configured. */
    twilioAuthToken: string | undefined;
    vapidSubject: string;
    storePageBaseUrl: string;
    /** Users' own channels: ALLOW_PRIVATE_CHANNEL_TARGETS, TELEGRAM_API_BASE_URL, 10 s timeouts. */
    channels: ChannelSettings;
  };
  alerts: { quietWindowMinutes: number };
  /**
   * Stripe (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, both or neither): checkout, the billing
   * portal and plan changes by webhook; undefined means billing is not configured.
   */
  billing: { stripeSecretKey: string; webhookSecret: string } | undefined;
  /** The watch engine: poll cadence and upstream pacing (see server/watch). */
  watch: {
    isEnabled: boolean;
    pollIntervalSeconds: number;
    upstreamRatePerMinute: number;
    upstreamBurst: number;
    /** WATCH_FULL_SWEEP_MINUTES: how often full sweeps aim to ask every watched part. */
    fullSweepMinutes: number;
  };
  /** TRUST_PROXY: off unless set; whose X-Forwarded-For names the client. */
  trustProxy: TrustProxySetting;
  rateLimits: RateLimitSettings;
  loginLimits: LoginLimitSettings;
  /**
   * Prometheus metrics at /metrics: `token` (METRICS_TOKEN) makes it ask for a bearer token;
   * `workerPort` (METRICS_PORT) is where `shelfwatch worker`, which has no website, serves them.
   */
  metrics: { token: string | undefined; workerPort: number | undefined };
};

/** Client id of the website and app at the embedded provider. */
export const EMBEDDED_CLIENT_ID = 'shelfwatch-web';

/** Reads and validates the environment; throws an Error naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid environment: ${problems.join('; ')}`);
  }
  const values = parsed.data;
  if ((values.STRIPE_SECRET_KEY === undefined) !== (values.STRIPE_WEBHOOK_SECRET === undefined)) {
    // Half a setup would take payments whose webhooks are refused, or the reverse.
    throw new Error(
      'Invalid environment: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: set both to turn billing on, or neither',
    );
  }
  const publicUrl = (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/$/, '');
  const isAuth0 = values.AUTH0_DOMAIN !== undefined;
  const idp: AppConfig['idp'] = isAuth0
    ? {
        kind: 'auth0',
        issuer: normaliseIssuer(values.AUTH0_DOMAIN ?? ''),
        clientId: values.AUTH0_CLIENT_ID ?? '',
        desktopClientId: values.AUTH0_DESKTOP_CLIENT_ID,
      }
    : {
        kind: 'embedded',
        port: values.IDP_PORT,
        issuer: normaliseIssuer(values.IDP_ISSUER ?? `http://localhost:${values.IDP_PORT}`),
        clientId: EMBEDDED_CLIENT_ID,
      };
  return {
    port: values.PORT,
    host: values.HOST,
    publicUrl,
    dataDir: path.resolve(values.SHELFWATCH_DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    embeddedPgPort: values.EMBEDDED_PG_PORT,
    idp,
    apiAudience: values.AUTH0_AUDIENCE ?? values.API_AUDIENCE,
    auth0Management:
      isAuth0 &&
      values.AUTH0_MGMT_DOMAIN !== undefined &&
      values.AUTH0_MGMT_CLIENT_ID !== undefined &&
      values.AUTH0_MGMT_CLIENT_SECRET !== undefined
        ? {
            domain: values.AUTH0_MGMT_DOMAIN,
            clientId: values.AUTH0_MGMT_CLIENT_ID,
            clientSecret: values.AUTH0_MGMT_CLIENT_SECRET,
            connection: values.AUTH0_MGMT_CONNECTION,
          }
        : undefined,
    demo: { isEnabled: !values.SHELFWATCH_DISABLE_DEMO, password: values.SHELFWATCH_DEMO_PASSWORD },
    supportEmail: values.SUPPORT_EMAIL,
    supportEndDate: values.SUPPORT_END_DATE,
    maker: { name: values.MAKER_NAME, url: values.MAKER_URL },
    macDownloadUrl: values.MACOS_DOWNLOAD_URL ?? null,
    macUpdateFeedUrl: values.SHELFWATCH_UPDATE_URL ?? null,
    logLevel: values.LOG_LEVEL,
    logFormat: values.LOG_FORMAT,
    simulator: {
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
    },
    upstream: {
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
    },
    notify: {
      smtpUrl: values.SMTP_URL,
      mailFrom: values.MAIL_FROM,
      twilio:
        values.TWILIO_ACCOUNT_SID !== undefined &&
        values.TWILIO_AUTH_TOKEN !== undefined &&
        values.TWILIO_FROM_NUMBER !== undefined
          ? {
              accountSid: values.TWILIO_ACCOUNT_SID,
              authToken: values.TWILIO_AUTH_TOKEN,
              fromNumber: values.TWILIO_FROM_NUMBER,
              apiBaseUrl: values.TWILIO_API_BASE_URL,
            }
          : undefined,
      twilioAuthToken: values.TWILIO_AUTH_TOKEN,
      vapidSubject: values.VAPID_SUBJECT ?? `mailto:${values.SUPPORT_EMAIL}`,
      storePageBaseUrl: values.STORE_PAGE_BASE_URL.endsWith('/')
        ? values.STORE_PAGE_BASE_URL
        : `${values.STORE_PAGE_BASE_URL}/`,
      channels: {
        allowPrivateTargets: values.ALLOW_PRIVATE_CHANNEL_TARGETS,
        telegramApiBaseUrl: values.TELEGRAM_API_BASE_URL,
        timeoutMs: 10_000,
      },
    },
    alerts: { quietWindowMinutes: values.ALERT_QUIET_WINDOW_MINUTES },
    billing:
      values.STRIPE_SECRET_KEY !== undefined && values.STRIPE_WEBHOOK_SECRET !== undefined
        ? { stripeSecretKey: values.STRIPE_SECRET_KEY, webhookSecret: values.STRIPE_WEBHOOK_SECRET }
        : undefined,
    watch: {
      isEnabled: values.WATCH_ENABLED,
      pollIntervalSeconds: values.POLL_INTERVAL_SECONDS,
      upstreamRatePerMinute: values.UPSTREAM_RATE_PER_MINUTE,
      upstreamBurst: values.UPSTREAM_BURST,
      fullSweepMinutes: values.WATCH_FULL_SWEEP_MINUTES,
    },
    trustProxy: values.TRUST_PROXY,
    rateLimits: {
      ...DEFAULT_RATE_LIMITS,
      perAddressPerMinute: values.RATE_LIMIT_PER_MINUTE,
      perUserPerMinute: values.USER_RATE_LIMIT_PER_MINUTE,
      userWritesPerMinute: values.USER_WRITE_RATE_LIMIT_PER_MINUTE,
      authFailuresPerAddressPerMinute: values.AUTH_FAILURES_PER_MINUTE,
    },
    metrics: { token: values.METRICS_TOKEN, workerPort: values.METRICS_PORT },
    loginLimits: {
      ...DEFAULT_LOGIN_LIMITS,
      perAddressPerMinute: values.LOGIN_RATE_LIMIT_PER_MINUTE,
    },
  };
}

/** True when the upstream URL is the local simulator's port on a loopback host. */
function isSimulatorUrl(baseUrl: string, simulatorPort: number): boolean {
  const url = new URL(baseUrl);
  const isLoopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname.toLowerCase());
  return isLoopback && url.protocol === 'http:' && url.port === String(simulatorPort);
}

/** Auth0 domains come bare ("tenant.auth0.com"); issuers are URLs with a trailing slash. */
function normaliseIssuer(domainOrUrl: string): string {
  const withScheme = /^https?:\/\//.test(domainOrUrl) ? domainOrUrl : `https://${domainOrUrl}`;
  return withScheme.endsWith('/') ? withScheme : `${withScheme}/`;
}
