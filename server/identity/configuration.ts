import type {
  Account,
  ClientMetadata,
  Configuration,
  Grant,
  KoaContextWithOIDC,
} from 'oidc-provider';
import type { Db } from '#server/db/database.ts';
import { findIdpAccount } from './idp-accounts.ts';
import type { OidcProviderModule } from './load-oidc-provider.ts';
import { renderLogoutPage, renderMessagePage } from './pages.ts';
import { createPayloadAdapterFactory } from './payload-adapter.ts';
import type { PrivateRsaJwk } from './secrets.ts';

/** Everything the provider's configuration depends on. */
export type ProviderSettings = {
  db: Db;
  clientId: string;
  apiAudience: string;
  siteOrigins: string[];
  extraRedirectUris: string[];
  signingKeys: PrivateRsaJwk[];
  cookieKeys: string[];
  errors: OidcProviderModule['errors'];
};

// What the first-party client is granted without a consent screen (as Auth0 does for it).
const OIDC_SCOPES = ['openid', 'profile', 'email', 'offline_access'];
const HOUR = 60 * 60;
const DAY = 24 * HOUR;
// Auth0's defaults for rotating refresh tokens: 30 days absolute lifetime.
const REFRESH_TOKEN_LIFETIME = 30 * DAY;

/** Client id of the macOS app at the embedded provider (a native public client, RFC 8252). */
export const DESKTOP_CLIENT_ID = 'shelfwatch-desktop';
/**
 * Where the app's loopback listener takes the code. oidc-provider accepts any port on a
 * loopback redirect of a native client (RFC 8252 section 7.3), so the app picks a free one.
 */
export const DESKTOP_REDIRECT_URI = 'http://127.0.0.1/callback';

/** The macOS app's registration: native, public, PKCE, refresh tokens like the website's. */
export function buildDesktopClientMetadata(): ClientMetadata {
  return {
    client_id: DESKTOP_CLIENT_ID,
    client_name: 'Shelfwatch for macOS',
    application_type: 'native',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: [DESKTOP_REDIRECT_URI],
  };
}

/** The static client registration of the website (and the desktop app's extra redirects). */
export function buildClientMetadata(settings: ProviderSettings): ClientMetadata {
  const origins = settings.siteOrigins.map((origin) => origin.replace(/\/$/, ''));
  return {
    client_id: settings.clientId,
    client_name: 'Shelfwatch',
    application_type: 'web',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    // Matching is exact, and the SDK is configured with either form of the site's root.
    redirect_uris: [
      ...origins.flatMap((origin) => [`${origin}/callback`, origin, `${origin}/`]),
      ...settings.extraRedirectUris,
    ],
    post_logout_redirect_uris: origins.flatMap((origin) => [origin, `${origin}/`]),
  };
}

