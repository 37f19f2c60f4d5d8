// The watch engine against Apple as public reports describe it in late 2026: a dead endpoint
// shape, location seeds, parts Apple refuses, the control part, and egress addresses whose
// budgets are shared by every process and skipped while blocked.
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from 'undici';
import { recordSeedAnswer } from '#server/db/repositories/upstream-knowledge-repository.ts';
import {
  createDispatcherFetch,
  createEgressAddresses,
  labelProxy,
  startWatcher,
  type EgressAddress,
  type RunningWatcher,
} from '#server/watch/index.ts';
import { computeWatchStatus } from '#server/watch/watch-status.ts';
import { startLoopbackProxy, type LoopbackProxy } from '#tests/server/simulator/loopback-proxy.ts';
import {
  listSeedParts,
  listSeedStores,
  readSnapshotStatus,
  startWatchHarness,
  type WatchHarness,
} from './support.ts';

const MINUTE = 60_000;

/** An address through the global fetch that remembers every URL it asked. */
function createRecordingAddress(label = 'direct test'): EgressAddress & { urls: URL[] } {
  const urls: URL[] = [];
  return {
    label,
    kind: 'direct',
    urls,
    fetch: (url, init) => {
      urls.push(new URL(url));
      return fetch(url, init);
    },
    close: () => Promise.resolve(),
  };
}

