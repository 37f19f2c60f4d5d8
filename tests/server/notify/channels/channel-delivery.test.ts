import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueAlerts } from '#server/notify/outbox.ts';
import type { AlertToEnqueue } from '#server/notify/alert-types.ts';
import {
  createChannel,
  listChannels,
  removeChannel,
} from '#server/notify/channels/channels-service.ts';
import {
  startDiscordStandIn,
  startWebhookSink,
  type StandIn,
} from '#tests/helpers/channel-stand-ins.ts';
import { createNotifyFixture, TEST_PUBLIC_URL, type NotifyFixture } from '../fixtures.ts';

const DEVELOPMENT = { allowPrivateTargets: true };

describe('delivery to users’ channels', () => {
  let fixture: NotifyFixture;
  let sink: StandIn;
  let discord: StandIn & { webhookUrl: string };

  beforeAll(async () => {
    fixture = await createNotifyFixture();
    sink = await startWebhookSink();
    discord = await startDiscordStandIn();
    await fixture.startWorker(fixture.buildConfig({ ALLOW_PRIVATE_CHANNEL_TARGETS: 'true' }));
  });
  afterAll(async () => {
    await fixture.close();
    await sink.close();
    await discord.close();
  });

  /** The built-in alert of the fixture, re-addressed to one of the user's channels. */
  function toChannelAlert(
    alert: AlertToEnqueue,
    channel: { id: string; kind: AlertToEnqueue['channel'] },
  ): AlertToEnqueue {
    return {
      ...alert,
      idempotencyKey: `${alert.idempotencyKey}:${channel.kind}:${channel.id}`,
      channel: channel.kind,
      userChannelId: channel.id,
    };
  }

  it('posts a stock alert to a webhook as documented, signed and keyed by the outbox key', async () => {
    const user = await fixture.createUser('wes', 'better');
    const search = await fixture.createSearch(user, { send_email_updates: false });
    const channel = await createChannel(
      fixture.db,
      user,
      { kind: 'webhook', url: `${sink.url}/in` },
      DEVELOPMENT,
    );
    const alert = toChannelAlert(fixture.buildAlert(user, search, 'email', 'k-webhook'), channel);
    await enqueueAlerts(fixture.db, [alert]);
    await fixture.waitFor('the webhook POST', () => sink.requests.length === 1);
    const request = sink.requests[0];
    const [, timestamp, signature] =
      /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request.headers['x-shelfwatch-signature'])) ?? [];
    expect(signature).toBe(
      createHmac('sha256', channel.secret ?? '')
        .update(`${timestamp}.${request.body}`)
        .digest('hex'),
    );
    expect(request.headers['x-shelfwatch-event']).toBe('stock.available');
    expect(request.headers['x-shelfwatch-delivery']).toBe(alert.idempotencyKey);
    expect(request.json).toMatchObject({
      type: 'stock.available',
      id: alert.idempotencyKey,
      search: {
        id: search.id,
        url: `${TEST_PUBLIC_URL}/search/${search.id}`,
        product_name: 'iPhone 16 Pro',
      },
      items: [
        {
          model_name: 'iPhone 16 Pro 256GB Desert Titanium',
          part_number: 'MYMJ3LL/A',
          store: {
            id: 'R095',
            name: 'Fifth Avenue',
            country_code: 'US',
            url: 'https://www.apple.com/retail/fifthavenue/',
          },
          distance_miles: 2.4,
          pickup_quote: 'Available Today',
        },
      ],
      held_until: null,
    });
    await fixture.waitFor('the row sent', async () =>
      (await fixture.listOutbox()).some(
        (row) => row.idempotency_key === alert.idempotencyKey && row.status === 'sent',
      ),
    );
  });

  it('pauses a channel after five failed attempts in a row and says why', async () => {
    const user = await fixture.createUser('dee', 'best');
    const search = await fixture.createSearch(user);
    const channel = await createChannel(
      fixture.db,
      user,
      { kind: 'discord', url: discord.webhookUrl },
      DEVELOPMENT,
    );
    discord.failNext(503, { message: 'Service Unavailable' }, 50);
    const alert = toChannelAlert(fixture.buildAlert(user, search, 'email', 'k-pause'), channel);
    await enqueueAlerts(fixture.db, [alert]);
    await fixture.waitFor('the row to fail', async () =>
      (await fixture.listOutbox()).some(
        (row) => row.idempotency_key === alert.idempotencyKey && row.status === 'failed',
      ),
    );
    expect(discord.requests).toHaveLength(5);
    const row = (await fixture.listOutbox()).find(
      (candidate) => candidate.idempotency_key === alert.idempotencyKey,
    );
    expect(row?.last_error).toBe('Discord answered 503 (channel paused)');
    const [listed] = await listChannels(fixture.db, user);
    expect(listed).toMatchObject({
      status: 'paused',
      pause_reason: 'Paused after 5 failed deliveries in a row. Last: Discord answered 503',
      last_failure: 'Discord answered 503',
    });

    // Later alerts skip the paused channel instead of trying it again.
    const next = toChannelAlert(fixture.buildAlert(user, search, 'email', 'k-paused'), channel);
    await enqueueAlerts(fixture.db, [next]);
    await fixture.waitFor('the next row suppressed', async () =>
      (await fixture.listOutbox()).some(
        (candidate) =>
          candidate.idempotency_key === next.idempotencyKey &&
          candidate.status === 'suppressed' &&
          candidate.last_error === 'channel_paused',
      ),
    );
    expect(discord.requests).toHaveLength(5);
  });

  it('suppresses rows of a deleted channel and of a plan without channels', async () => {
    const user = await fixture.createUser('del', 'better');
    const search = await fixture.createSearch(user);
    const channel = await createChannel(
      fixture.db,
      user,
      { kind: 'webhook', url: `${sink.url}/gone` },
      DEVELOPMENT,
    );
    const before = sink.requests.length;
    const gone = toChannelAlert(fixture.buildAlert(user, search, 'email', 'k-gone'), channel);
    await fixture.stopWorkers();
    await enqueueAlerts(fixture.db, [gone]);
    await removeChannel(fixture.db, user, channel.id);

    const free = await fixture.createUser('fay', 'better');
    const freeSearch = await fixture.createSearch(free);
    const freeChannel = await createChannel(
      fixture.db,
      free,
      { kind: 'webhook', url: `${sink.url}/free` },
      DEVELOPMENT,
    );
    await fixture.db.updateTable('users').set({ plan: 'good' }).where('id', '=', free.id).execute();
    const downgraded = toChannelAlert(
      fixture.buildAlert(free, freeSearch, 'email', 'k-free'),
      freeChannel,
    );
    await enqueueAlerts(fixture.db, [downgraded]);

    await fixture.startWorker(fixture.buildConfig({ ALLOW_PRIVATE_CHANNEL_TARGETS: 'true' }));
    // Settled means a final status: 'sending' is a claimed row whose outcome is not written yet.
    await fixture.waitFor('both rows settled', async () => {
      const rows = await fixture.listOutbox();
      return [gone, downgraded].every((alert) =>
        rows.some(
          (row) =>
            row.idempotency_key === alert.idempotencyKey &&
            row.status !== 'pending' &&
            row.status !== 'sending',
        ),
      );
    });
    const rows = await fixture.listOutbox();
    const reasonOf = (key: string) => rows.find((row) => row.idempotency_key === key)?.last_error;
    expect(reasonOf(gone.idempotencyKey)).toBe('channel_deleted');
    expect(reasonOf(downgraded.idempotencyKey)).toBe('plan_excludes_channels');
    expect(sink.requests.length).toBe(before);
  });
});
