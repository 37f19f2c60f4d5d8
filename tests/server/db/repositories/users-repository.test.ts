import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findOrCreateUserByIdentity,
  findOrCreateUsersByIdentities,
  findUsersByIdentities,
} from '#server/db/repositories/users-repository.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

describe('users read by identity in one statement', () => {
  let testDb: TestDatabase;

  beforeAll(async () => {
    testDb = await createTestDatabase();
  }, 60_000);
  afterAll(async () => testDb.drop());

  it('answers in the order asked, undefined for an identity never seen', async () => {
    const ada = await findOrCreateUserByIdentity(testDb.db, { issuer: 'a', subject: 'ada' });
    const bob = await findOrCreateUserByIdentity(testDb.db, { issuer: 'b', subject: 'bob' });
    const found = await findUsersByIdentities(testDb.db, [
      { issuer: 'b', subject: 'bob' },
      { issuer: 'a', subject: 'nobody' },
      // Same subject at another issuer is another person.
      { issuer: 'b', subject: 'ada' },
      { issuer: 'a', subject: 'ada' },
    ]);
    expect(found.map((row) => row?.id)).toEqual([bob.id, undefined, undefined, ada.id]);
    expect(await findUsersByIdentities(testDb.db, [])).toEqual([]);
  });

  it('creates only the identities seen for the first time, once each', async () => {
    const known = await findOrCreateUserByIdentity(testDb.db, { issuer: 'c', subject: 'known' });
    const rows = await findOrCreateUsersByIdentities(testDb.db, [
      { issuer: 'c', subject: 'known' },
      { issuer: 'c', subject: 'new', email: 'new@example.com' },
      { issuer: 'c', subject: 'known' },
    ]);
    const [first, second, again] = rows.map((row) => {
      if (row instanceof Error) throw row;
      return row;
    });
    expect(first.id).toBe(known.id);
    expect(again.id).toBe(known.id);
    expect(second.email).toBe('new@example.com');
    const [reread] = await findUsersByIdentities(testDb.db, [{ issuer: 'c', subject: 'new' }]);
    expect(reread?.id).toBe(second.id);
  });

  it('gives a failed first sign-in its own error and the others their rows', async () => {
    const known = await findOrCreateUserByIdentity(testDb.db, { issuer: 'd', subject: 'known' });
    const rows = await findOrCreateUsersByIdentities(testDb.db, [
      { issuer: 'd', subject: 'known' },
      // Longer than any index entry PostgreSQL can hold: the insert fails.
      { issuer: 'd', subject: 'x'.repeat(10_000_000) },
    ]);
    expect(rows[0]).toMatchObject({ id: known.id });
    expect(rows[1]).toBeInstanceOf(Error);
    expect((rows[1] as Error).message).toMatch(/index row/);
  });
});