async function countOutbox(watch: WatchHarness): Promise<number> {
  const row = await watch.db
    .selectFrom('alert_outbox')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startHarness(
  options: Parameters<typeof startWatchHarness>[0] = {},
): Promise<WatchHarness> {
  const watch = await startWatchHarness(options);
  cleanups.push(() => watch.close());
  return watch;
}

describe('the endpoint shape each country answers on', () => {
  it('switches a country to the other shape when the one in use answers 541 and the other answers, and says why', async () => {
    const watch = await startHarness({
      simulator: { pickupMessage: 'dead', fulfillmentMessages: 'alive' },
    });
    const part = listSeedParts('US', 'iphone16')[0];
    const user = await watch.createUser('premium', 'best');
    await watch.createSearch(user, {
      productId: 'iphone16',
      storeId: 'R095',
      preferred: [part],
    });

    const first = await watch.runCycle();
    expect(first).toMatchObject({ requests: 1, failed: 1 });
    // Never retried at once: the address waits out its cool-down before the other shape is tried.
    watch.advance(6 * MINUTE);
    const second = await watch.runCycle();
    expect(second).toMatchObject({ requests: 1, polled: 1, failed: 0 });
    const status = await computeWatchStatus(watch.db, { now: watch.now() });
    expect(status.countries).toEqual([
      expect.objectContaining({ country_code: 'US', shape: 'fulfillment-messages' }),
    ]);
    expect(status.countries[0].reason).toMatch(
      /pickup-message answered HTTP 541 at .* while fulfillment-messages answered/,
    );
    expect(await readSnapshotStatus(watch.db, 'R095', part)).toBeDefined();

    // It stays there, and tries pickup-message again only after an hour.
    watch.advance(6 * MINUTE);
    expect(await watch.runCycle()).toMatchObject({ polled: 1, failed: 0 });
    watch.advance(61 * MINUTE);
    expect(await watch.runCycle()).toMatchObject({ requests: 1, failed: 1 });
    expect((await computeWatchStatus(watch.db, { now: watch.now() })).countries[0].shape).toBe(
      'fulfillment-messages',
    );
  });
});

describe('location seeds', () => {
  it('asks one location for nearby stores and learns the list its answer carried', async () => {
    const address = createRecordingAddress();
    const watch = await startHarness({ addresses: [address] });
    const user = await watch.createUser('premium', 'best');
    const part = listSeedParts('US', 'iphone16')[0];
    await watch.createSearch(user, { productId: 'iphone16', storeId: 'R095', preferred: [part] });
    await watch.createSearch(user, { productId: 'iphone16', storeId: 'R032', preferred: [] });
    await watch.createSearch(user, { productId: 'airpods', storeId: 'R032', preferred: [] });
    // The first cycle asks each store's own postal code and learns what the answers list.
    await watch.runCycle();
    const seed = await watch.db
      .selectFrom('location_seeds')
      .selectAll()
      .where('seed_store_id', '=', 'R095')
      .executeTakeFirstOrThrow();
    expect(seed).toMatchObject({ location: '10153' });
    expect(seed.store_ids).toContain('R032');
    address.urls.length = 0;
    watch.advance(MINUTE);
    const cycle = await watch.runCycle();
    // Then both New York stores and both types come in one request.
    expect(cycle.requests).toBe(1);
    const asked = address.urls[0];
    expect(asked.pathname).toBe('/shop/retail/pickup-message');
    expect(['10153', '10012']).toContain(asked.searchParams.get('location'));
    expect(asked.searchParams.has('store')).toBe(false);
    const parts = [...asked.searchParams].filter(([key]) => key.startsWith('parts.'));
    expect(parts.length).toBe(
      listSeedParts('US', 'iphone16').length + listSeedParts('US', 'airpods').length,
    );
    const targets = await watch.db.selectFrom('poll_targets').select('last_covered_at').execute();
    expect(targets.every((target) => target.last_covered_at?.getTime() === watch.now())).toBe(true);
  });

  it('asks a store alone with store= when no seed’s answer lists it', async () => {
    const address = createRecordingAddress();
    const watch = await startHarness({ addresses: [address] });
    const user = await watch.createUser('premium', 'best');
    await watch.createSearch(user, { productId: 'iphone16', storeId: 'R095', preferred: [] });
    // What an answer for R095's own postal code taught: it listed other stores, not R095.
    await recordSeedAnswer(watch.db, {
      country_code: 'US',
      seed_store_id: 'R095',
      location: '10153',
      store_ids: ['R032'],
      at: new Date(watch.now()),
    });
    const cycle = await watch.runCycle();
    expect(cycle).toMatchObject({ requests: 1, polled: 1 });
    expect(address.urls[0].searchParams.get('store')).toBe('R095');
    expect(address.urls[0].searchParams.has('location')).toBe(false);
    const [target] = await watch.db.selectFrom('poll_targets').select('last_covered_at').execute();
    expect(target.last_covered_at?.getTime()).toBe(watch.now());
  });
});

describe('alerting sweeps', () => {
  it('asks only the preferred parts of alerting searches between full sweeps', async () => {
    const address = createRecordingAddress();
    // Two requests a minute for a full sweep of two and an alerting sweep of one.
    const watch = await startHarness({ addresses: [address], ratePerMinute: 2 });
    const user = await watch.createUser('premium', 'best');
    const preferred = listSeedParts('US', 'iphone16')[1];
    await watch.createSearch(user, {
      productId: 'iphone16',
      storeId: 'R095',
      preferred: [preferred],
    });
    await watch.createSearch(user, { productId: 'iphone16', storeId: 'R075', preferred: [] });
    expect(await watch.runCycle()).toMatchObject({ requests: 2, polled: 2 });
    address.urls.length = 0;
    watch.advance(MINUTE);
    await watch.runCycle();
    const first = address.urls[0];
    const parts = [...first.searchParams]
      .filter(([key]) => key.startsWith('parts.'))
      .map(([, value]) => value);
    expect(parts).toContain(preferred);
    // The preferred part, and at most the country's control part besides.
    expect(parts.length).toBeLessThanOrEqual(2);
    const alerting = await watch.db
      .selectFrom('poll_targets')
      .select(['last_alert_covered_at', 'last_covered_at'])
      .where('store_id', '=', 'R095')
      .executeTakeFirstOrThrow();
    expect(alerting.last_alert_covered_at?.getTime()).toBe(watch.now());
    expect(alerting.last_covered_at?.getTime()).toBeLessThan(watch.now());
  });
});

describe('parts Apple refuses', () => {
  it('finds a part Apple leaves out by asking it alone, leaves it out from then on and shows it on the status page', async () => {
    const address = createRecordingAddress();
    const watch = await startHarness({ addresses: [address], controlParts: new Map() });
    await watch.db
      .insertInto('product_models')
      .values({
        product_id: 'iphone16',
        country_code: 'US',
        part_number: 'ZZ999LL/A',
        display_name: 'iPhone 16 (not sold)',
        source: 'test: a part the simulated Apple does not sell',
      })
      .execute();
    const user = await watch.createUser('premium', 'best');
    const part = listSeedParts('US', 'iphone16')[0];
    await watch.createSearch(user, { productId: 'iphone16', storeId: 'R095', preferred: [part] });
    const cycle = await watch.runCycle();
    expect(cycle).toMatchObject({ polled: 1, failed: 0 });
    // Left out of every store beside the good parts, then asked alone: empty content.
    expect(cycle.requests).toBe(2);
    const invalid = await watch.db.selectFrom('invalid_parts').selectAll().execute();
    expect(invalid.map((row) => row.part_number)).toEqual(['ZZ999LL/A']);
    expect(await readSnapshotStatus(watch.db, 'R095', part)).toBeDefined();
    // Never a status: at most the unknown its first answer left it with.
    expect([undefined, 'unknown']).toContain(
      await readSnapshotStatus(watch.db, 'R095', 'ZZ999LL/A'),
    );
    const status = await computeWatchStatus(watch.db, { now: watch.now() });
    expect(status.invalid_parts).toEqual([
      expect.objectContaining({ country_code: 'US', part_number: 'ZZ999LL/A' }),
    ]);

    address.urls.length = 0;
    watch.advance(MINUTE);
    expect(await watch.runCycle()).toMatchObject({ requests: 1, polled: 1 });
    const asked = [...address.urls[0].searchParams.values()];
    expect(asked).toContain(part);
    expect(asked).not.toContain('ZZ999LL/A');
  });
});

describe('the control part', () => {
  it('does not believe an answer where the control part is unavailable at every store: no alert, nothing written', async () => {
    const control = listSeedParts('US', 'iphone16plus')[0];
    const watch = await startHarness({ controlParts: new Map([['US', control]]) });
    const part = listSeedParts('US', 'iphone16')[0];
    const stores = listSeedStores('en_US');
    for (const storeId of stores) {
      watch.simulator.setStatus(storeId, part, 'unavailable');
      watch.simulator.setStatus(storeId, control, 'available');
    }
    const user = await watch.createUser('premium', 'best');
    await watch.createSearch(user, {
      productId: 'iphone16',
      storeId: 'R095',
      preferred: [part],
    });
    expect(await watch.runCycle()).toMatchObject({ polled: 1, failed: 0 });
    expect(await readSnapshotStatus(watch.db, 'R095', part)).toBe('unavailable');

    // A silent block: even the part that is always there reads unavailable everywhere.
    for (const storeId of stores) watch.simulator.setStatus(storeId, control, 'unavailable');
    watch.simulator.setStatus('R095', part, 'available');
    watch.advance(MINUTE);
    const doubted = await watch.runCycle();
    expect(doubted).toMatchObject({ failed: 1, alertsEnqueued: 0 });
    expect(await countOutbox(watch)).toBe(0);
    const [snapshot] = await watch.db
      .selectFrom('availability_snapshots')
      .select(['status', 'observed_at'])
      .where('store_id', '=', 'R095')
      .where('part_number', '=', part)
      .execute();
    expect(snapshot).toMatchObject({ status: 'unavailable' });
    expect(snapshot.observed_at.getTime()).toBe(watch.now() - MINUTE);
    // The search shows its checks failing, as for a failed request.
    const [target] = await watch.db
      .selectFrom('poll_targets')
      .select(['consecutive_failures', 'last_failure_kind'])
      .execute();
    expect(target).toEqual({ consecutive_failures: 1, last_failure_kind: 'implausible' });

    // The control part is back: the restock is believed and alerts.
    watch.simulator.setStatus('R095', control, 'available');
    watch.advance(MINUTE);
    const believed = await watch.runCycle();
    expect(believed.alertsEnqueued).toBeGreaterThan(0);
    const status = await computeWatchStatus(watch.db, {
      now: watch.now(),
      controlParts: new Map([['US', control]]),
    });
    expect(status.countries.find((country) => country.country_code === 'US')).toMatchObject({
      control_part: control,
    });
  });

  it('takes no control in a launch week: a part in stock at one store does not cast doubt on other areas', async () => {
    const watch = await startHarness({ controlParts: new Map() });
    const part = listSeedParts('US', 'iphone16')[0];
    for (const storeId of listSeedStores('en_US')) {
      for (const seedPart of listSeedParts('US', 'iphone16'))
        watch.simulator.setStatus(storeId, seedPart, 'unavailable');
    }
    const user = await watch.createUser('premium', 'best');
    await watch.createSearch(user, {
      productId: 'iphone16',
      storeId: 'R095',
      preferred: [part],
    });
    await watch.createSearch(user, {
      productId: 'iphone16',
      storeId: 'R075',
      preferred: [part],
    });
    expect(await watch.runCycle()).toMatchObject({ failed: 0 });

    // New York gets one phone; San Francisco's answers still read all-negative for it.
    watch.simulator.setStatus('R095', part, 'available');
    watch.advance(MINUTE);
    const cycle = await watch.runCycle();
    expect(cycle).toMatchObject({ failed: 0 });
    expect(cycle.alertsEnqueued).toBeGreaterThan(0);
    watch.advance(MINUTE);
    expect(await watch.runCycle()).toMatchObject({ failed: 0 });
    const [target] = await watch.db
      .selectFrom('poll_targets')
      .select(['consecutive_failures', 'last_failure_kind'])
      .where('store_id', '=', 'R075')
      .execute();
    expect(target).toEqual({ consecutive_failures: 0, last_failure_kind: null });
    const status = await computeWatchStatus(watch.db, { now: watch.now() });
    expect(status.countries.find((country) => country.country_code === 'US')).toMatchObject({
      control_part: null,
    });
  });
});

describe('egress addresses', () => {
  it('keeps two watchers on one address within that address’s one bucket, counted at the simulator', async () => {
    const watch = await startHarness({ startMs: Date.now() });
    const user = await watch.createUser('premium', 'best');
    // Far-apart stores in four countries: no answer covers another, so there is always work.
    for (const [productId, storeId] of [
      ['iphone16', 'R095'],
      ['iphone16', 'R075'],
      ['iphone16', 'R035'],
      ['iphone16', 'R072'],
      ['iphone16', 'R050'],
    ] as const) {
      await watch.createSearch(user, { productId, storeId, preferred: [] });
    }
    const started = Date.now();
    const before = watch.simulator.getRequestCount();
    const watchers: RunningWatcher[] = [];
    for (let index = 0; index < 2; index += 1) {
      watchers.push(
        await startWatcher({
          db: watch.db,
          connectionString: watch.testDb.url,
          baseUrl: watch.simulator.url,
          pollIntervalSeconds: 1,
          upstreamRatePerMinute: 12,
          upstreamBurst: 2,
          quietWindowMinutes: 30,
          controlParts: new Map(),
          // The same address in both, as two processes on one machine share its route.
          addresses: [{ ...watch.deps.pool.addresses[0], label: 'direct shared-machine' }],
        }),
      );
    }
    cleanups.push(async () => {
      for (const watcher of watchers) await watcher.stop();
    });
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    for (const watcher of watchers) await watcher.stop();
    watchers.length = 0;
    const elapsedMinutes = (Date.now() - started) / MINUTE;
    const sent = watch.simulator.getRequestCount() - before;
    // One bucket: the burst plus the rate for the time elapsed (two buckets would allow twice).
    expect(sent).toBeGreaterThanOrEqual(2);
    expect(sent).toBeLessThanOrEqual(2 + Math.ceil(12 * elapsedMinutes));
  }, 60_000);

  it('moves a blocked proxy’s share to the other proxy', async () => {
    const proxies: LoopbackProxy[] = [
      await startLoopbackProxy('127.0.0.2'),
      await startLoopbackProxy('127.0.0.3'),
    ];
    cleanups.push(async () => {
      for (const proxy of proxies) await proxy.close();
    });
    const addresses = createEgressAddresses({
      proxies: proxies.map((proxy) => proxy.url),
      isDirect: false,
      allowH2: false,
    });
    cleanups.push(async () => {
      for (const address of addresses) await address.close();
    });
    const watch = await startHarness({
      addresses,
      simulator: { blockAfterRequests: 4, blockWindowSeconds: 600, blockSeconds: 600 },
    });
    const user = await watch.createUser('premium', 'best');
    for (const storeId of ['R095', 'R075']) {
      await watch.createSearch(user, { productId: 'iphone16', storeId, preferred: [] });
    }
    // Both proxies answer: equal buckets are taken in label order, then the fuller one.
    expect(await watch.runCycle()).toMatchObject({ requests: 2, polled: 2, failed: 0 });
    // Apple blocks the proxy the engine asks first (trip it at the simulator).
    const [blocked, open] = [...proxies].sort((a, b) =>
      labelProxy(a.url).localeCompare(labelProxy(b.url)),
    ) as [LoopbackProxy, LoopbackProxy];
    const tripped = new Agent({ localAddress: blocked.egressAddress });
    cleanups.push(() => tripped.close());
    for (let request = 0; request < 5; request += 1) {
      await createDispatcherFetch(tripped)(`${watch.simulator.url}/shop/retail/pickup-message`, {
        method: 'GET',
        headers: {},
      });
    }
    watch.advance(MINUTE);
    const cycle = await watch.runCycle();
    // The first request is refused through the blocked proxy; the other store goes through the
    // other one, on the same shape: the other proxy's answers show the endpoint is alive.
    expect(cycle).toMatchObject({ requests: 2, polled: 1, failed: 1 });
    watch.advance(MINUTE);
    // While the blocked proxy cools down, the other carries every request.
    expect(await watch.runCycle()).toMatchObject({ requests: 2, polled: 2, failed: 0 });
    const counts = watch.simulator.getAddressCounts();
    expect(counts.get(open.egressAddress)).toMatchObject({ requests: 4, answered541: 0 });
    expect(counts.get(blocked.egressAddress)).toMatchObject({ requests: 7 });
    const status = await computeWatchStatus(watch.db, { now: watch.now() });
    expect(status.addresses.map((address) => address.label)).toEqual(
      [blocked, open].map((proxy) => labelProxy(proxy.url)),
    );
    expect(status.addresses.filter((address) => address.is_cooling_down)).toEqual([
      expect.objectContaining({ label: labelProxy(blocked.url), kind: 'proxy' }),
    ]);
    // One address of two still asks: alerts are not delayed.
    expect(status.is_delayed).toBe(false);
  });
});
