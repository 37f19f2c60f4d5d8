import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enqueueAlerts } from '#server/notify/outbox.ts';
import { startSmtpSink, type SmtpSink } from '#tests/helpers/smtp-sink.ts';
import { createNotifyFixture, TEST_PUBLIC_URL, type NotifyFixture } from './fixtures.ts';

const CHILD_SCRIPT = fileURLToPath(new URL('./fixtures/delivery-child.ts', import.meta.url));
const CHILD_APP_NAME = 'shelfwatch-delivery-child';

describe('a delivery worker killed mid-delivery', () => {
  let fixture: NotifyFixture;
  let sink: SmtpSink;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    fixture = await createNotifyFixture();
    sink = await startSmtpSink();
  });
  afterEach(async () => {
    await fixture.stopWorkers();
    child?.kill('SIGKILL');
    child = undefined;
    sink.messages.length = 0;
    sink.setHolding(false);
  });
  afterAll(async () => {
    await fixture.close();
    await sink.close();
  });

  /** Starts a worker process on the test database and SMTP sink; resolves when it is running. */
  async function startChild(): Promise<ChildProcess> {
    const url = new URL(fixture.testDb.url);
    url.searchParams.set('application_name', CHILD_APP_NAME);
    const started = spawn(process.execPath, ['--import', 'tsx', CHILD_SCRIPT], {
      env: {
        ...process.env,
        CHILD_DATABASE_URL: url.toString(),
        SHELFWATCH_DATA_DIR: fixture.dataDir,
        PUBLIC_URL: TEST_PUBLIC_URL,
        SMTP_URL: sink.url,
        CHILD_LEASE_MS: '2000',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(started.stdout ?? started, 'data')) as [Buffer];
    expect(line.toString()).toContain('ready');
    return started;
  }

  /** SIGKILLs the child and ends its database sessions, as a machine crash would. */
  async function crashChild(process_: ChildProcess): Promise<void> {
    const exited = once(process_, 'exit');
    process_.kill('SIGKILL');
    await exited;
    // Sessions of a dead client linger until the server notices; a crash test must not wait on that.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${CHILD_APP_NAME}`.execute(
      fixture.db,
    );
  }

  async function seedAlerts(prefix: string, count: number): Promise<string[]> {
    const user = await fixture.createUser(prefix, 'best');
    const search = await fixture.createSearch(user);
    const alerts = Array.from({ length: count }, (_, index) =>
      fixture.buildAlert(user, search, 'email', `${prefix}-${index}`),
    );
    await fixture.db.transaction().execute((trx) => enqueueAlerts(trx, alerts));
    return alerts.map((alert) => alert.idempotencyKey);
  }

  async function listRows(prefix: string): Promise<{ status: string; attempts: number }[]> {
    return (await fixture.listOutbox()).filter((row) =>
      row.idempotency_key.startsWith(`${prefix}-`),
    );
  }

  it('resends a message the SMTP server never accepted, once, after the lease expires', async () => {
    const keys = await seedAlerts('before', 3);
    sink.setHolding(true);
    child = await startChild();
    await fixture.waitFor('the child to hand one message to SMTP', () => sink.heldCount() === 1);
    await crashChild(child);
    child = undefined;
    await fixture.waitFor(
      'the sink to drop the unanswered message',
      () => sink.droppedCount() >= 1,
    );
    sink.setHolding(false);
    expect(sink.messages).toHaveLength(0);

    await fixture.startWorker(fixture.buildConfig({ SMTP_URL: sink.url }));
    await sink.waitForMessages(keys.length);
    await fixture.waitFor('every row to be sent', async () =>
      (await listRows('before')).every((row) => row.status === 'sent'),
    );
    expect(sink.messages).toHaveLength(keys.length);
    expect(new Set(sink.messages.map((message) => message.messageId)).size).toBe(keys.length);
    // The crashed claim counted as an attempt: one row took two, the rest one.
    expect((await listRows('before')).map((row) => row.attempts).sort()).toEqual([1, 1, 2]);
  });

  it('resends a message accepted just before the crash with the same Message-ID, so the receiver can drop it', async () => {
    const keys = await seedAlerts('after', 2);
    sink.setHolding(true);
    child = await startChild();
    await fixture.waitFor('the child to hand one message to SMTP', () => sink.heldCount() === 1);
    const [claimed] = await fixture.db
      .selectFrom('alert_outbox')
      .select('id')
      .where('status', '=', 'sending')
      .execute();
    // Hold the row so the child's "mark sent" blocks after SMTP accepts: the crash window.
    const blocker = new pg.Client({ connectionString: fixture.testDb.url });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('select id from alert_outbox where id = $1 for update', [claimed?.id]);
    sink.releaseHeld();
    await sink.waitForMessages(1);
    await fixture.waitFor('the child to wait on the row lock', async () => {
      const result = await blocker.query<{ count: string }>(
        "select count(*) from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'",
        [CHILD_APP_NAME],
      );
      return Number(result.rows[0]?.count) > 0;
    });
    await crashChild(child);
    child = undefined;
    await blocker.query('rollback');
    await blocker.end();
    sink.setHolding(false);

    await fixture.startWorker(fixture.buildConfig({ SMTP_URL: sink.url }));
    await fixture.waitFor('every row to be sent', async () =>
      (await listRows('after')).every((row) => row.status === 'sent'),
    );
    await sink.waitForMessages(keys.length + 1);
    const messageIds = sink.messages.map((message) => message.messageId);
    // Nothing lost; the one duplicate on the wire carries the same Message-ID as the original.
    expect(new Set(messageIds).size).toBe(keys.length);
    expect(messageIds).toHaveLength(keys.length + 1);
    expect(messageIds.filter((id) => id === messageIds[0])).toHaveLength(2);
  });
});
