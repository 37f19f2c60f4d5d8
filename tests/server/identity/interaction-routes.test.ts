import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOGIN_LIMITS } from '#server/config/rate-limits.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { startTestIdentityProvider, type TestIdentityProvider } from '#tests/helpers/tokens.ts';
import { beginAuthorization, postLogin, type PendingAuthorization } from './oidc-flow.ts';

const SITE = 'http://localhost:3000';

describe('the sign-in form against abuse', () => {
  let testDb: TestDatabase;
  let idp: TestIdentityProvider;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    idp = await startTestIdentityProvider(testDb.db, { siteOrigins: [SITE] });
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

  const postRaw = async (
    pending: PendingAuthorization,
    contentType: string,
    body: string,
  ): Promise<Response> =>
    fetch(`${pending.loginUrl}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': contentType, cookie: pending.jar.header() },
      body,
    });

  it.each([
    ['a body that is not JSON', 'application/json', '{"email": "a@example.com",', 400],
    ['a media type it does not read', 'application/xml', '<email>a@example.com</email>', 415],
    ['a body over 16 KiB', 'application/x-www-form-urlencoded', `email=${'a'.repeat(20_000)}`, 413],
  ])('answers %s with its 4xx page, not a server error', async (_case, type, body, status) => {
    const pending = await begin();
    const response = await postRaw(pending, type, body);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).toContain('This sign-in form');
    expect(html).not.toContain('Something went wrong');
    expect(html).not.toMatch(/at .+\.(ts|js):\d+/);
  });

  it('sends no HSTS header from an http issuer', async () => {
    const pending = await begin();
    const page = await fetch(pending.loginUrl, { headers: { cookie: pending.jar.header() } });
    expect(page.status).toBe(200);
    expect(page.headers.get('strict-transport-security')).toBeNull();
  });

  // Last: it spends this address's sign-in budget for the minute.
  it('answers 429 to password spraying: many emails from one address', async () => {
    const pending = await begin();
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= DEFAULT_LOGIN_LIMITS.perAddressPerMinute; attempt += 1) {
      const response = await postLogin(pending, `victim${attempt}@example.com`, 'Summer2025!');
      statuses.push(response.status);
      await response.text();
    }
    expect(statuses.slice(0, -1).every((status) => status === 422)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const next = await postLogin(pending, 'someone-new@example.com', 'Summer2025!');
    expect(next.status).toBe(429);
    expect(next.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await next.text()).toContain('Too many sign-in attempts');
  });
});
