import { z } from 'zod';
import type { AppConfig } from '#shared/api/app-config.ts';
import { LOCAL_PACING } from '#shared/watch/local/request-budget.ts';

// The app's settings that differ per build or per run, read once from the environment. A
// signed release runs with none of these set and watches Apple's real stores.

const DEFAULT_UPSTREAM_URL = 'https://www.apple.com';
const DEFAULT_SITE_URL = 'https://shelfwatch.app';
/**
 * Where the login comes back to: http://127.0.0.1:<port>/callback for the first free port of
 * these. RFC 8252 lets a native app pick any loopback port, but a provider that compares
 * redirect URIs exactly (Auth0's Allowed Callback URLs have no port wildcard) needs each one
 * registered, so a release uses this fixed list (README, "Login provider settings").
 */
export const DEFAULT_LOOPBACK_PORTS = [53180, 53181, 53182];

const urlSchema = z
  .string()
  .url()
  .refine((value) => /^https?:\/\//.test(value), 'must be an http(s) URL')
  .transform((value) => value.replace(/\/+$/, ''));

const environmentSchema = z.object({
  SHELFWATCH_UPSTREAM_URL: urlSchema.default(DEFAULT_UPSTREAM_URL),
  // Since 2026 fulfillment-messages answers HTTP 541 to everything; pickup-message answers.
  SHELFWATCH_UPSTREAM_SHAPE: z
    .enum(['fulfillment-messages', 'pickup-message'])
    .default('pickup-message'),
  SHELFWATCH_SITE_URL: urlSchema.default(DEFAULT_SITE_URL),
  SHELFWATCH_AUTH_DOMAIN: z.string().min(1).optional(),
  SHELFWATCH_AUTH_AUDIENCE: z.string().min(1).optional(),
  SHELFWATCH_AUTH_CLIENT_ID: z.string().min(1).default('shelfwatch-desktop'),
  SHELFWATCH_AUTH_LOOPBACK_PORTS: z
    .string()
    .regex(/^(random|\d{4,5}(,\d{4,5})*)$/, 'must be "random" or ports such as 53180,53181')
    .transform((value) => (value === 'random' ? [] : value.split(',').map(Number)))
    .refine((ports) => ports.every((port) => port >= 1024 && port <= 65535), 'ports 1024 to 65535')
    .optional(),
  SHELFWATCH_UPDATE_URL: urlSchema.optional(),
  // One Mac is one address at Apple, its budget shared with `shelfwatch watch` (LOCAL_PACING).
  SHELFWATCH_UPSTREAM_RATE_PER_MINUTE: z.coerce
    .number()
    .positive()
    .max(600)
    .default(LOCAL_PACING.ratePerMinute),
  SHELFWATCH_UPSTREAM_BURST: z.coerce.number().int().min(1).max(60).default(LOCAL_PACING.burst),
  SHELFWATCH_UPSTREAM_MIN_GAP_SECONDS: z.coerce
    .number()
    .min(0)
    .max(60)
    .default(LOCAL_PACING.minGapSeconds),
  SHELFWATCH_UPSTREAM_BUDGET_FILE: z
    .string()
    .refine((value) => value.startsWith('/'), 'must be an absolute path')
    .optional(),
  SUPPORT_EMAIL: z.string().email().default('support@shelfwatch.app'),
  SUPPORT_END_DATE: z.string().min(1).default('September 8th, 2025'),
  MAKER_NAME: z.string().min(1).default('Lantern Apps'),
  MAKER_URL: urlSchema.default('https://lanternapps.dev'),
});

/** The app's run-time configuration. */
export type DesktopConfig = {
  upstreamBaseUrl: string;
  upstreamShape: 'fulfillment-messages' | 'pickup-message';
  /** The Shelfwatch website and API the app links to (and, after login, talks to). */
  siteUrl: string;
  upstreamRatePerMinute: number;
  upstreamBurst: number;
  /** Least seconds between two requests to Apple, from any local watcher of the Mac. */
  upstreamMinGapSeconds: number;
  /** The request budget the Mac's local watchers share; null: the one in the app's folder. */
  budgetFilePath: string | null;
  /**
   * The login provider: a domain as the website's config gives it ("tenant.auth0.com" or
   * "http://localhost:4000"); null means "ask the website's /app-config.json", so the app
   * and the site always sign in at the same place.
   */
  authDomain: string | null;
  authAudience: string | null;
  /** The app's own (native) client at the provider. */
  authClientId: string;
  /** Loopback ports the login may come back to, in order; empty: a random free port. */
  authLoopbackPorts: number[];
  /** Update feed (electron-updater generic provider); null turns updates off. */
  updateUrl: string | null;
  /** What the shared renderer reads from /app-config.json. */
  appConfig: AppConfig;
};

/** Reads and checks the environment; a bad value throws an error naming the variable. */
export function readDesktopConfig(environment: Record<string, string | undefined>): DesktopConfig {
  const present = Object.fromEntries(
    Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid ${String(issue?.path[0] ?? 'setting')}: ${issue?.message ?? ''}`);
  }
  const env = parsed.data;
  return {
    upstreamBaseUrl: env.SHELFWATCH_UPSTREAM_URL,
    upstreamShape: env.SHELFWATCH_UPSTREAM_SHAPE,
    siteUrl: env.SHELFWATCH_SITE_URL,
    upstreamRatePerMinute: env.SHELFWATCH_UPSTREAM_RATE_PER_MINUTE,
    upstreamBurst: env.SHELFWATCH_UPSTREAM_BURST,
    upstreamMinGapSeconds: env.SHELFWATCH_UPSTREAM_MIN_GAP_SECONDS,
    budgetFilePath: env.SHELFWATCH_UPSTREAM_BUDGET_FILE ?? null,
    authDomain: env.SHELFWATCH_AUTH_DOMAIN ?? null,
    authAudience: env.SHELFWATCH_AUTH_AUDIENCE ?? null,
    authClientId: env.SHELFWATCH_AUTH_CLIENT_ID,
    authLoopbackPorts: env.SHELFWATCH_AUTH_LOOPBACK_PORTS ?? DEFAULT_LOOPBACK_PORTS,
    updateUrl: env.SHELFWATCH_UPDATE_URL ?? null,
    appConfig: {
      // The renderer's login library is not used in the app (it signs in through the main
      // process), but the config shape is shared with the website.
      auth: { domain: env.SHELFWATCH_SITE_URL, clientId: 'shelfwatch-desktop', audience: '' },
      apiBaseUrl: env.SHELFWATCH_SITE_URL,
      supportEmail: env.SUPPORT_EMAIL,
      supportEndDate: env.SUPPORT_END_DATE,
      maker: { name: env.MAKER_NAME, url: env.MAKER_URL },
      isBillingConfigured: false,
      macDownloadUrl: null,
      cookiePrefix: 'shelfwatch_',
    },
  };
}

/**
 * The environment a run reads its settings from. A packed (release) app reads none: a
 * SHELFWATCH_UPSTREAM_URL or SHELFWATCH_SITE_URL left in a developer's shell or set with
 * `launchctl setenv` would otherwise point a user's app at a simulator or a test site, and
 * SHELFWATCH_UPSTREAM_BURST or SHELFWATCH_UPSTREAM_MIN_GAP_SECONDS could lift the Mac's
 * pacing at Apple. Its update feed is the one electron-builder packed into it
 * (Resources/app-update.yml).
 */
export function selectConfigEnvironment(
  environment: Record<string, string | undefined>,
  isPackaged: boolean,
): Record<string, string | undefined> {
  return isPackaged ? {} : environment;
}

/** The OpenID issuer of a login domain: the embedded provider's full URL, or https for Auth0. */
export function toIssuerUrl(domain: string): string {
  const base = /^https?:\/\//.test(domain) ? domain : `https://${domain}`;
  return base.endsWith('/') ? base : `${base}/`;
}
