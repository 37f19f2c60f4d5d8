import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { Auth0Client } from '@auth0/auth0-spa-js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier } from '#server/plugins/auth/index.ts';
import { createIdpAccount, type IdpAccount } from '#server/plugins/idp/index.ts';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { startTestIdentityProvider, type TestIdentityProvider } from '#tests/helpers/tokens.ts';

/** What the test page puts on `window` for the test to drive. */
type TestWindow = Window & { auth0Client: Auth0Client; isAuth0Ready?: boolean };

const EMAIL = 'shopper@example.com';
const PASSWORD = 'a long enough password';

/**
 * A minimal site: every path serves a page that loads the unmodified auth0-spa-js bundle and
 * creates a client exactly as the website does, pointed at the embedded provider.
 */
async function startTestSite(port: number, idp: TestIdentityProvider): Promise<Server> {
  const require = createRequire(import.meta.url);
  const bundlePath = require.resolve('@auth0/auth0-spa-js/dist/auth0-spa-js.production.esm.js');
  const bundle = await readFile(bundlePath);
  const origin = `http://localhost:${port}`;
  const clientOptions = {
    // The SDK turns domain into `${domain}/` for the issuer check: no trailing slash here.
    domain: idp.issuer.replace(/\/$/, ''),
    clientId: idp.clientId,
    authorizationParams: { redirect_uri: `${origin}/callback`, audience: idp.audience },
    useRefreshTokens: true,
    cacheLocation: 'localstorage',
  };
  const page = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Test site</title></head>
<body><h1>Test site</h1>
<script type="module">
import { createAuth0Client } from '/auth0-spa-js.js';
window.auth0Client = await createAuth0Client(${JSON.stringify(clientOptions).replaceAll('<', '\\u003c')});
window.isAuth0Ready = true;
</script>
</body></html>`;
  const server = createServer((request, response) => {
    const isBundle = request.url === '/auth0-spa-js.js';
    response.setHeader('content-type', isBundle ? 'text/javascript' : 'text/html; charset=utf-8');
    response.end(isBundle ? bundle : page);
  });
  await new Promise<void>((resolve) => server.listen(port, 'localhost', resolve));
  return server;
}

/** The SDK types tokens as possibly undefined; a missing one fails the test here. */
function requireToken(token: string | undefined): string {
  if (token === undefined || token === '') {
    throw new Error('auth0-spa-js returned no access token');
  }
  return token;
}

async function waitForClient(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as TestWindow).isAuth0Ready === true);
}

describe('signing in to the website through the embedded provider with auth0-spa-js', () => {
  let testDb: TestDatabase;
  let idp: TestIdentityProvider;
  let site: Server;
  let siteOrigin: string;
  let browser: Browser;
  let account: IdpAccount;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    account = await createIdpAccount(testDb.db, { email: EMAIL, password: PASSWORD });
    const sitePort = await getFreePort();
    siteOrigin = `http://localhost:${sitePort}`;
    idp = await startTestIdentityProvider(testDb.db, { siteOrigins: [siteOrigin] });
    site = await startTestSite(sitePort, idp);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (site === undefined ? resolve(undefined) : site.close(resolve)));
    await idp?.close();
    await testDb?.drop();
  });

  it('logs in, gets an API token the verifier accepts, renews it with the refresh token and logs out', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const tokenGrants: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url() === `${idp.issuer}oauth/token`) {
        tokenGrants.push(new URLSearchParams(request.postData() ?? '').get('grant_type') ?? '');
      }
    });

    await page.goto(`${siteOrigin}/`);
    await waitForClient(page);
    await page.evaluate(() => {
      void (window as unknown as TestWindow).auth0Client.loginWithRedirect();
    });
    await page.waitForURL((url) => url.href.startsWith(`${idp.issuer}interaction/`));
    await expect(page.locator('h1').textContent()).resolves.toBe('Shelfwatch');

    // A wrong password first: the message shows and the email stays typed.
    await page.getByLabel('Email address').fill(EMAIL);
    await page.getByLabel('Password').fill('not my password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Wrong email or password.');
    await expect(page.getByLabel('Email address').inputValue()).resolves.toBe(EMAIL);

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.origin === siteOrigin && url.pathname === '/callback');
    await waitForClient(page);
    const signedIn = await page.evaluate(async () => {
      const client = (window as unknown as TestWindow).auth0Client;
      await client.handleRedirectCallback();
      return { user: await client.getUser(), token: await client.getTokenSilently() };
    });
    expect(signedIn.user).toMatchObject({ sub: account.id, email: EMAIL });

    const verify = createTokenVerifier({ issuer: idp.issuer, audience: idp.audience });
    await expect(verify(requireToken(signedIn.token))).resolves.toEqual({
      issuer: idp.issuer,
      subject: account.id,
      email: EMAIL,
    });
    expect(tokenGrants).toEqual(['authorization_code']);

    const renewed = await page.evaluate(() =>
      (window as unknown as TestWindow).auth0Client.getTokenSilently({ cacheMode: 'off' }),
    );
    expect(renewed).not.toBe(signedIn.token);
    await expect(verify(requireToken(renewed))).resolves.toMatchObject({ subject: account.id });
    expect(tokenGrants).toEqual(['authorization_code', 'refresh_token']);

    await page.evaluate(() => {
      void (window as unknown as TestWindow).auth0Client.logout({
        logoutParams: { returnTo: `${location.origin}/` },
      });
    });
    await page.waitForURL(`${siteOrigin}/`);
    await waitForClient(page);
    await expect(
      page.evaluate(() => (window as unknown as TestWindow).auth0Client.isAuthenticated()),
    ).resolves.toBe(false);

    // The provider's session ended too: signing in again asks for the password.
    await page.evaluate(() => {
      void (window as unknown as TestWindow).auth0Client.loginWithRedirect();
    });
    await page.waitForURL((url) => url.href.startsWith(`${idp.issuer}interaction/`));
    await expect(page.getByLabel('Password').isVisible()).resolves.toBe(true);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 90_000);
});
