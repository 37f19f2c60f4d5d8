import { afterAll, describe, expect, it } from 'vitest';
import { createTokenVerifier } from '#server/http/auth/index.ts';
import { COOKIE_KEYS_SECRET, SIGNING_KEYS_SECRET } from '#server/identity/secrets.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { startTestIdentityProvider } from '#tests/helpers/tokens.ts';

async function fetchKeyIds(issuer: string): Promise<string[]> {
  const response = await fetch(new URL('.well-known/jwks.json', issuer));
  const jwks = (await response.json()) as { keys: { kid: string }[] };
  return jwks.keys.map((key) => key.kid);
}

describe('the provider keys kept in the database', () => {
  let testDb: TestDatabase | undefined;
  afterAll(async () => testDb?.drop());

  it('signs with the same key (same kid) after a restart, so earlier tokens stay valid', async () => {
    testDb = await createTestDatabase();
    const first = await startTestIdentityProvider(testDb.db);
    const firstKids = await fetchKeyIds(first.issuer);
    const token = await first.issueAccessToken({ subject: 'user-1', email: 'one@example.com' });
    await first.close();

    const second = await startTestIdentityProvider(testDb.db);
    try {
      expect(await fetchKeyIds(second.issuer)).toEqual(firstKids);
      // Same key, new port: re-sign for the new issuer and check the new JWKS accepts it.
      const verify = createTokenVerifier({
        issuer: second.issuer,
        audience: second.audience,
        allowedClientIds: second.allowedClientIds,
      });
      const again = await second.issueAccessToken({ subject: 'user-1' });
      await expect(verify(again)).resolves.toMatchObject({ subject: 'user-1' });
      expect(token.split('.')[0]).toBe(again.split('.')[0]);
    } finally {
      await second.close();
    }

    const secrets = await testDb.db.selectFrom('app_secrets').select('name').execute();
    expect(secrets.map((row) => row.name).sort()).toEqual(
      [COOKIE_KEYS_SECRET, SIGNING_KEYS_SECRET].sort(),
    );
  });
});
