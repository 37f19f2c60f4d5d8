import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  changeIdpPassword,
  createIdpAccount,
  findIdpAccount,
  IdpAccountError,
  verifyIdpCredentials,
} from '#server/identity/index.ts';
import { hashPassword, isPasswordMatch } from '#server/identity/idp-accounts.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

describe('embedded provider accounts', () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => testDb?.drop());

  it('accepts the right password and rejects a wrong one', async () => {
    const account = await createIdpAccount(testDb.db, {
      email: 'right@example.com',
      password: 'right password',
    });
    await expect(
      verifyIdpCredentials(testDb.db, 'right@example.com', 'right password'),
    ).resolves.toEqual(account);
    await expect(
      verifyIdpCredentials(testDb.db, 'right@example.com', 'wrong password'),
    ).resolves.toBeUndefined();
    await expect(
      verifyIdpCredentials(testDb.db, 'nobody@example.com', 'right password'),
    ).resolves.toBeUndefined();
  });

  it('treats email case-insensitively and stores it lower-cased', async () => {
    const account = await createIdpAccount(testDb.db, {
      email: '  Mixed.Case@Example.COM ',
      password: 'password 1',
    });
    expect(account.email).toBe('mixed.case@example.com');
    await expect(
      verifyIdpCredentials(testDb.db, 'MIXED.case@example.com', 'password 1'),
    ).resolves.toMatchObject({
      id: account.id,
    });
    await expect(findIdpAccount(testDb.db, { email: 'mixed.CASE@example.com' })).resolves.toEqual(
      account,
    );
    await expect(
      createIdpAccount(testDb.db, { email: 'mixed.case@EXAMPLE.com', password: 'password 2' }),
    ).rejects.toMatchObject({ reason: 'email-taken' });
  });

  it('refuses passwords shorter than 8 characters and malformed emails', async () => {
    const short = createIdpAccount(testDb.db, { email: 'short@example.com', password: 'seven77' });
    await expect(short).rejects.toBeInstanceOf(IdpAccountError);
    await expect(short).rejects.toMatchObject({ reason: 'password-too-short' });
    await expect(
      createIdpAccount(testDb.db, { email: 'not-an-email', password: 'long enough' }),
    ).rejects.toMatchObject({
      reason: 'invalid-email',
    });
    await expect(
      createIdpAccount(testDb.db, { email: 'eight@example.com', password: '8 chars!' }),
    ).resolves.toMatchObject({
      email: 'eight@example.com',
    });
  });

  it('stores a salted scrypt hash, never the password', async () => {
    const account = await createIdpAccount(testDb.db, {
      email: 'hash@example.com',
      password: 'hunter22hunter',
    });
    const row = await testDb.db
      .selectFrom('idp_accounts')
      .select('password_hash')
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
    expect(row.password_hash).not.toContain('hunter22hunter');
    const [first, second] = await Promise.all([
      hashPassword('same input'),
      hashPassword('same input'),
    ]);
    expect(first).not.toBe(second);
    await expect(isPasswordMatch('same input', first)).resolves.toBe(true);
    await expect(isPasswordMatch('same input', 'not a hash')).resolves.toBe(false);
  });

  it('changes a password so only the new one works', async () => {
    const account = await createIdpAccount(testDb.db, {
      email: 'change@example.com',
      password: 'old password',
    });
    await expect(changeIdpPassword(testDb.db, account.id, 'new password')).resolves.toBe(true);
    await expect(
      verifyIdpCredentials(testDb.db, 'change@example.com', 'old password'),
    ).resolves.toBeUndefined();
    await expect(
      verifyIdpCredentials(testDb.db, 'change@example.com', 'new password'),
    ).resolves.toBeDefined();
  });

  it('finds nobody for a subject that is not an account id', async () => {
    await expect(findIdpAccount(testDb.db, { id: 'not-a-uuid' })).resolves.toBeUndefined();
    await expect(
      findIdpAccount(testDb.db, { id: '00000000-0000-4000-8000-000000000000' }),
    ).resolves.toBeUndefined();
  });
});
