import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/db/database.ts';
import { retryWrite } from '#server/db/retrying-write.ts';
import type { UserRow } from '#server/db/schema.ts';
import { enqueueAlerts } from '#server/notify/outbox.ts';
import type { AlertToEnqueue } from '#server/notify/alert-types.ts';
import { ChannelSendError } from '#server/notify/channels/channel-http.ts';
import type { ChannelDispatcher } from '#server/notify/channels/channel-dispatch.ts';
import { deliverToUserChannel } from '#server/notify/channels/channel-delivery.ts';
import { createChannel } from '#server/notify/channels/channels-service.ts';
import { startWebhookSink, type StandIn } from '#tests/helpers/channel-stand-ins.ts';
import { createNotifyFixture, type NotifyFixture } from '../notify/fixtures.ts';

// Issue 43, item 7: a send that succeeded stays succeeded when writing it down fails (the write
// is retried, never the send), and the channel's user-visible failure is in our words only.

const DEVELOPMENT = { allowPrivateTargets: true };

/** What PostgreSQL says to a session it ends (a restart, `kill -9` of a backend). */
function createConnectionLoss(): Error {
  return Object.assign(new Error('terminating connection due to administrator command'), {
    code: '57P01',
  });
}

/**
 * The database, with the next `times` statements matching `matches` failing as a lost
 * connection would; `failed` counts the failures served.
 */
function failStatements(
  db: Db,
  rules: { matches: (statement: string) => boolean; times: number }[],
): { db: Db; failed: () => number } {
  let failed = 0;
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      const statement = JSON.stringify(node);
      const rule = rules.find((candidate) => candidate.times > 0 && candidate.matches(statement));
      if (rule !== undefined) {
        rule.times -= 1;
        failed += 1;
        throw createConnectionLoss();
      }
      return node;
    },
    transformResult: ({ result }) => Promise.resolve(result),
  };
  return { db: db.withPlugin(plugin), failed: () => failed };
}

/** The built-in alert of the fixture, re-addressed to one of the user's channels. */
function toChannelAlert(alert: AlertToEnqueue, channelId: string): AlertToEnqueue {
  return {
    ...alert,
    idempotencyKey: `${alert.idempotencyKey}:webhook:${channelId}`,
    channel: 'webhook',
    userChannelId: channelId,
  };
}

describe('delivery bookkeeping', () => {
  let fixture: NotifyFixture;
  let sink: StandIn;

  beforeAll(async () => {
    fixture = await createNotifyFixture();
    sink = await startWebhookSink();
  });
  afterAll(async () => {
    await fixture.close();
    await sink.close();
  });

  const readChannel = async (id: string) =>
    await fixture.db
      .selectFrom('user_channels')
      .select(['last_failure', 'consecutive_failures', 'last_success_at', 'paused_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('keeps a delivered alert sent, and sends it once, when writing its outcome fails for a while', async () => {
    const user = await fixture.createUser('kept', 'better');
    const search = await fixture.createSearch(user, { send_email_updates: false });
    const channel = await createChannel(
      fixture.db,
      user,
      { kind: 'webhook', url: `${sink.url}/kept` },
      DEVELOPMENT,
    );
    const failing = failStatements(fixture.db, [
      // The channel's success, twice; then the outbox row's outcome, once.
      { matches: (statement) => statement.includes('"last_success_at"'), times: 2 },
      { matches: (statement) => statement.includes('set status = v.status'), times: 1 },
    ]);
    await fixture.startWorker(fixture.buildConfig({ ALLOW_PRIVATE_CHANNEL_TARGETS: 'true' }), {
      db: failing.db,
    });
    const alert = toChannelAlert(fixture.buildAlert(user, search, 'email', 'k-kept'), channel.id);
    await enqueueAlerts(fixture.db, [alert]);
    await fixture.waitFor('the row recorded as sent', async () =>
      (await fixture.listOutbox()).some(
        (row) => row.idempotency_key === alert.idempotencyKey && row.status === 'sent',
      ),
    );
    await fixture.stopWorkers();

    expect(failing.failed()).toBe(3);
    expect(sink.requests.filter((request) => request.path === '/kept')).toHaveLength(1);
    const row = (await fixture.listOutbox()).find(
      (candidate) => candidate.idempotency_key === alert.idempotencyKey,
    );
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
    const stored = await readChannel(channel.id);
    expect(stored).toMatchObject({ last_failure: null, consecutive_failures: 0, paused_at: null });
    expect(stored.last_success_at).not.toBeNull();
  });

  describe('what the channel’s owner is shown', () => {
    let user: UserRow;
    let channelId: string;
    let alert: AlertToEnqueue;

    beforeAll(async () => {
      user = await fixture.createUser('shown', 'better');
      const search = await fixture.createSearch(user, { send_email_updates: false });
      channelId = (
        await createChannel(
          fixture.db,
          user,
          { kind: 'webhook', url: `${sink.url}/shown` },
          DEVELOPMENT,
        )
      ).id;
      alert = toChannelAlert(fixture.buildAlert(user, search, 'email', 'k-shown'), channelId);
    });

    /** Delivers the alert through a dispatcher whose send throws `failure`. */
    async function deliverFailing(failure: Error): Promise<unknown> {
      const dispatcher: ChannelDispatcher = {
        sendAlert: () => Promise.reject(failure),
        sendTest: () => Promise.reject(failure),
        close: () => Promise.resolve(),
      };
      const search = await fixture.db
        .selectFrom('searches')
        .selectAll()
        .where('id', '=', alert.searchId)
        .executeTakeFirstOrThrow();
      return await deliverToUserChannel(
        fixture.db,
        dispatcher,
        {
          idempotency_key: alert.idempotencyKey,
          user_id: user.id,
          user_channel_id: channelId,
          payload: alert.payload,
        },
        { user, search },
      ).catch((error: unknown) => error);
    }

    it('never shows a database message, nor counts our own failure against the channel', async () => {
      const thrown = await deliverFailing(
        new Error('duplicate key value violates unique constraint "user_channels_pkey"'),
      );
      expect(thrown).toMatchObject({ kind: 'transient' });
      expect(await readChannel(channelId)).toMatchObject({
        last_failure: null,
        consecutive_failures: 0,
      });
    });

    it('shows the receiver’s failure as our status line', async () => {
      await deliverFailing(new ChannelSendError('transient', 'The webhook answered 502', 502));
      expect(await readChannel(channelId)).toMatchObject({
        last_failure: 'The webhook answered 502',
        consecutive_failures: 1,
      });
    });
  });
});

describe('retryWrite', () => {
  it('runs the write again after each delay, and gives up with the last error', async () => {
    const waits: number[] = [];
    let runs = 0;
    const write = () => {
      runs += 1;
      return runs < 3 ? Promise.reject(createConnectionLoss()) : Promise.resolve(runs);
    };
    const sleep = (ms: number) => {
      waits.push(ms);
      return Promise.resolve();
    };
    expect(await retryWrite(write, { delaysMs: [10, 20, 30], sleep })).toBe(3);
    expect(waits).toEqual([10, 20]);

    runs = -10;
    await expect(retryWrite(write, { delaysMs: [1, 2], sleep })).rejects.toThrow(
      'terminating connection',
    );
    expect(runs).toBe(-7);
  });
});
