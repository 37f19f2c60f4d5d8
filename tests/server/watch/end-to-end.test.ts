import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config/app-config.ts';
import { startAlertDelivery, type AlertDelivery } from '#server/notify/delivery-worker.ts';
import { startWatcher, type RunningWatcher } from '#server/watch/index.ts';
import { startSmtpSink, type SmtpSink } from '#tests/helpers/smtp-sink.ts';
import { startTwilioStandIn, type TwilioStandIn } from '#tests/helpers/twilio-stand-in.ts';
import { listSeedParts, listSeedStores, startWatchHarness, type WatchHarness } from './support.ts';

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

describe('watch engine end to end', () => {
  let watch: WatchHarness;
  let smtp: SmtpSink;
  let twilio: TwilioStandIn;
  let delivery: AlertDelivery;
  let watcher: RunningWatcher;
  let dataDir: string;
  let part: string;
  let polls = 0;

  beforeAll(async () => {
    watch = await startWatchHarness({ startMs: Date.now() });
    smtp = await startSmtpSink();
    twilio = await startTwilioStandIn();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-e2e-'));
    part = listSeedParts('US', 'iphone16pro')[0]!;
    for (const storeId of listSeedStores('en_US'))
      watch.simulator.setStatus(storeId, part, 'unavailable');

    const ann = await watch.createUser('ann', 'best', { phone: '+12025550101' });
    const ben = await watch.createUser('ben', 'best', { phone: '+12025550102' });
    const cat = await watch.createUser('cat', 'better');
    const dan = await watch.createUser('dan', 'best', { isNotificationsEnabled: false });
    await watch.createSearch(ann, { productId: 'iphone16pro', storeId: 'R095', preferred: [part] });
    await watch.createSearch(ben, {
      productId: 'iphone16pro',
      storeId: 'R032',
      preferred: [part],
      isNearby: true,
    });
    await watch.createSearch(cat, { productId: 'iphone16pro', storeId: 'R095', preferred: [part] });
    await watch.createSearch(dan, { productId: 'iphone16pro', storeId: 'R095', preferred: [part] });

    const config = loadConfig({
      SHELFWATCH_DATA_DIR: dataDir,
      PUBLIC_URL: 'https://shelfwatch.test',
      SMTP_URL: smtp.url,
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM_NUMBER: '+15005550006',
      TWILIO_API_BASE_URL: twilio.baseUrl,
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
    await twilio.close();
    await smtp.close();
    await watch.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('turns one /_sim/stock flip into exactly one email and one text per enabled search', async () => {
    await waitFor('the first polls of both stores', async () => {
      const targets = await watch.db
        .selectFrom('poll_targets')
        .select('last_requested_at')
        .execute();
      return targets.length === 2 && targets.every((target) => target.last_requested_at !== null);
    });
    const response = await fetch(`${watch.simulator.url}/_sim/stock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ store_id: 'R095', part_number: part, status: 'available' }),
    });
    expect(response.status).toBe(200);

    // ann (email, text), ben nearby (email, text), cat (email; Better has no text), dan (off).
    await smtp.waitForMessages(3, 30_000);
    await waitFor('two texts', () => twilio.messages.length >= 2);
    // Several more cycles see the same shelf: nothing more may go out.
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

    expect(smtp.messages.map((message) => message.envelopeTo.join(',')).sort()).toEqual([
      'ann@example.com',
      'ben@example.com',
      'cat@example.com',
    ]);
    expect(twilio.messages.map((message) => message.to).sort()).toEqual([
      '+12025550101',
      '+12025550102',
    ]);
    const annEmail = smtp.messages.find((message) =>
      message.envelopeTo.includes('ann@example.com'),
    );
    expect(annEmail?.parsed.text).toContain('Fifth Avenue');
  });
});
