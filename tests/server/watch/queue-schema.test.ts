import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWatcher, type RunningWatcher } from '#server/watch/index.ts';
import {
  dropLegacyQueueSchema,
  WATCH_CYCLE_QUEUE,
  WATCH_POLL_QUEUE,
} from '#server/db/queue-schema.ts';
import { listSeedParts, startWatchHarness, type WatchHarness } from './support.ts';

/** Polls `check` until it returns true or `timeoutMs` passes. */
async function waitFor(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Runs `text` (one or more statements) on the test database through a plain client. */
async function runSql<Row extends pg.QueryResultRow>(
  url: string,
  text: string,
  values?: unknown[],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe('watcher on a database pg-boss 10 last served', () => {
  let watch: WatchHarness;
  let watcher: RunningWatcher | undefined;
  const lines: string[] = [];

  beforeAll(async () => {
    watch = await startWatchHarness({ startMs: Date.now() });
    const user = await watch.createUser('upgrader', 'best');
    for (const storeId of ['R095', 'R032']) {
      await watch.createSearch(user, {
        productId: 'iphone16pro',
        storeId,
        preferred: listSeedParts('US', 'iphone16pro').slice(0, 1),
        isText: false,
      });
    }
    // The state an old worker leaves behind: pg-boss 10's schema, our two queues, a cycle job
    // scheduled for later.
    const fixture = await readFile(
      new URL('./fixtures/pg-boss-10-schema.sql', import.meta.url),
      'utf8',
    );
    await runSql(watch.testDb.url, fixture);
    const queueOptions = { policy: 'stately', retryLimit: 0, expireInSeconds: 300 };
    for (const name of [WATCH_CYCLE_QUEUE, WATCH_POLL_QUEUE])
      await runSql(watch.testDb.url, 'select pgboss.create_queue($1, $2)', [
        name,
        JSON.stringify(queueOptions),
      ]);
    await runSql(
      watch.testDb.url,
      `insert into pgboss.job (name, data, singleton_key, policy, start_after)
       values ($1, '{"reason":"schedule"}', 'cycle', 'stately', now() + interval '30 seconds')`,
      [WATCH_CYCLE_QUEUE],
    );
    watcher = await startWatcher({
      db: watch.db,
      connectionString: watch.testDb.url,
      baseUrl: watch.simulator.url,
      pollIntervalSeconds: 1,
      upstreamRatePerMinute: 600,
      upstreamBurst: 5,
      quietWindowMinutes: 30,
      log: (line) => lines.push(line),
    });
  });
  afterAll(async () => {
    await watcher?.stop();
    await watch.close();
  });

  it('replaces the old queue schema with a current one and polls every group', async () => {
    const [installed] = await runSql<{ version: number }>(
      watch.testDb.url,
      'select version from pgboss.version',
    );
    expect(installed?.version).toBeGreaterThan(24);
    expect(lines).toContain(
      'watcher queue: dropped the pg-boss 10 queue schema (version 24); a new one is installed',
    );
    await waitFor(async () => {
      const targets = await watch.db
        .selectFrom('poll_targets')
        .select('last_requested_at')
        .execute();
      return targets.length === 2 && targets.every((target) => target.last_requested_at !== null);
    });
  });

  it('leaves a current queue schema and its queues alone', async () => {
    expect(await dropLegacyQueueSchema(watch.db)).toBeUndefined();
    const queues = await runSql<{ name: string }>(
      watch.testDb.url,
      'select name from pgboss.queue where name = any($1) order by name',
      [[WATCH_CYCLE_QUEUE, WATCH_POLL_QUEUE]],
    );
    expect(queues.map((queue) => queue.name)).toEqual([WATCH_CYCLE_QUEUE, WATCH_POLL_QUEUE]);
  });
});
