import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import {
  DEMO_EMAIL,
  ensureDemoAccount,
  generateDemoPassword,
} from '#server/searches/demo-account.ts';
import { verifyIdpCredentials } from '#server/identity/index.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

const ISSUER = 'http://127.0.0.1:1/';

describe('ensureDemoAccount', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedCatalog(database.db);
  });

  afterAll(async () => {
    await database.drop();
  });

  it('creates the account once with a generated password that signs in', async () => {
    const first = await ensureDemoAccount(database.db, { issuer: ISSUER, password: undefined });
    expect(first.isCreated).toBe(true);
    expect(first.password).toBeDefined();
    const again = await ensureDemoAccount(database.db, { issuer: ISSUER, password: undefined });
    expect(again).toEqual({ isCreated: false, email: DEMO_EMAIL, password: undefined });
    expect(await verifyIdpCredentials(database.db, DEMO_EMAIL, first.password ?? '')).toBeDefined();
  });

  it('never generates a demo password with a leading dash (letters and digits only)', () => {
    // 2,000 draws: with base64url, about 30 of them would have started with "-" or "_".
    const passwords = Array.from({ length: 2000 }, () => generateDemoPassword());
    for (const password of passwords) expect(password).toMatch(/^[A-Za-z2-9]{14}$/);
    expect(new Set(passwords).size).toBe(passwords.length);
  });

  it('applies a configured password to an existing account so the printed login works', async () => {
    const result = await ensureDemoAccount(database.db, {
      issuer: ISSUER,
      password: 'configured-demo-password',
    });
    expect(result).toEqual({
      isCreated: false,
      email: DEMO_EMAIL,
      password: 'configured-demo-password',
    });
    expect(
      await verifyIdpCredentials(database.db, DEMO_EMAIL, 'configured-demo-password'),
    ).toBeDefined();
  });
});
