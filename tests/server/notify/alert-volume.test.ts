import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config/app-config.ts';
import { updateUserTimeZone } from '#server/db/repositories/users-repository.ts';
import type { UserRow } from '#server/db/schema.ts';
import { startAlertDelivery, type AlertDelivery } from '#server/notify/delivery-worker.ts';
import { createUserSearch, updateUserSearch } from '#server/searches/searches-service.ts';
import { toSearchUpdate } from '#shared/domain/search-settings.ts';
import { startSmtpSink, type ReceivedEmail, type SmtpSink } from '#tests/helpers/smtp-sink.ts';
import {
  listSeedParts,
  listSeedStores,
  startWatchHarness,
  type WatchHarness,
} from '../watch/support.ts';
import { createTestLogger, TEST_PUBLIC_URL } from './fixtures.ts';

const MINUTE = 60_000;
const HOME = 'R075'; // Union Square, San Francisco
/** Nearby stores Apple lists for Union Square, with their distance in miles. */
const NEAR = {
  chestnut: 'R217', // Chestnut Street, 1.8
  stonestown: 'R033', // Stonestown, 5.6
  bay: 'R057', // Bay Street, 7.0
  fourth: 'R414', // 4th Street, 8.3
  corteMadera: 'R071', // Corte Madera, 10.9
  burlingame: 'R029', // Burlingame, 14.9
  stoneridge: 'R101', // Stoneridge Mall, 28.8
} as const;
/** 09:00 in San Francisco (PST) on Thursday 15 January 2026. */
const START_MS = Date.UTC(2026, 0, 15, 17, 0, 0);

