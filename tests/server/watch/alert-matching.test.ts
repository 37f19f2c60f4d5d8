import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchRow } from '#server/db/schema.ts';
import type { AlertPayload } from '#server/notify/alert-types.ts';
import {
  listSeedParts,
  listSeedStores,
  startWatchHarness,
  type WatchHarness,
  readSnapshotStatus,
} from './support.ts';

const MINUTE = 60_000;
const HOME = 'R095'; // Fifth Avenue
const NEAR = 'R032'; // SoHo, about 2.3 miles away

type OutboxRow = {
  channel: string;
  search_id: string | null;
  idempotency_key: string;
  payload: AlertPayload;
};

describe('restock alerts', () => {
  let watch: WatchHarness;
  let preferred: string;
  let other: string;
  const searches: Record<string, SearchRow> = {};

  async function readOutbox(): Promise<OutboxRow[]> {
    const rows = await watch.db
      .selectFrom('alert_outbox')
      .select(['channel', 'search_id', 'idempotency_key', 'payload'])
      .orderBy('id')
      .execute();
    return rows as unknown as OutboxRow[];
  }

  function summarise(rows: OutboxRow[]): string[] {
    const names = new Map(Object.entries(searches).map(([name, search]) => [search.id, name]));
    return rows.map((row) => `${names.get(row.search_id ?? '') ?? '?'}:${row.channel}`).sort();
  }

  beforeAll(async () => {
    watch = await startWatchHarness();
    [preferred, other] = listSeedParts('US', 'iphone16pro') as [string, string];
    const otherProductPart = listSeedParts('US', 'iphone16')[0];
    // Start from empty shelves for the parts the test is about, everywhere in the US.
    for (const storeId of listSeedStores('en_US')) {
      for (const part of [preferred, other, otherProductPart])
        watch.simulator.setStatus(storeId, part, 'unavailable');
    }
    const premium = await watch.createUser('premium', 'best');
    const better = await watch.createUser('better', 'better');
    const free = await watch.createUser('free', 'good');
    const quiet = await watch.createUser('quiet', 'best', { isNotificationsEnabled: false });
    const pusher = await watch.createUser('pusher', 'better');
    await watch.db
      .insertInto('push_subscriptions')
      .values({
        user_id: pusher.id,
        endpoint: 'https://push.example/1',
        keys: JSON.stringify({ p256dh: 'k', auth: 'a' }),
      })
      .execute();
    const base = { productId: 'iphone16pro', storeId: HOME, preferred: [preferred] };
    searches.premiumHome = await watch.createSearch(premium, base);
    searches.betterHome = await watch.createSearch(better, base);
    searches.freeHome = await watch.createSearch(free, base);
    searches.quietHome = await watch.createSearch(quiet, base);
    searches.otherModel = await watch.createSearch(premium, { ...base, preferred: [other] });
    searches.noChannels = await watch.createSearch(premium, {
      ...base,
      isEmail: false,
      isText: false,
    });
    searches.pusherHome = await watch.createSearch(pusher, base);
    searches.nearbyAll = await watch.createSearch(premium, {
      ...base,
      storeId: NEAR,
      isNearby: true,
    });
    searches.nearbyTooFar = await watch.createSearch(premium, {
      ...base,
      storeId: NEAR,
      isNearby: true,
      maxMiles: 1,
    });
    searches.nearbyOff = await watch.createSearch(premium, {
      ...base,
      storeId: NEAR,
      isNearby: false,
    });
    searches.otherProduct = await watch.createSearch(premium, {
      productId: 'iphone16',
      storeId: HOME,
      preferred: [otherProductPart],
    });

    const first = await watch.runCycle();
    expect(first.failed).toBe(0);
    expect(await readOutbox()).toEqual([]);
  });
  afterAll(async () => watch.close());

  it('writes one outbox row per enabled channel of every matching search when a preferred part becomes available', async () => {
    watch.simulator.setStatus(HOME, preferred, 'available');
    watch.advance(MINUTE);
    const report = await watch.runCycle();
    expect(report.alertsEnqueued).toBe(7);
    const rows = await readOutbox();
    expect(summarise(rows)).toEqual([
      'betterHome:email',
      'nearbyAll:email',
      'nearbyAll:text',
      'premiumHome:email',
      'premiumHome:text',
      'pusherHome:email',
      'pusherHome:push',
    ]);
    const nearby = rows.find((row) => row.search_id === searches.nearbyAll.id);
    expect(nearby?.payload).toMatchObject({
      productName: 'iPhone 16 Pro',
      items: [
        { storeId: HOME, storeName: 'Fifth Avenue', partNumber: preferred, countryCode: 'US' },
      ],
      heldUntil: null,
    });
    expect(nearby?.payload.items[0]?.distanceMiles).toBeGreaterThan(1);
    expect(nearby?.payload.items[0]?.distanceMiles).toBeLessThan(5);
    const events = await watch.db
      .selectFrom('availability_events')
      .selectAll()
      .where('part_number', '=', preferred)
      .where('to_status', '=', 'available')
      .execute();
    expect(events).toHaveLength(1);
    expect(
      rows.every((row) =>
        row.idempotency_key.startsWith(`${row.search_id}:${HOME}:${preferred}:${events[0].id}:`),
      ),
    ).toBe(true);
  });

  it('alerts nobody again on the next identical answer', async () => {
    watch.advance(MINUTE);
    const report = await watch.runCycle();
    expect(report.requests).toBeGreaterThan(0);
    expect(report.alertsEnqueued).toBe(0);
    expect(await readOutbox()).toHaveLength(7);
  });

  it('keeps the last known status through failed checks and does not alert when they recover', async () => {
    watch.simulator.injectFault('503', 120);
    watch.advance(MINUTE);
    const failing = await watch.runCycle();
    expect(failing.failed).toBe(1);
    expect(await readSnapshotStatus(watch.db, HOME, preferred)).toBe('available');
    watch.advance(10 * MINUTE);
    const recovered = await watch.runCycle();
    expect(recovered.failed).toBe(0);
    expect(recovered.polled).toBeGreaterThan(0);
    expect(await readSnapshotStatus(watch.db, HOME, preferred)).toBe('available');
    expect(await readOutbox()).toHaveLength(7);
  });

  it('stays quiet when stock flaps back within the quiet window', async () => {
    watch.simulator.setStatus(HOME, preferred, 'unavailable');
    watch.advance(MINUTE);
    await watch.runCycle();
    expect(await readSnapshotStatus(watch.db, HOME, preferred)).toBe('unavailable');
    watch.simulator.setStatus(HOME, preferred, 'available');
    watch.advance(5 * MINUTE);
    await watch.runCycle();
    expect(await readSnapshotStatus(watch.db, HOME, preferred)).toBe('available');
    expect(await readOutbox()).toHaveLength(7);
  });

  it('alerts again after the part was unavailable for longer than the quiet window', async () => {
    watch.simulator.setStatus(HOME, preferred, 'unavailable');
    watch.advance(MINUTE);
    await watch.runCycle();
    watch.advance(35 * MINUTE);
    await watch.runCycle();
    watch.simulator.setStatus(HOME, preferred, 'available');
    watch.advance(MINUTE);
    const report = await watch.runCycle();
    expect(report.alertsEnqueued).toBe(7);
    const rows = await readOutbox();
    expect(rows).toHaveLength(14);
    expect(new Set(rows.map((row) => row.idempotency_key)).size).toBe(14);
  });

  it('records every change in the restock history and never an unknown', async () => {
    const events = await watch.db
      .selectFrom('availability_events')
      .select(['from_status', 'to_status'])
      .where('store_id', '=', HOME)
      .where('part_number', '=', preferred)
      .orderBy('id')
      .execute();
    expect(events.map((event) => `${event.from_status ?? 'null'}>${event.to_status}`)).toEqual([
      'null>unavailable',
      'unavailable>available',
      'available>unavailable',
      'unavailable>available',
      'available>unavailable',
      'unavailable>available',
    ]);
  });
});
