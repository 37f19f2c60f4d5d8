import * as oidc from 'openid-client';

/** Where the app signs in: the issuer, its own client id and the API audience. */
export type LoginSettings = {
  /** e.g. "http://localhost:4000/" (embedded) or "https://tenant.auth0.com/". */
  issuer: string;
  clientId: string;
  audience: string;
};

/** True for an http issuer on this machine, the only place plain http is allowed. */
function isLocalHttp(url: URL): boolean {
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/** Discovers the provider with openid-client (a public client: PKCE, no secret). */
export async function discoverProvider(settings: LoginSettings): Promise<oidc.Configuration> {
  const issuer = new URL(settings.issuer);
  return await oidc.discovery(issuer, settings.clientId, undefined, oidc.None(), {
    execute: isLocalHttp(issuer) ? [oidc.allowInsecureRequests] : [],
  });
}
