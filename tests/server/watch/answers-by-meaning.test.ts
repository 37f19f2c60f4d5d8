// The server's watcher reads Apple's answers as the 2025-2026 captures show them, against the
// simulator (which answers the same way): parts past Apple's 20 come back when asked again, a
// request of nothing sellable is answered with empty content and finds the bad part without
// backing anything off, and a control part Apple retired stops being the control.
import { afterEach, describe, expect, it } from 'vitest';
import { computeWatchStatus } from '#server/watch/watch-status.ts';
import type { EgressAddress } from '#server/watch/index.ts';
import {
  listSeedParts,
  listSeedStores,
  readSnapshotStatus,
  startWatchHarness,
  type WatchHarness,
} from './support.ts';

const MINUTE = 60_000;

/** An address through the global fetch that remembers the parts of every request. */
function createRecordingAddress(): EgressAddress & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    label: 'direct test',
    kind: 'direct',
    asked,
    fetch: (url, init) => {
      const query = new URL(url).searchParams;
      asked.push([...query].filter(([key]) => key.startsWith('parts.')).map(([, part]) => part));
      return fetch(url, init);
    },
    close: () => Promise.resolve(),
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startHarness(
  options: Parameters<typeof startWatchHarness>[0],
): Promise<WatchHarness> {
  const watch = await startWatchHarness(options);
  cleanups.push(() => watch.close());
  return watch;
}

describe('parts past the 20th of a request', () => {
  it('come back when asked again: a 25-part request’s last 5 are filed and none is marked invalid', async () => {
    const address = createRecordingAddress();
    const watch = await startHarness({ addresses: [address], partsPerRequest: 25 });
    const user = await watch.createUser('premium', 'best');
    const types = ['iphone18pro', 'iphoneduo', 'iphone17pro'];
    for (const productId of types) {
      await watch.createSearch(user, { productId, storeId: 'R095', preferred: [] });
    }
    const parts = types.flatMap((productId) => listSeedParts('US', productId));
    expect(parts).toHaveLength(25);

    const cycle = await watch.runCycle();
    expect(cycle).toMatchObject({ requests: 2, polled: 1, failed: 0 });
    const [first, second] = address.asked;
    expect(first).toHaveLength(25);
    expect(second).toEqual(first?.slice(20));
    expect(await watch.db.selectFrom('invalid_parts').selectAll().execute()).toEqual([]);
    for (const part of parts)
      expect(await readSnapshotStatus(watch.db, 'R095', part)).toBeDefined();
  });
});

describe('empty content: nothing asked is sellable there', () => {
  it('marks the bad part, and backs off neither the seed nor the address', async () => {
    const address = createRecordingAddress();
    const watch = await startHarness({ addresses: [address] });
    await watch.db
      .insertInto('product_types')
      .values({
        product_id: 'ghostphone',
        product_name: 'Ghost Phone',
        family: 'phone-modern',
        sort_order: 999,
      })
      .execute();
    await watch.db
      .insertInto('product_models')
      .values({
        product_id: 'ghostphone',
        country_code: 'US',
        part_number: 'ZZ999LL/A',
        display_name: 'Ghost Phone 128GB',
        source: 'test: a part the simulated Apple does not sell',
      })
      .execute();
    const user = await watch.createUser('premium', 'best');
    await watch.createSearch(user, { productId: 'ghostphone', storeId: 'R095', preferred: [] });

    const cycle = await watch.runCycle();
    expect(cycle).toMatchObject({ requests: 1, failed: 0 });
    expect(address.asked).toEqual([['ZZ999LL/A']]);
    const invalid = await watch.db.selectFrom('invalid_parts').selectAll().execute();
    expect(invalid.map((row) => row.part_number)).toEqual(['ZZ999LL/A']);
    expect(invalid[0]?.reason).toMatch(/empty content/);
    const seed = await watch.db.selectFrom('location_seeds').selectAll().executeTakeFirst();
    expect(seed?.consecutive_failures ?? 0).toBe(0);
    expect(seed === undefined || seed.next_due_at.getTime() <= watch.now()).toBe(true);
    const [egress] = await watch.db.selectFrom('egress_addresses').selectAll().execute();
    expect(egress?.cool_down_until ?? null).toBeNull();
    const [logged] = await watch.db.selectFrom('upstream_requests').selectAll().execute();
    expect(logged).toMatchObject({ is_success: true, failure_kind: null });

    // Held out: the next cycle asks nothing for it.
    watch.advance(MINUTE);
    expect(await watch.runCycle()).toMatchObject({ requests: 0 });
  });
});

describe('a control part Apple retired', () => {
  it('does not make answers look broken, is retired after two answers and is no longer the control', async () => {
    const control = listSeedParts('US', 'iphone16')[0];
    const address = createRecordingAddress();
    const watch = await startHarness({
      addresses: [address],
      controlParts: new Map([['US', control]]),
    });
    for (const storeId of listSeedStores('en_US'))
      watch.simulator.setStatus(storeId, control, 'ineligible');
    const user = await watch.createUser('premium', 'best');
    await watch.createSearch(user, { productId: 'iphone18pro', storeId: 'R095', preferred: [] });

    expect(await watch.runCycle()).toMatchObject({ polled: 1, failed: 0 });
    expect(address.asked[0]?.[0]).toBe(control);
    watch.advance(MINUTE);
    expect(await watch.runCycle()).toMatchObject({ polled: 1, failed: 0 });
    const retired = await watch.db.selectFrom('upstream_retired_parts').selectAll().execute();
    expect(retired).toEqual([
      expect.objectContaining({ country_code: 'US', part_number: control, ineligible_answers: 2 }),
    ]);

    address.asked.length = 0;
    watch.advance(MINUTE);
    await watch.runCycle();
    expect(address.asked.flat()).not.toContain(control);
    const status = await computeWatchStatus(watch.db, {
      now: watch.now(),
      controlParts: new Map([['US', control]]),
    });
    expect(
      status.countries.find((country) => country.country_code === 'US')?.control_part,
    ).not.toBe(control);
  });
});
