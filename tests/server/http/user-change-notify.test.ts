import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenToChannel } from '#server/db/listen-channel.ts';
import { USER_CHANGE_CHANNEL } from '#server/db/repositories/users-repository.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';

const ROOT_DIR = fileURLToPath(new URL('../../..', import.meta.url));

/** Runs `shelfwatch <args>` as a process of its own on the test database. */
async function runCli(
  args: string[],
  databaseUrl: string,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
    cwd: ROOT_DIR,
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, output };
}

describe('plan changes made by another process', () => {
  let api: ApiHarness;
  let listening: FastifyInstance;
  let shopper: TestUser;

  beforeAll(async () => {
    api = await startApiHarness();
    // The app as `npm start` builds it: listening for other processes' user changes.
    listening = await api.buildVariant({ databaseUrl: api.testDb.url });
    shopper = await api.createUser('plan-elsewhere', 'best');
  }, 60_000);
  afterAll(async () => {
    await listening.close();
    await api.close();
  });

  const readList = async (): Promise<number> =>
    (
      await listening.inject({
        method: 'GET',
        url: '/v2/searches/my_searches',
        headers: { authorization: `Bearer ${shopper.token}` },
      })
    ).statusCode;

  it('apply to the next request within 2 s (set-plan in its own process), both ways', async () => {
    // The user is now cached for 30 s in the listening app.
    expect(await readList()).toBe(200);

    const downgrade = await runCli(['set-plan', shopper.user.email!, 'good'], api.testDb.url);
    expect(downgrade.output).toContain('to good');
    expect(downgrade.code).toBe(0);
    const downgradedAt = Date.now();
    await expect.poll(readList, { timeout: 2_000, interval: 50 }).toBe(403);
    expect(Date.now() - downgradedAt).toBeLessThan(2_000);

    const upgrade = await runCli(['set-plan', shopper.user.email!, 'best'], api.testDb.url);
    expect(upgrade.code).toBe(0);
    const upgradedAt = Date.now();
    await expect.poll(readList, { timeout: 2_000, interval: 50 }).toBe(200);
    expect(Date.now() - upgradedAt).toBeLessThan(2_000);
  }, 60_000);

  it('is announced only when the change commits', async () => {
    const received: string[] = [];
    const stop = await listenToChannel(api.testDb.url, USER_CHANGE_CHANNEL, {
      onNotification: (payload) => received.push(payload),
      onGap: () => undefined,
      warn: () => undefined,
    });
    try {
      const { updateUserPlan } = await import('#server/db/repositories/users-repository.ts');
      await api.testDb.db
        .transaction()
        .execute(async (trx) => {
          await updateUserPlan(trx, shopper.user.id, 'good');
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      await api.testDb.db.transaction().execute(async (trx) => {
        await updateUserPlan(trx, shopper.user.id, 'better');
      });
      await expect.poll(() => received, { timeout: 2_000 }).toEqual([shopper.user.id]);
    } finally {
      await stop();
    }
  });

  it('keeps listening after its connection is lost, dropping what it had cached', async () => {
    let gaps = 0;
    const received: string[] = [];
    const stop = await listenToChannel(
      api.testDb.url,
      'shelfwatch_test_gap',
      {
        onNotification: (payload) => received.push(payload),
        onGap: () => (gaps += 1),
        warn: () => undefined,
      },
      { retryMs: 100 },
    );
    try {
      const { sql } = await import('kysely');
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where query = 'LISTEN shelfwatch_test_gap'`.execute(api.testDb.db);
      // Once for the loss, once when back.
      await expect.poll(() => gaps, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
      await sql`select pg_notify('shelfwatch_test_gap', 'after')`.execute(api.testDb.db);
      await expect.poll(() => received, { timeout: 2_000 }).toEqual(['after']);
    } finally {
      await stop();
    }
  });
});