describe('alert volume and relevance (issue 42)', () => {
  let watch: WatchHarness;
  let sink: SmtpSink;
  let dataDir: string;
  let worker: AlertDelivery;
  let parts: string[];

  /** A Union Square search made as the website makes it (the service's defaults). */
  async function createUnionSquareSearch(name: string, preferred: readonly string[]) {
    const created = await watch.createUser(name, 'better');
    const user: UserRow = await updateUserTimeZone(watch.db, created.id, 'America/Los_Angeles');
    const search = await createUserSearch(watch.db, user, {
      product_type: 'iphone18pro',
      store_id: HOME,
      include_nearby_store_results: true,
      send_email_updates: true,
      product_models: parts.map((part) => ({
        part_number: part,
        is_preferred: preferred.includes(part),
      })),
    });
    return { user, search };
  }

  /** Makes a model available at a store, as the next answer will show it. */
  async function restock(storeId: string, part: string): Promise<void> {
    watch.simulator.setStatus(storeId, part, 'available');
    expect((await watch.runCycle()).failed).toBe(0);
  }

  /** Delivers what is due by the watch's clock; answers the emails to `email` so far. */
  async function deliverTo(email: string): Promise<ReceivedEmail[]> {
    await worker.drain();
    return sink.messages.filter((mail) => mail.envelopeTo.includes(email));
  }

  beforeAll(async () => {
    watch = await startWatchHarness({ startMs: START_MS });
    sink = await startSmtpSink();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-volume-'));
    parts = listSeedParts('US', 'iphone18pro').slice(0, 6);
    for (const storeId of listSeedStores('en_US')) {
      for (const part of parts) watch.simulator.setStatus(storeId, part, 'unavailable');
    }
    worker = await startAlertDelivery({
      db: watch.db,
      config: loadConfig({
        SHELFWATCH_DATA_DIR: dataDir,
        PUBLIC_URL: TEST_PUBLIC_URL,
        SMTP_URL: sink.url,
      }),
      logger: createTestLogger(),
      // The watch's clock decides when held messages are due; drain() delivers them.
      now: watch.now,
      pollIntervalMs: 60_000,
    });
  });
  afterAll(async () => {
    await worker.stop();
    await watch.close();
    await sink.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('gives a new search the country’s nearby distance and never alerts a store beyond it', async () => {
    const { user, search } = await createUnionSquareSearch('near', [parts[0] ?? '']);
    expect(search.max_distance_miles).toBe(30);
    expect(search.distance_unit).toBe('mi');
    expect(search.alert_cadence_minutes).toBe(15);
    expect((await watch.runCycle()).failed).toBe(0);
    // The user narrows it to 10 miles: Corte Madera (10.9) and Burlingame (14.9) are too far.
    await updateUserSearch(watch.db, user, search.id, {
      ...toSearchUpdate(search),
      max_distance_miles: 10,
    });
    watch.advance(MINUTE);
    await restock(NEAR.corteMadera, parts[0] ?? '');
    watch.advance(MINUTE);
    await restock(NEAR.burlingame, parts[0] ?? '');
    expect(await deliverTo('near@example.com')).toHaveLength(0);
    watch.advance(MINUTE);
    await restock(NEAR.bay, parts[0] ?? '');
    const mails = await deliverTo('near@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.parsed.subject).toMatch(/^iPhone 18 Pro .+ at Bay Street, 7\.\d mi$/);
    const text = mails[0]?.parsed.text ?? '';
    expect(text).not.toContain('Corte Madera');
    expect(text).not.toContain('Burlingame');
  });

  it('sends one email for five restock waves within 10 minutes, then the next after the cadence, in local time with the distance and a buy link', async () => {
    // 10:00 in San Francisco: the waves below come at 10:02, 10:04 ... 10:10.
    watch.advance(Date.UTC(2026, 0, 15, 18, 0, 0) - watch.now());
    const preferred = parts.slice(1, 6);
    await createUnionSquareSearch('calm', preferred);
    expect((await watch.runCycle()).failed).toBe(0);
    const stores = [NEAR.chestnut, NEAR.stonestown, NEAR.bay, NEAR.fourth, NEAR.stoneridge];
    const startedAt = watch.now();
    for (const [index, storeId] of stores.entries()) {
      watch.advance(2 * MINUTE);
      await restock(storeId, preferred[index] ?? '');
      expect(await deliverTo('calm@example.com')).toHaveLength(1);
    }
    expect(watch.now() - startedAt).toBeLessThanOrEqual(10 * MINUTE);
    const [first] = await deliverTo('calm@example.com');
    expect(first?.parsed.subject).toMatch(/^iPhone 18 Pro .+ at Chestnut Street, 1\.8 mi$/);
    const text = first?.parsed.text ?? '';
    // Seen at 18:02 UTC: 10:02 in San Francisco.
    expect(text).toContain('Seen: Thu 15 Jan, 10:02 PST');
    expect(text).toContain('Distance: 1.8 mi from your search’s store');
    expect(text).toMatch(
      /Buy iPhone 18 Pro .+ on apple\.com: https:\/\/www\.apple\.com\/shop\/buy-iphone\/iphone-18-pro/,
    );
    expect(text).toContain('Store page: https://www.apple.com/retail/chestnutstreet/');

    // The fifth wave's stock sells out before the next message leaves.
    watch.advance(MINUTE);
    watch.simulator.setStatus(NEAR.stoneridge, preferred[4] ?? '', 'unavailable');
    expect((await watch.runCycle()).failed).toBe(0);
    expect(await deliverTo('calm@example.com')).toHaveLength(1);
    // 15 minutes after the first message the second carries waves two to five.
    watch.advance(startedAt + 2 * MINUTE + 15 * MINUTE - watch.now());
    const mails = await deliverTo('calm@example.com');
    expect(mails).toHaveLength(2);
    const second = mails[1]?.parsed.text ?? '';
    for (const name of ['Stonestown', 'Bay Street', '4th Street', 'Stoneridge']) {
      expect(second).toContain(name);
    }
    expect(second).not.toContain('Chestnut Street');
    expect(second).toContain('This search sends at most one message every 15 minutes');
    expect(text).not.toContain('at most one message every');
    expect(second).toContain('Now: Sold out again, gone at 10:11');
    expect(mails[1]?.parsed.subject).toMatch(
      /^iPhone 18 Pro .+ at Stonestown, 5\.\d mi, and 3 more$/,
    );
  });

  it('sends a preferred model at the search’s own store at once, with whatever was waiting', async () => {
    const preferred = parts.slice(0, 3);
    await createUnionSquareSearch('urgent', preferred);
    expect((await watch.runCycle()).failed).toBe(0);
    for (const part of preferred) {
      for (const storeId of [HOME, NEAR.corteMadera, NEAR.burlingame]) {
        watch.simulator.setStatus(storeId, part, 'unavailable');
      }
    }
    watch.advance(40 * MINUTE);
    expect((await watch.runCycle()).failed).toBe(0);
    await deliverTo('urgent@example.com');
    watch.advance(MINUTE);
    await restock(NEAR.corteMadera, preferred[1] ?? '');
    expect(await deliverTo('urgent@example.com')).toHaveLength(1);
    watch.advance(MINUTE);
    await restock(NEAR.burlingame, preferred[2] ?? '');
    expect(await deliverTo('urgent@example.com')).toHaveLength(1);
    watch.advance(MINUTE);
    await restock(HOME, preferred[0] ?? '');
    const mails = await deliverTo('urgent@example.com');
    expect(mails).toHaveLength(2);
    expect(mails[1]?.parsed.subject).toMatch(
      /^iPhone 18 Pro .+ at Union Square, your store, and 1 more$/,
    );
    expect(mails[1]?.parsed.text).toContain('Burlingame');
  });
});
