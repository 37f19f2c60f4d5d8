import Fastify, { type FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import { DEFAULT_LOGIN_LIMITS, type LoginLimitSettings } from '#server/config/rate-limits.ts';
import { toFastifyTrustProxy, type TrustProxySetting } from '#server/config/trust-proxy.ts';
import type { Db } from '#server/db/database.ts';
import { buildProviderConfiguration, describeProviderError } from './configuration.ts';
import { registerFaviconRoutes } from './favicon.ts';
import { registerInteractionRoutes } from './interaction-routes.ts';
import type { PasswordRouteOptions } from './password-routes.ts';
import { loadOidcProvider, type IdpLogger } from './load-oidc-provider.ts';
import { purgeExpiredIdpPayloads } from './payload-adapter.ts';
import { loadOrCreateCookieKeys, loadOrCreateSigningKeys } from './secrets.ts';

export {
  changeIdpPassword,
  createIdpAccount,
  findIdpAccount,
  IdpAccountError,
  MIN_PASSWORD_LENGTH,
  verifyIdpCredentials,
  type IdpAccount,
} from './idp-accounts.ts';
export type { IdpLogger } from './load-oidc-provider.ts';

/** How to run the embedded identity provider. */
export type IdentityProviderOptions = {
  db: Db;
  /** The provider's public URL with a trailing slash, e.g. http://localhost:4000/ */
  issuer: string;
  port: number;
  /** Defaults to localhost, which listens on every loopback address "localhost" names. */
  host?: string;
  clientId: string;
  apiAudience: string;
  /** Site origins such as http://localhost:3000: their /callback, / and bare origin are redirect URIs. */
  siteOrigins: string[];
  extraRedirectUris?: string[];
  logger?: IdpLogger;
  /** Whose X-Forwarded-For names the client (TRUST_PROXY, as the API); default: nobody's. */
  trustProxy?: TrustProxySetting;
  /** Sign-in form limits; DEFAULT_LOGIN_LIMITS unless given. */
  loginLimits?: LoginLimitSettings;
  /** How "Forgot password?" mails its one-time links; without it the flow is not offered. */
  passwordReset?: PasswordRouteOptions['reset'];
};

/** A running provider. */
export type RunningIdentityProvider = { issuer: string; port: number; close(): Promise<void> };

const PURGE_INTERVAL_MS = 60 * 60 * 1000;
const defaultLogger: IdpLogger = {
  info: () => undefined,
  warn: (message) => console.warn(message),
};

/**
 * Starts an OpenID provider that the unmodified @auth0/auth0-spa-js accepts as an Auth0
 * tenant (see docs/architecture.md, "Authentication"): code + PKCE, rotating refresh tokens,
 * RS256 JWT access tokens for the API, logout back to the site; state and keys in PostgreSQL.
 */
export async function startIdentityProvider(
  options: IdentityProviderOptions,
): Promise<RunningIdentityProvider> {
  const issuerUrl = new URL(options.issuer);
  // The SDK compares the ID token's iss with `${domain}/`, and routes assume the origin root.
  if (!options.issuer.endsWith('/') || issuerUrl.pathname !== '/') {
    throw new Error(
      `The identity provider's issuer must be an origin with a trailing slash, not ${options.issuer}`,
    );
  }
  const logger = options.logger ?? defaultLogger;
  const { Provider: OidcProvider, errors } = await loadOidcProvider(logger);
  const [signingKeys, cookieKeys] = await Promise.all([
    loadOrCreateSigningKeys(options.db),
    loadOrCreateCookieKeys(options.db),
  ]);
  const extraRedirectUris = options.extraRedirectUris ?? [];
  const provider = new OidcProvider(
    options.issuer,
    buildProviderConfiguration({ ...options, extraRedirectUris, signingKeys, cookieKeys, errors }),
  );
  const isHttps = issuerUrl.protocol === 'https:';
  const trustProxy = options.trustProxy ?? false;
  // Koa's proxy flag is all or nothing and only decides X-Forwarded-Proto here (whether
  // cookies are Secure): an https issuer served by this plain-http listener is behind a TLS proxy.
  provider.proxy = isHttps || trustProxy !== false;
  provider.use(async (ctx, next) => {
    mapReturnToParameter(ctx);
    await next();
  });
  provider.on('server_error', (_ctx: unknown, error: unknown) => {
    logger.warn(`Identity provider error: ${describeProviderError(error)}`);
  });

  const app = Fastify({
    logger: false,
    // The sign-in form's limits are per client address: the same rule as the API's.
    trustProxy: toFastifyTrustProxy(trustProxy),
    forceCloseConnections: true,
  });
  await app.register(registerFaviconRoutes);
  await app.register(registerInteractionRoutes, {
    provider,
    db: options.db,
    logger,
    // The app's loopback listener has a port of its own choosing each time.
    redirectOrigins: [
      ...formActionSources([...options.siteOrigins, ...extraRedirectUris]),
      'http://127.0.0.1:*',
    ],
    siteHome: options.siteOrigins[0],
    isHttps,
    loginLimits: options.loginLimits ?? DEFAULT_LOGIN_LIMITS,
    issuer: options.issuer,
    passwordReset: options.passwordReset,
  });
  await app.register((scope: FastifyInstance) => passRequestsToProvider(scope, provider, logger));
  await app.listen({ port: options.port, host: options.host ?? 'localhost' });

  const purgeExpired = (): void => {
    purgeExpiredIdpPayloads(options.db).catch((error: unknown) => {
      logger.warn(`Could not purge expired identity provider state: ${String(error)}`);
    });
  };
  purgeExpired();
  const purgeTimer = setInterval(purgeExpired, PURGE_INTERVAL_MS);
  purgeTimer.unref();

  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  logger.info(`Identity provider listening at ${options.issuer} (port ${port})`);
  return {
    issuer: options.issuer,
    port,
    close: async () => {
      clearInterval(purgeTimer);
      await app.close();
    },
  };
}

/** Every route but the sign-in page goes to oidc-provider untouched, body stream included. */
function passRequestsToProvider(
  scope: FastifyInstance,
  provider: Provider,
  logger: IdpLogger,
): Promise<void> {
  const handle = provider.callback();
  // oidc-provider parses its own bodies: keep Fastify from consuming the stream.
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
  scope.all('/*', (request, reply) => {
    reply.hijack();
    handle(request.raw, reply.raw).catch((error: unknown) => {
      logger.warn(`Identity provider request failed: ${String(error)}`);
      if (!reply.raw.headersSent) {
        reply.raw.statusCode = 500;
      }
      reply.raw.end();
    });
  });
  return Promise.resolve();
}

/** Auth0's /v2/logout takes `returnTo`; OpenID logout takes `post_logout_redirect_uri`. */
function mapReturnToParameter(ctx: { path: string; querystring: string }): void {
  if (ctx.path !== '/v2/logout') {
    return;
  }
  const params = new URLSearchParams(ctx.querystring);
  const returnTo = params.get('returnTo');
  if (returnTo !== null && !params.has('post_logout_redirect_uri')) {
    params.delete('returnTo');
    // oidc-provider still refuses URIs that are not registered for the client.
    params.set('post_logout_redirect_uri', returnTo);
    ctx.querystring = params.toString();
  }
}

/** CSP sources for the origins of redirect URIs (custom schemes become scheme sources). */
function formActionSources(uris: string[]): string[] {
  const sources = uris.map((uri) => {
    const url = URL.parse(uri);
    if (url === null) {
      return undefined;
    }
    return url.origin === 'null' ? url.protocol : url.origin;
  });
  return [...new Set(sources.filter((source) => source !== undefined))];
}
