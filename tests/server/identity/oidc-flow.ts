import { createHash, randomBytes } from 'node:crypto';

/** Cookies by name, as a browser on one site would send them (paths ignored: harmless here). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** Remembers the Set-Cookie headers of a response (expired ones are forgotten). */
  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(header) || value === '') {
        this.cookies.delete(name);
      } else {
        this.cookies.set(name, value);
      }
    }
  }

  /** The Cookie header value. */
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** What the site would send to /authorize, as auth0-spa-js does. */
export type AuthorizeRequest = {
  issuer: string;
  clientId: string;
  redirectUri: string;
  audience: string;
  scope?: string;
};

/** A started authorization: the login page's URL and what the code exchange needs later. */
export type PendingAuthorization = {
  jar: CookieJar;
  loginUrl: string;
  uid: string;
  codeVerifier: string;
  state: string;
};

/** Sends the browser to /authorize; resolves at the redirect to the login page. */
export async function beginAuthorization(request: AuthorizeRequest): Promise<PendingAuthorization> {
  const jar = new CookieJar();
  const codeVerifier = randomBytes(32).toString('base64url');
  const state = randomBytes(8).toString('hex');
  const url = new URL('authorize', request.issuer);
  url.search = new URLSearchParams({
    client_id: request.clientId,
    response_type: 'code',
    response_mode: 'query',
    redirect_uri: request.redirectUri,
    audience: request.audience,
    scope: request.scope ?? 'openid profile email offline_access',
    state,
    nonce: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const response = await fetch(url, { redirect: 'manual' });
  jar.store(response);
  const location = response.headers.get('location');
  if (location === null) {
    throw new Error(
      `/authorize answered ${response.status} without a redirect: ${await response.text()}`,
    );
  }
  const loginUrl = new URL(location, request.issuer).toString();
  const uid = loginUrl.split('/interaction/')[1] ?? '';
  return { jar, loginUrl, uid, codeVerifier, state };
}

/** Posts the login form like a browser would. */
export async function postLogin(
  pending: PendingAuthorization,
  email: string,
  password: string,
  options: { isWithCookies?: boolean } = {},
): Promise<Response> {
  const response = await fetch(`${pending.loginUrl}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(options.isWithCookies === false ? {} : { cookie: pending.jar.header() }),
    },
    body: new URLSearchParams({ email, password }).toString(),
  });
  pending.jar.store(response);
  return response;
}

/** Follows the redirects after a successful login until the site's callback; returns the code. */
export async function followToCallback(
  pending: PendingAuthorization,
  start: Response,
  redirectUri: string,
): Promise<string> {
  let response = start;
  for (let hop = 0; hop < 10; hop += 1) {
    const location = response.headers.get('location');
    if (location === null) {
      throw new Error(`Redirect chain ended at ${response.status}: ${await response.text()}`);
    }
    const target = new URL(location, response.url === '' ? pending.loginUrl : response.url);
    if (target.toString().startsWith(redirectUri)) {
      if (target.searchParams.get('state') !== pending.state) {
        throw new Error(`State mismatch at ${target.toString()}`);
      }
      const code = target.searchParams.get('code');
      if (code === null) {
        throw new Error(`No code at ${target.toString()}`);
      }
      return code;
    }
    response = await fetch(target, {
      redirect: 'manual',
      headers: { cookie: pending.jar.header() },
    });
    pending.jar.store(response);
  }
  throw new Error('Too many redirects');
}

/** Token endpoint answer, untyped beyond what tests read. */
export type TokenResponse = { status: number; body: Record<string, unknown> };

/** Calls /oauth/token as the public client (form-encoded, as the SDK does). */
export async function requestTokens(
  issuer: string,
  origin: string,
  params: Record<string, string>,
): Promise<TokenResponse> {
  const response = await fetch(new URL('oauth/token', issuer), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: new URLSearchParams(params).toString(),
  });
  const body: unknown = await response.json();
  return {
    status: response.status,
    body: typeof body === 'object' && body !== null ? { ...body } : {},
  };
}