/** oidc-provider's configuration: Auth0's routes and behaviour, PostgreSQL storage. */
export function buildProviderConfiguration(settings: ProviderSettings): Configuration {
  const { db, apiAudience, errors } = settings;
  const corsOrigins = new Set(
    [...settings.siteOrigins, ...settings.extraRedirectUris].map(
      (uri) => URL.parse(uri)?.origin ?? 'null',
    ),
  );
  corsOrigins.delete('null');
  const siteHome = settings.siteOrigins[0];
  return {
    adapter: createPayloadAdapterFactory(db),
    clients: [buildClientMetadata(settings), buildDesktopClientMetadata()],
    jwks: { keys: settings.signingKeys },
    cookies: { keys: settings.cookieKeys },
    routes: {
      authorization: '/authorize',
      token: '/oauth/token',
      revocation: '/oauth/revoke',
      end_session: '/v2/logout',
      userinfo: '/userinfo',
      jwks: '/.well-known/jwks.json',
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'nickname'] },
    // Auth0 puts profile and email claims in the ID token, where the SDK's getUser() reads them.
    conformIdTokenClaims: false,
    extraParams: ['audience'],
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx: KoaContextWithOIDC, form: string) => {
          ctx.type = 'html';
          ctx.body = renderLogoutPage(form);
        },
        postLogoutSuccessSource: (ctx: KoaContextWithOIDC) => {
          ctx.type = 'html';
          ctx.body = renderMessagePage({
            title: 'You are signed out',
            message: 'You have signed out of Shelfwatch.',
            link:
              siteHome === undefined ? undefined : { href: siteHome, text: 'Back to Shelfwatch' },
          });
        },
      },
      resourceIndicators: {
        enabled: true,
        // Auth0 names the API with `audience`; the SDK never sends `resource`.
        defaultResource: (ctx: KoaContextWithOIDC, _client, oneOf?: readonly string[]) => {
          if (oneOf === undefined) {
            return readAudienceParam(ctx) ?? apiAudience;
          }
          return oneOf.includes(apiAudience) ? apiAudience : oneOf;
        },
        // Without this a token request with `openid` yields an opaque userinfo-only token.
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: KoaContextWithOIDC, resource: string) => {
          if (resource !== apiAudience) {
            throw new errors.InvalidTarget(`unknown audience ${resource}`);
          }
          return {
            scope: OIDC_SCOPES.join(' '),
            audience: apiAudience,
            accessTokenTTL: HOUR,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    clientBasedCORS: (_ctx, origin, client) =>
      client.clientId === settings.clientId && corsOrigins.has(origin),
    // The SDK asks for offline_access, but oidc-provider keeps it only with prompt=consent,
    // which the SDK never sends: issue refresh tokens to every client allowed the grant.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: () => false,
    rotateRefreshToken: true,
    loadExistingGrant: (ctx) => loadFirstPartyGrant(ctx, apiAudience),
    findAccount: (_ctx, subject) => findProviderAccount(db, subject),
    extraTokenClaims: async (_ctx, token) => {
      // The API learns the email from its access token, as from an Auth0 Action adding it.
      const accountId = 'accountId' in token ? token.accountId : undefined;
      const account =
        accountId === undefined ? undefined : await findIdpAccount(db, { id: accountId });
      return account === undefined ? undefined : { email: account.email };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = renderMessagePage({
        title: 'Something went wrong',
        message: out.error_description ?? out.error,
        link: siteHome === undefined ? undefined : { href: siteHome, text: 'Back to Shelfwatch' },
      });
    },
    ttl: {
      AccessToken: HOUR,
      AuthorizationCode: 60,
      IdToken: HOUR,
      Interaction: HOUR,
      Session: REFRESH_TOKEN_LIFETIME,
      Grant: REFRESH_TOKEN_LIFETIME,
      // A rotated token inherits what is left of its predecessor: the lifetime is absolute.
      RefreshToken: (ctx) =>
        ctx.oidc.entities.RotatedRefreshToken?.remainingTTL ?? REFRESH_TOKEN_LIFETIME,
    },
  };
}

function readAudienceParam(ctx: KoaContextWithOIDC): string | undefined {
  const params: Record<string, unknown> = ctx.oidc.params ?? {};
  const audience = params.audience;
  return typeof audience === 'string' && audience !== '' ? audience : undefined;
}

/** Grants the first-party client its scopes without asking, as Auth0 does for it. */
async function loadFirstPartyGrant(
  ctx: KoaContextWithOIDC,
  apiAudience: string,
): Promise<Grant | undefined> {
  const { client, account, session } = ctx.oidc;
  if (client === undefined || account === undefined || session === undefined) {
    return undefined;
  }
  const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
  const existing = grantId === undefined ? undefined : await ctx.oidc.provider.Grant.find(grantId);
  const grant =
    existing !== undefined && existing.accountId === account.accountId
      ? existing
      : new ctx.oidc.provider.Grant({ accountId: account.accountId, clientId: client.clientId });
  grant.addOIDCScope(OIDC_SCOPES);
  grant.addResourceScope(apiAudience, OIDC_SCOPES);
  await grant.save();
  return grant;
}

async function findProviderAccount(db: Db, subject: string): Promise<Account | undefined> {
  const account = await findIdpAccount(db, { id: subject });
  if (account === undefined) {
    return undefined;
  }
  return {
    accountId: account.id,
    // Auth0 database users get their email as name and its local part as nickname.
    claims: () => ({
      sub: account.id,
      email: account.email,
      email_verified: account.isEmailVerified,
      name: account.email,
      nickname: account.email.split('@')[0],
    }),
  };
}

/** Text for logs; oidc-provider errors carry a description worth keeping. */
export function describeProviderError(error: unknown): string {
  if (error instanceof Error) {
    const description = 'error_description' in error ? String(error.error_description) : '';
    return `${error.name}: ${error.message}${description === '' ? '' : ` (${description})`}`;
  }
  return String(error);
}
