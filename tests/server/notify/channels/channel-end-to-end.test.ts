import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config/app-config.ts';
import { startAlertDelivery, type AlertDelivery } from '#server/notify/delivery-worker.ts';
import { createChannel } from '#server/notify/channels/channels-service.ts';
import { startWatcher, type RunningWatcher } from '#server/watch/index.ts';
import {
  startDiscordStandIn,
  startNtfyStandIn,
  type StandIn,
} from '#tests/helpers/channel-stand-ins.ts';
import { startSmtpSink, type SmtpSink } from '#tests/helpers/smtp-sink.ts';
import {
  listSeedParts,
  listSeedStores,
  startWatchHarness,
  type WatchHarness,
} from '../../watch/support.ts';

async function waitFor(
  description: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('user channels end to end', () => {
  let watch: WatchHarness;
  let smtp: SmtpSink;
  let ntfy: StandIn;
  let discord: StandIn & { webhookUrl: string };
  let delivery: AlertDelivery;
  let watcher: RunningWatcher;
  let dataDir: string;
  let part: string;
  let searchId: string;
  let polls = 0;

  beforeAll(async () => {
    watch = await startWatchHarness({ startMs: Date.now() });
    smtp = await startSmtpSink();
    ntfy = await startNtfyStandIn({ token: 'tk_standintoken' });
    discord = await startDiscordStandIn();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-channels-'));
    part = listSeedParts('US', 'iphone18pro')[0]!;
    for (const storeId of listSeedStores('en_US'))
      watch.simulator.setStatus(storeId, part, 'unavailable');

    const ann = await watch.createUser('ann', 'better');
    const search = await watch.createSearch(ann, {
      productId: 'iphone18pro',
      storeId: 'R095',
      preferred: [part],
      isEmail: false,
      isText: false,
    });
    searchId = search.id;
    const policy = { allowPrivateTargets: true };
    await createChannel(
      watch.db,
      ann,
      { kind: 'ntfy', server_url: ntfy.url, topic: 'ann-iphone', token: 'tk_standintoken' },
      policy,
    );
    await createChannel(watch.db, ann, { kind: 'discord', url: discord.webhookUrl }, policy);

    const config = loadConfig({
      SHELFWATCH_DATA_DIR: dataDir,
      PUBLIC_URL: 'https://shelfwatch.test',
      SMTP_URL: smtp.url,
      ALLOW_PRIVATE_CHANNEL_TARGETS: 'true',
    });
    const quiet = (): undefined => undefined;
    delivery = await startAlertDelivery({
      db: watch.db,
      config,
      databaseUrl: watch.testDb.url,
      logger: { info: quiet, warn: quiet, error: quiet },
      pollIntervalMs: 500,
    });
    watcher = await startWatcher({
      db: watch.db,
      connectionString: watch.testDb.url,
      baseUrl: watch.simulator.url,
      pollIntervalSeconds: 1,
      upstreamRatePerMinute: 600,
      upstreamBurst: 5,
      quietWindowMinutes: 30,
      onPolled: () => {
        polls += 1;
      },
    });
  });
  afterAll(async () => {
    await watcher.stop();
    await delivery.stop();
    await ntfy.close();
    await discord.close();
    await smtp.close();
    await watch.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('turns one simulator restock into exactly one ntfy and one Discord message with the actions', async () => {
    await waitFor('the first polls', async () => {
      const targets = await watch.db
        .selectFrom('poll_targets')
        .select('last_requested_at')
        .execute();
      return targets.length > 0 && targets.every((target) => target.last_requested_at !== null);
    });
    const response = await fetch(`${watch.simulator.url}/_sim/stock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ store_id: 'R095', part_number: part, status: 'available' }),
    });
    expect(response.status).toBe(200);

    await waitFor(
      'an ntfy and a Discord message',
      () => ntfy.requests.length >= 1 && discord.requests.length >= 1,
    );
    const pollsAfterAlert = polls;
    await waitFor('more cycles', () => polls >= pollsAfterAlert + 6);
    await waitFor('an idle outbox', async () => {
      const pending = await watch.db
        .selectFrom('alert_outbox')
        .select('id')
        .where('status', 'in', ['pending', 'sending'])
        .execute();
      return pending.length === 0;
    });

    expect(ntfy.requests).toHaveLength(1);
    expect(discord.requests).toHaveLength(1);
    expect(smtp.messages).toHaveLength(0);
    const searchUrl = `https://shelfwatch.test/search/${searchId}`;

    const published = ntfy.requests[0];
    expect(published.path).toBe('/');
    expect(published.headers.authorization).toBe('Bearer tk_standintoken');
    const ntfyBody = published.json as {
      topic: string;
      title: string;
      message: string;
      click: string;
      actions: { action: string; label: string; url: string }[];
    };
    expect(ntfyBody.topic).toBe('ann-iphone');
    expect(ntfyBody.title).toContain('Fifth Avenue');
    expect(ntfyBody.click).toBe(searchUrl);
    expect(ntfyBody.actions.map((action) => [action.action, action.label])).toEqual([
      ['view', 'Open search'],
      ['view', 'Open store page'],
      ['view', 'Buy on apple.com'],
    ]);
    expect(ntfyBody.actions[1]?.url).toMatch(/^https:\/\/www\.apple\.com\/retail\/.+/);
    expect(ntfyBody.actions[2]?.url).toBe('https://www.apple.com/shop/buy-iphone/iphone-18-pro');

    const executed = discord.requests[0];
    expect(executed.path).toMatch(/^\/api\/webhooks\/\d+\/[\w-]+\?wait=true$/);
    const discordBody = executed.json as {
      content: string;
      embeds: { title: string; url: string; description: string }[];
      allowed_mentions: { parse: string[] };
    };
    expect(discordBody.embeds[0]?.url).toBe(searchUrl);
    expect(discordBody.embeds[0]?.description).toContain(`[Open search](${searchUrl})`);
    expect(discordBody.allowed_mentions).toEqual({ parse: [] });

    const rows = await watch.db
      .selectFrom('alert_outbox')
      .select(['channel', 'status', 'user_channel_id'])
      .orderBy('channel')
      .execute();
    expect(rows.map((row) => [row.channel, row.status])).toEqual([
      ['discord', 'sent'],
      ['ntfy', 'sent'],
    ]);
    expect(rows.every((row) => row.user_channel_id !== null)).toBe(true);
  });
});
