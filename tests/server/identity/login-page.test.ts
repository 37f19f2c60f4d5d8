import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdpAccount } from '#server/identity/index.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { startTestIdentityProvider, type TestIdentityProvider } from '#tests/helpers/tokens.ts';
import { beginAuthorization, postLogin, type PendingAuthorization } from './oidc-flow.ts';

const SITE = 'http://localhost:3000';

describe('the Shelfwatch sign-in page', () => {
  let testDb: TestDatabase;
  let idp: TestIdentityProvider;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    idp = await startTestIdentityProvider(testDb.db, { siteOrigins: [SITE] });
    await createIdpAccount(testDb.db, { email: 'page@example.com', password: 'a good password' });
  });
  afterAll(async () => {
    await idp?.close();
    await testDb?.drop();
  });

  const begin = (): Promise<PendingAuthorization> =>
    beginAuthorization({
      issuer: idp.issuer,
      clientId: idp.clientId,
      redirectUri: `${SITE}/callback`,
      audience: idp.audience,
    });

  it('is where /authorize sends a signed-out browser, with labelled email and password fields', async () => {
    const pending = await begin();
    expect(pending.loginUrl).toBe(`${idp.issuer}interaction/${pending.uid}`);
    const response = await fetch(pending.loginUrl, { headers: { cookie: pending.jar.header() } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('content-security-policy')).toContain(`form-action 'self' ${SITE}`);
    const html = await response.text();
    expect(html).toContain('Shelfwatch');
    expect(html).toContain('<label for="email">Email address</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain(`action="/interaction/${pending.uid}/login"`);
    expect(html).not.toContain('Wrong email or password.');
  });

  it("links the site's icon, which the provider serves with 200 where browsers look for it", async () => {
    const pending = await begin();
    const page = await fetch(pending.loginUrl, { headers: { cookie: pending.jar.header() } });
    const html = await page.text();
    const link = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)">/.exec(html);
    expect(link?.[1]).toBe('/favicon.svg');
    const siteIcon = await readFile(new URL('../../../assets/brand-icon.svg', import.meta.url));
    for (const path of ['/favicon.svg', '/favicon.ico']) {
      const icon = await fetch(new URL(path, idp.issuer));
      expect(icon.status, path).toBe(200);
      expect(icon.headers.get('content-type')).toBe('image/svg+xml');
      expect(Buffer.from(await icon.arrayBuffer()).equals(siteIcon)).toBe(true);
    }
    // The page's policy lets the browser load it.
    expect(page.headers.get('content-security-policy')).toContain("img-src 'self'");
  });

  it('says "Wrong email or password." and keeps the typed email, escaped, after a wrong password', async () => {
    const pending = await begin();
    const typed = 'page@example.com"><script>alert(1)</script>';
    const response = await postLogin(pending, typed, 'not the password');
    expect(response.status).toBe(422);
    const html = await response.text();
    expect(html).toContain('Wrong email or password.');
    expect(html).toContain(
      'value="page@example.com&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"',
    );
    expect(html).not.toContain('<script>alert(1)</script>');

    const wrongPassword = await postLogin(pending, 'page@example.com', 'not the password');
    expect(await wrongPassword.text()).toContain('Wrong email or password.');
  });

  it('signs in with the right password and redirects back into the authorization', async () => {
    const pending = await begin();
    const response = await postLogin(pending, 'PAGE@example.com', 'a good password');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`${idp.issuer}authorize/${pending.uid}`);
  });

  it('refuses a form post that lacks the interaction cookie (cross-site forgery)', async () => {
    const pending = await begin();
    const response = await postLogin(pending, 'page@example.com', 'a good password', {
      isWithCookies: false,
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('This sign-in has expired');
  });

  it('refuses a uid in the path that is not the one its cookie names', async () => {
    const first = await begin();
    const second = await begin();
    const response = await fetch(first.loginUrl, { headers: { cookie: second.jar.header() } });
    expect(response.status).toBe(400);
  });

  it('answers 429 with a readable page after 10 attempts a minute for one email, other emails unaffected', async () => {
    const pending = await begin();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) {
      const response = await postLogin(pending, 'Target@example.com', `guess ${attempt}`);
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(response.headers.get('content-type')).toContain('text/html');
        expect(await response.text()).toContain('Too many sign-in attempts');
      } else {
        await response.text();
      }
    }
    expect(statuses.slice(0, 10).every((status) => status === 422)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect((await postLogin(pending, 'target@EXAMPLE.com', 'one more')).status).toBe(429);
    expect((await postLogin(pending, 'someone-else@example.com', 'a guess')).status).toBe(422);
  });
});
