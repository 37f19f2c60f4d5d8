import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSeedParts, listSeedStores, startWatchHarness, type WatchHarness } from './support.ts';

const MINUTE = 60_000;

describe('blocked upstream', () => {
  let watch: WatchHarness;
  let part: string;

  async function countOutbox(): Promise<number> {
    const row = await watch.db
      .selectFrom('alert_outbox')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async function readAddress(): Promise<{
    cool_down_until: Date | null;
    consecutive_blocks: number;
  }> {
    return await watch.db
      .selectFrom('egress_addresses')
      .select(['cool_down_until', 'consecutive_blocks'])
      .executeTakeFirstOrThrow();
  }

  beforeAll(async () => {
    watch = await startWatchHarness();
    part = listSeedParts('US', 'iphone16promax')[0]!;
    for (const storeId of listSeedStores('en_US'))
      watch.simulator.setStatus(storeId, part, 'unavailable');
    const user = await watch.createUser('premium', 'best');
    // Two stores far apart (New York, San Francisco): neither location's answer lists the other.
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

  it('answers a 541 with no alert, a five-minute cool-down of the address and no request until it ends', async () => {
    watch.simulator.injectFault('541', 120);
    watch.simulator.setStatus('R095', part, 'available');
    watch.advance(MINUTE);
    const before = watch.simulator.getRequestCount();
    const blocked = await watch.runCycle();
    // The first request is refused; the other is not even sent: a 541 is never retried at once.
    expect(blocked).toMatchObject({ requests: 1, failed: 1, alertsEnqueued: 0 });
    expect(blocked.skipped.cooling_down).toBe(1);
    expect(watch.simulator.getRequestCount()).toBe(before + 1);
    const address = await readAddress();
    expect(address.consecutive_blocks).toBe(1);
    const coolDownUntil = address.cool_down_until!.getTime();
    expect(coolDownUntil - watch.now()).toBeGreaterThanOrEqual(5 * MINUTE - 1000);
    const snapshot = await watch.db
      .selectFrom('availability_snapshots')
      .select('status')
      .where('store_id', '=', 'R095')
      .where('part_number', '=', part)
      .executeTakeFirstOrThrow();
    expect(snapshot.status).toBe('unavailable');

    // The fault is over, but the address stays alone until the cool-down ends.
    while (watch.now() + MINUTE < coolDownUntil) {
      watch.advance(MINUTE);
      const cycle = await watch.runCycle();
      expect(cycle.requests).toBe(0);
    }
    expect(watch.simulator.getRequestCount()).toBe(before + 1);
    expect(await countOutbox()).toBe(0);

    // Once it may ask again, one probe of fulfillment-messages tells a blocked address from a
    // dead endpoint: it answers 541 too (Apple's is dead), so the country stays, and the probe's
    // 541 costs one more first-length cool-down, not a doubled one.
    watch.advance(2 * MINUTE);
    const probe = await watch.runCycle();
    expect(probe).toMatchObject({ requests: 1, failed: 1 });
    const endpoint = await watch.db
      .selectFrom('country_endpoints')
      .selectAll()
      .where('country_code', '=', 'US')
      .executeTakeFirstOrThrow();
    expect(endpoint).toMatchObject({ shape: 'pickup-message', suspect_shape: null });
    expect(endpoint.other_probed_at?.getTime()).toBe(watch.now());
    const afterProbe = await readAddress();
    expect(afterProbe.consecutive_blocks).toBe(1);
    expect(afterProbe.cool_down_until!.getTime() - watch.now()).toBe(5 * MINUTE);

    watch.advance(6 * MINUTE);
    const resumed = await watch.runCycle();
    expect(resumed.failed).toBe(0);
    expect(resumed.polled).toBeGreaterThan(0);
    expect(resumed.alertsEnqueued).toBe(2);
    expect(await countOutbox()).toBe(2);
    expect((await readAddress()).consecutive_blocks).toBe(0);
  });

  it('doubles the cool-down while blocks follow each other, up to an hour', async () => {
    watch.simulator.injectFault('541', 6 * 3600);
    const minutes: number[] = [];
    for (let block = 0; block < 6; block += 1) {
      const { cool_down_until } = await readAddress();
      watch.advance(Math.max(0, (cool_down_until?.getTime() ?? 0) - watch.now()) + MINUTE);
      const cycle = await watch.runCycle();
      expect(cycle.failed).toBe(1);
      const address = await readAddress();
      minutes.push(Math.round((address.cool_down_until!.getTime() - watch.now()) / MINUTE));
    }
    watch.simulator.clearFault();
    expect(minutes[0]).toBe(5);
    expect(minutes[1]).toBe(10);
    expect(
      minutes.every((value, index) => index === 0 || value >= minutes[index - 1] || value >= 5),
    ).toBe(true);
    expect(Math.max(...minutes)).toBe(60);
  });

  it('logs every request for the status page', async () => {
    const rows = await watch.db
      .selectFrom('upstream_requests')
      .select(['is_success', 'failure_kind'])
      .orderBy('id')
      .execute();
    const failures = rows.filter((row) => !row.is_success).map((row) => row.failure_kind);
    expect(new Set(failures)).toEqual(new Set(['blocked']));
    expect(failures.length).toBeGreaterThanOrEqual(8);
    expect(rows.filter((row) => row.is_success).length).toBeGreaterThanOrEqual(3);
  });
});
