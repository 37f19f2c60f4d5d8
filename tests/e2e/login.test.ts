import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { Auth0Client } from '@auth0/auth0-spa-js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier } from '#server/http/auth/index.ts';
import { createIdpAccount, type IdpAccount } from '#server/identity/index.ts';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { startTestStack, type TestStack } from '#tests/helpers/stack.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { startTestIdentityProvider, type TestIdentityProvider } from '#tests/helpers/tokens.ts';
import { chooseOption, ensureWebsiteBuilt, signIn } from './website/site-helpers.ts';

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

    const verify = createTokenVerifier({
      issuer: idp.issuer,
      audience: idp.audience,
      allowedClientIds: idp.allowedClientIds,
    });
    const verified = await verify(requireToken(signedIn.token));
    expect(verified).toMatchObject({ issuer: idp.issuer, subject: account.id, email: EMAIL });
    expect(verified.expiresAt).toBeGreaterThan(Date.now());
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

describe('the website around its login', { timeout: 90_000 }, () => {
  const GOOD = {
    email: 'good@example.com',
    password: 'a good long password',
    plan: 'good' as const,
  };
  const BETTER = {
    email: 'better@example.com',
    password: 'a better long password',
    plan: 'better' as const,
  };
  let stack: TestStack;
  let browser: Browser;

  beforeAll(async () => {
    await ensureWebsiteBuilt();
    stack = await startTestStack();
    await stack.createUser(GOOD);
    await stack.createUser(BETTER);
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('sends /callback without login parameters home, in place, with no error page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${stack.baseUrl}/download`);
    await page.goto(`${stack.baseUrl}/callback`);
    await page.waitForURL(`${stack.baseUrl}/`);
    await page
      .getByRole('heading', { name: 'Stop waiting weeks for Apple products to ship.' })
      .waitFor();
    expect(await page.getByText('no query params', { exact: false }).count()).toBe(0);
    expect(await page.getByText('Login failed', { exact: false }).count()).toBe(0);
    // Replaced, not pushed: Back leaves for the page before, not to /callback.
    await page.goBack();
    await page.waitForURL(`${stack.baseUrl}/download`);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("shows the site's icon on the provider's sign-in page, which never answers 404", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const missing: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) missing.push(response.url());
    });
    await page.goto(`${stack.baseUrl}/`);
    const siteIconHref = await page.locator('link[rel="icon"]').getAttribute('href');
    const siteIcon = await page.request.get(new URL(siteIconHref ?? '', stack.baseUrl).href);
    expect(siteIcon.status()).toBe(200);

    await page.goto(`${stack.baseUrl}/force_login`);
    await page.waitForURL((url) => url.href.startsWith(`${stack.issuer}interaction/`));
    await page.getByLabel('Password').waitFor();
    const providerIconHref = await page.locator('link[rel="icon"]').getAttribute('href');
    const providerIcon = await page.request.get(new URL(providerIconHref ?? '', stack.issuer).href);
    expect(providerIcon.status()).toBe(200);
    expect(providerIcon.headers()['content-type']).toBe('image/svg+xml');
    expect(Buffer.compare(await providerIcon.body(), await siteIcon.body())).toBe(0);
    // Browsers also ask for /favicon.ico on their own, e.g. on the provider's error pages.
    expect((await page.request.get(`${stack.issuer}favicon.ico`)).status()).toBe(200);
    expect(missing).toEqual([]);
    await context.close();
  });

  it('keeps a Good-plan account out of web searches: the list error, and home from a search page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, stack.baseUrl, GOOD.email, GOOD.password);
    await page
      .getByText(
        'An error occurred when attempting to fetch this resource. Please confirm you have an active subscription.',
      )
      .waitFor();
    await page.goto(`${stack.baseUrl}/search/00000000-0000-4000-8000-000000000000`);
    await page.waitForURL(`${stack.baseUrl}/`);
    await context.close();
  });

  it('says "An unexpected error occurred" when creating a search gets no answer', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, stack.baseUrl, BETTER.email, BETTER.password);
    await page.getByText('Add a search!').waitFor();
    await page.route(`${stack.baseUrl}/v2/searches`, (route) =>
      route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue(),
    );
    await page.getByRole('button', { name: 'Create new search' }).first().click();
    await page.getByRole('dialog').waitFor();
    await chooseOption(page, 'Select a product', 'iPhone 18 Pro', /^iPhone 18 Pro$/);
    await chooseOption(
      page,
      'Select a store',
      'Union Square',
      /^Union Square \| San Francisco, CA$/,
    );
    await page.getByRole('button', { name: 'Create search' }).click();
    const alert = page.getByRole('dialog').getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('An unexpected error occurred');
    await context.close();
  });
});
