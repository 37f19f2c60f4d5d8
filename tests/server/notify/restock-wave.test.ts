import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config/app-config.ts';
import type { SearchRow } from '#server/db/schema.ts';
import { startAlertDelivery, type AlertDelivery } from '#server/notify/delivery-worker.ts';
import { upsertPushSubscription } from '#server/db/repositories/notify-repository.ts';
import { PRODUCT_MODEL_SEEDS } from '#shared/catalog/index.ts';
import { startSmtpSink, type SmtpSink } from '#tests/helpers/smtp-sink.ts';
import { startTwilioStandIn, type TwilioStandIn } from '#tests/helpers/twilio-stand-in.ts';
import {
  listSeedParts,
  listSeedStores,
  startWatchHarness,
  type WatchHarness,
} from '../watch/support.ts';
import { createTestLogger, TEST_PUBLIC_URL } from './fixtures.ts';
import { startLocalPushService, type LocalPushService } from './push-service.ts';

const MINUTE = 60_000;
const HOME = 'R095'; // Fifth Avenue
const NEAR = 'R032'; // SoHo, about 2.3 miles away

function findModelName(partNumber: string): string {
  const model = PRODUCT_MODEL_SEEDS.find(
    (seed) => seed.part_number === partNumber && seed.country_code === 'US',
  );
  return model?.display_name ?? partNumber;
}

describe('one message per restock wave', () => {
  let watch: WatchHarness;
  let sink: SmtpSink;
  let twilio: TwilioStandIn;
  let pushService: LocalPushService;
  let dataDir: string;
  let worker: AlertDelivery | undefined;
  let search: SearchRow;
  let parts: [string, string, string];

  beforeAll(async () => {
    watch = await startWatchHarness();
    sink = await startSmtpSink();
    twilio = await startTwilioStandIn();
    pushService = await startLocalPushService();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-wave-'));
    parts = listSeedParts('US', 'iphone16pro').slice(0, 3) as [string, string, string];
    for (const storeId of listSeedStores('en_US')) {
      for (const part of parts) watch.simulator.setStatus(storeId, part, 'unavailable');
    }
    const user = await watch.createUser('wave', 'best', { phone: '+14155550199' });
    await upsertPushSubscription(watch.db, user.id, pushService.createBrowser('wave-phone'));
    search = await watch.createSearch(user, {
      productId: 'iphone16pro',
      storeId: HOME,
      preferred: parts,
      isNearby: true,
    });
    const first = await watch.runCycle();
    expect(first.failed).toBe(0);
  });
  afterAll(async () => {
    await worker?.stop();
    await watch.close();
    await sink.close();
    await twilio.close();
    await pushService.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('sends one email listing all three models nearest first, one text and one push', async () => {
    // Three models come in at once: two at the search's store, one at a store nearby.
    watch.simulator.setStatus(NEAR, parts[0], 'available');
    watch.simulator.setStatus(HOME, parts[1], 'available');
    watch.simulator.setStatus(HOME, parts[2], 'available');
    watch.advance(MINUTE);
    const report = await watch.runCycle();
    expect(report.alertsEnqueued).toBe(3);

    worker = await startAlertDelivery({
      db: watch.db,
      config: loadConfig({
        SHELFWATCH_DATA_DIR: dataDir,
        PUBLIC_URL: TEST_PUBLIC_URL,
        SMTP_URL: sink.url,
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
        TWILIO_FROM_NUMBER: '+15005550006',
        TWILIO_API_BASE_URL: twilio.baseUrl,
      }),
      logger: createTestLogger(),
      pollIntervalMs: 100,
      pushAgent: pushService.agent,
    });
    const [email] = await sink.waitForMessages(1);
    const isAllSent = async (): Promise<boolean> => {
      const rows = await watch.db.selectFrom('alert_outbox').select('status').execute();
      return rows.length === 3 && rows.every((row) => row.status === 'sent');
    };
    const deadline = Date.now() + 20_000;
    while (!(await isAllSent())) {
      if (Date.now() > deadline) throw new Error('Timed out waiting for the wave to be sent');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await worker.drain();

    expect(sink.messages).toHaveLength(1);
    const [near, homeA, homeB] = [parts[0], parts[1], parts[2]].map(findModelName) as [
      string,
      string,
      string,
    ];
    const homeFirst = [homeA, homeB].sort((a, b) => a.localeCompare(b))[0] ?? '';
    const text = email?.parsed.text ?? '';
    expect(email?.parsed.subject).toBe(`${homeFirst} at Fifth Avenue, your store, and 2 more`);
    expect(text).toContain(
      'iPhone 16 Pro: 3 models at 2 stores available for in-store pickup, nearest first:',
    );
    for (const part of parts) expect(text).toContain(`(${part})`);
    // Nearest first: both pairs at the search's store, then the one at SoHo.
    const positions = [homeA, homeB, near].map((name) => text.indexOf(name));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(Math.max(positions[0] ?? 0, positions[1] ?? 0)).toBeLessThan(positions[2] ?? 0);
    expect(text).toContain('Store: Apple SoHo (New York, NY)');
    expect(text).toContain(`Your search: ${TEST_PUBLIC_URL}/search/${search.id}`);
    expect(text).toContain('/v2/notifications/unsubscribe?token=');
    const html = typeof email?.parsed.html === 'string' ? email.parsed.html : '';
    for (const name of [homeA, homeB, near]) expect(html).toContain(name);

    expect(twilio.messages).toHaveLength(1);
    expect(twilio.messages[0]?.body).toEqual(
      expect.stringMatching(
        new RegExp(
          `^Shelfwatch: ${homeFirst} at Fifth Avenue, your store\\. Today at Apple Fifth Avenue\\. Seen \\d\\d:\\d\\d\\. Plus 2 more nearby\\. ${TEST_PUBLIC_URL.replaceAll('.', '\\.')}/search/${search.id} Reply STOP to opt out\\.$`,
        ),
      ),
    );

    expect(pushService.received).toHaveLength(1);
  });

  it('sends nothing more when the same answer comes again', async () => {
    watch.advance(MINUTE);
    const report = await watch.runCycle();
    expect(report.alertsEnqueued).toBe(0);
    await worker?.drain();
    expect(sink.messages).toHaveLength(1);
    expect(twilio.messages).toHaveLength(1);
    expect(pushService.received).toHaveLength(1);
  });
});
