import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveUpstreamHost } from '#server/watch/index.ts';
import { listSeedParts, listSeedStores, startWatchHarness, type WatchHarness } from './support.ts';

const MINUTE = 60_000;

describe('blocked upstream', () => {
  let watch: WatchHarness;
  let part: string;
  let host: string;

  async function countOutbox(): Promise<number> {
    const row = await watch.db
      .selectFrom('alert_outbox')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  beforeAll(async () => {
    watch = await startWatchHarness();
    host = resolveUpstreamHost(watch.simulator.url, 'US');
    part = listSeedParts('US', 'iphone16promax')[0]!;
    for (const storeId of listSeedStores('en_US'))
      watch.simulator.setStatus(storeId, part, 'unavailable');
    const user = await watch.createUser('premium', 'best');
    // Two groups far apart (New York, San Francisco): neither answer covers the other.
    await watch.createSearch(user, {
      productId: 'iphone16promax',
      storeId: 'R095',
      preferred: [part],
    });
    await watch.createSearch(user, {
      productId: 'iphone16promax',
      storeId: 'R075',
      preferred: [part],
    });
    const first = await watch.runCycle();
    expect(first).toMatchObject({ polled: 2, failed: 0, alertsEnqueued: 0 });
  });
  afterAll(async () => watch.close());

  it('answers a 541 burst with no alert, a host cool-down and no request until it ends', async () => {
    watch.simulator.injectFault('541', 120);
    watch.simulator.setStatus('R095', part, 'available');
    watch.advance(MINUTE);
    const before = watch.simulator.getRequestCount();
    const blocked = await watch.runCycle();
    // The first request is refused; the second group is not even asked.
    expect(blocked).toMatchObject({ requests: 1, failed: 1, alertsEnqueued: 0 });
    expect(blocked.skipped.cooling_down).toBe(1);
    expect(watch.simulator.getRequestCount()).toBe(before + 1);
    const hostRow = await watch.db
      .selectFrom('upstream_hosts')
      .selectAll()
      .where('host', '=', host)
      .executeTakeFirstOrThrow();
    expect(hostRow.last_failure_kind).toBe('blocked');
    const coolDownUntil = hostRow.cool_down_until!.getTime();
    expect(coolDownUntil).toBeGreaterThan(watch.now() + 5 * MINUTE);
    const snapshot = await watch.db
      .selectFrom('availability_snapshots')
      .select('status')
      .where('store_id', '=', 'R095')
      .where('part_number', '=', part)
      .executeTakeFirstOrThrow();
    expect(snapshot.status).toBe('unavailable');

    // The fault is long over, but the host stays alone until the cool-down ends.
    for (let minute = 0; watch.now() + MINUTE < coolDownUntil; minute += 1) {
      watch.advance(MINUTE);
      const cycle = await watch.runCycle();
      expect(cycle.requests).toBe(0);
    }
    expect(watch.simulator.getRequestCount()).toBe(before + 1);
    expect(await countOutbox()).toBe(0);

    watch.advance(2 * MINUTE);
    const resumed = await watch.runCycle();
    expect(resumed.failed).toBe(0);
    expect(resumed.polled).toBeGreaterThan(0);
    expect(resumed.alertsEnqueued).toBe(2);
    expect(await countOutbox()).toBe(2);
  });

  it('logs every request for the status page', async () => {
    const rows = await watch.db
      .selectFrom('upstream_requests')
      .select(['is_success', 'failure_kind'])
      .orderBy('id')
      .execute();
    expect(rows.filter((row) => !row.is_success).map((row) => row.failure_kind)).toEqual([
      'blocked',
    ]);
    expect(rows.filter((row) => row.is_success).length).toBeGreaterThanOrEqual(3);
  });
});
