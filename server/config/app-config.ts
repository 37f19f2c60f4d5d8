import path from 'node:path';
import { z } from 'zod';
import { LOG_FORMATS, type LogFormatSetting } from '#server/logging/logger.ts';
import { optionalString } from './environment-values.ts';
import {
  loginEnvironmentSchema,
  readLoginSettings,
  type Auth0ManagementSettings,
  type DemoSettings,
  type IdentityProviderSettings,
} from './login-settings.ts';
import {
  notifyEnvironmentSchema,
  readNotifySettings,
  type NotifySettings,
} from './notify-settings.ts';
import {
  rateLimitEnvironmentSchema,
  readLoginLimits,
  readRateLimits,
  type LoginLimitSettings,
  type RateLimitSettings,
} from './rate-limits.ts';
import { trustProxyEnvironmentSchema, type TrustProxySetting } from './trust-proxy.ts';
import {
  readSimulatorSettings,
  readUpstreamSettings,
  readWatchSettings,
  upstreamEnvironmentSchema,
  watchEnvironmentSchema,
  type SimulatorSettings,
  type UpstreamSettings,
  type WatchSettings,
} from './upstream-settings.ts';

// Every variable, in the order problems are reported; groups of settings bring their own.
const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: optionalString,
  SHELFWATCH_DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString,
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(5433),
  ...loginEnvironmentSchema.shape,
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
  ...upstreamEnvironmentSchema.shape,
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  ...notifyEnvironmentSchema.shape,
  ...watchEnvironmentSchema.shape,
  ...trustProxyEnvironmentSchema.shape,
  ...rateLimitEnvironmentSchema.shape,
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
  idp: IdentityProviderSettings;
  apiAudience: string;
  /**
   * Auth0's Management API (AUTH0_MGMT_*), through which accounts made without a sign-up
   * (checkout, `shelfwatch user add`) are created at Auth0; undefined when not all are set.
   */
  auth0Management: Auth0ManagementSettings | undefined;
  demo: DemoSettings;
  supportEmail: string;
  supportEndDate: string;
  maker: { name: string; url: string };
  macDownloadUrl: string | null;
  /** The macOS app's update feed; the download page links its newest .dmg without MACOS_DOWNLOAD_URL. */
  macUpdateFeedUrl: string | null;
  logLevel: string;
  /** `auto`: pretty lines in a terminal, JSON lines otherwise. */
  logFormat: LogFormatSetting;
  simulator: SimulatorSettings;
  upstream: UpstreamSettings;
  notify: NotifySettings;
  alerts: { quietWindowMinutes: number };
  /**
   * Stripe (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, both or neither): checkout, the billing
   * portal and plan changes by webhook; undefined means billing is not configured.
   */
  billing: { stripeSecretKey: string; webhookSecret: string } | undefined;
  watch: WatchSettings;
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
  const login = readLoginSettings(values);
  return {
    port: values.PORT,
    host: values.HOST,
    publicUrl,
    dataDir: path.resolve(values.SHELFWATCH_DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    embeddedPgPort: values.EMBEDDED_PG_PORT,
    idp: login.idp,
    apiAudience: login.apiAudience,
    auth0Management: login.auth0Management,
    demo: login.demo,
    supportEmail: values.SUPPORT_EMAIL,
    supportEndDate: values.SUPPORT_END_DATE,
    maker: { name: values.MAKER_NAME, url: values.MAKER_URL },
    macDownloadUrl: values.MACOS_DOWNLOAD_URL ?? null,
    macUpdateFeedUrl: values.SHELFWATCH_UPDATE_URL ?? null,
    logLevel: values.LOG_LEVEL,
    logFormat: values.LOG_FORMAT,
    simulator: readSimulatorSettings(values),
    upstream: readUpstreamSettings(values),
    notify: readNotifySettings(values, values.SUPPORT_EMAIL),
    alerts: { quietWindowMinutes: values.ALERT_QUIET_WINDOW_MINUTES },
    billing:
      values.STRIPE_SECRET_KEY !== undefined && values.STRIPE_WEBHOOK_SECRET !== undefined
        ? { stripeSecretKey: values.STRIPE_SECRET_KEY, webhookSecret: values.STRIPE_WEBHOOK_SECRET }
        : undefined,
    watch: readWatchSettings(values),
    trustProxy: values.TRUST_PROXY,
    rateLimits: readRateLimits(values),
    metrics: { token: values.METRICS_TOKEN, workerPort: values.METRICS_PORT },
    loginLimits: readLoginLimits(values),
  };
}
