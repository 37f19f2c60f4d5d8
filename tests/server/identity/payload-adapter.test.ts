import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayloadAdapter, purgeExpiredIdpPayloads } from '#server/identity/payload-adapter.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

describe('the PostgreSQL store of oidc-provider state', () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => testDb?.drop());

  it('finds what it stored, by id, and keeps kinds apart', async () => {
    const tokens = createPayloadAdapter(testDb.db, 'AccessToken');
    const codes = createPayloadAdapter(testDb.db, 'AuthorizationCode');
    await tokens.upsert('same-id', { accountId: 'a', grantId: 'g', scope: 'openid' }, 60);
    await codes.upsert('same-id', { accountId: 'b' }, 60);
    await expect(tokens.find('same-id')).resolves.toEqual({
      accountId: 'a',
      grantId: 'g',
      scope: 'openid',
    });
    await expect(codes.find('same-id')).resolves.toEqual({ accountId: 'b' });
    await expect(tokens.find('missing')).resolves.toBeUndefined();

    await tokens.upsert('same-id', { accountId: 'a2' }, 60);
    await expect(tokens.find('same-id')).resolves.toEqual({ accountId: 'a2' });
  });

  it('finds sessions by uid and device codes by user code', async () => {
    const sessions = createPayloadAdapter(testDb.db, 'Session');
    await sessions.upsert('session-1', { uid: 'uid-1', accountId: 'a' }, 60);
    await expect(sessions.findByUid('uid-1')).resolves.toMatchObject({ accountId: 'a' });
    await expect(sessions.findByUid('uid-2')).resolves.toBeUndefined();

    const deviceCodes = createPayloadAdapter(testDb.db, 'DeviceCode');
    await deviceCodes.upsert('device-1', { userCode: 'ABCD-EFGH' }, 60);
    await expect(deviceCodes.findByUserCode('ABCD-EFGH')).resolves.toEqual({
      userCode: 'ABCD-EFGH',
    });
  });

  it('marks a consumed code and keeps the mark when the code is saved again', async () => {
    const codes = createPayloadAdapter(testDb.db, 'AuthorizationCode');
    await codes.upsert('code-1', { accountId: 'a' }, 60);
    await codes.consume('code-1');
    const consumed = await codes.find('code-1');
    expect(typeof consumed?.consumed).toBe('number');
    expect(Math.abs(Number(consumed?.consumed) - Date.now() / 1000)).toBeLessThan(60);
    await codes.upsert('code-1', { accountId: 'a' }, 60);
    await expect(codes.find('code-1')).resolves.toHaveProperty('consumed');
  });

  it('destroys one payload, and revokes by grant only that grant within its kind', async () => {
    const tokens = createPayloadAdapter(testDb.db, 'RefreshToken');
    const codes = createPayloadAdapter(testDb.db, 'AuthorizationCode');
    await tokens.upsert('rt-1', { grantId: 'grant-x' }, 60);
    await tokens.upsert('rt-2', { grantId: 'grant-x' }, 60);
    await tokens.upsert('rt-3', { grantId: 'grant-y' }, 60);
    await codes.upsert('code-x', { grantId: 'grant-x' }, 60);

    await tokens.destroy('rt-2');
    await expect(tokens.find('rt-2')).resolves.toBeUndefined();
    await tokens.revokeByGrantId('grant-x');
    await expect(tokens.find('rt-1')).resolves.toBeUndefined();
    await expect(tokens.find('rt-3')).resolves.toEqual({ grantId: 'grant-y' });
    await expect(codes.find('code-x')).resolves.toEqual({ grantId: 'grant-x' });
  });

  it('treats a payload past its expiry as gone and purges it; no expiry means it stays', async () => {
    const interactions = createPayloadAdapter(testDb.db, 'Interaction');
    await interactions.upsert('short', { uid: 'short-uid' }, 1);
    await interactions.upsert('forever', { uid: 'forever-uid' }, undefined);
    await expect(interactions.find('short')).resolves.toBeDefined();

    await new Promise((resolve) => setTimeout(resolve, 1100));
    await expect(interactions.find('short')).resolves.toBeUndefined();
    await expect(interactions.findByUid('short-uid')).resolves.toBeUndefined();
    expect(await purgeExpiredIdpPayloads(testDb.db)).toBeGreaterThanOrEqual(1);
    const left = await testDb.db
      .selectFrom('idp_payloads')
      .select('id')
      .where('id', '=', 'short')
      .execute();
    expect(left).toEqual([]);
    await expect(interactions.find('forever')).resolves.toEqual({ uid: 'forever-uid' });
  });
});
