import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchInventorySchema } from '#shared/api/inventory.ts';
import {
  operatorWatchStatusSchema,
  publicWatchStatusSchema,
  searchHistorySchema,
} from '#shared/api/watch.ts';
import { createMetrics } from '#server/ops/metrics.ts';
import {
  insertSearch,
  replacePreferredParts,
} from '#server/db/repositories/searches-repository.ts';
import type { SearchRow } from '#server/db/schema.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';
import { listSeedParts, listSeedStores, startWatchHarness, type WatchHarness } from './support.ts';

const MINUTE = 60_000;
const METRICS_TOKEN = 'operator-token-of-this-test';

describe('watch routes', () => {
  let api: ApiHarness;
  let watch: WatchHarness;
  let alice: TestUser;
  let bob: TestUser;
  let search: SearchRow;
  let part: string;
  /** The API with METRICS_TOKEN set, as every started stack has one. */
  let withToken: FastifyInstance;

  async function readStatus(authorization?: string): Promise<unknown> {
    const response = await withToken.inject({
      method: 'GET',
      url: '/v2/status',
      headers: authorization === undefined ? {} : { authorization },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  beforeAll(async () => {
    api = await startApiHarness();
    // The watcher's clock ends near now so the routes (on the real clock) see fresh checks: the
    // harness's address budget promises every target within two intervals.
    watch = await startWatchHarness({ testDb: api.testDb, startMs: Date.now() - 90_000 });
    alice = await api.createUser('alice', 'best');
    bob = await api.createUser('bob', 'best');
    part = listSeedParts('US', 'iphone16pro')[0]!;
    for (const storeId of listSeedStores('en_US'))
      watch.simulator.setStatus(storeId, part, 'unavailable');
    search = await insertSearch(api.testDb.db, {
      user_id: alice.user.id,
      product_type: 'iphone16pro',
      store_id: 'R095',
      include_nearby_store_results: true,
    });
    await replacePreferredParts(api.testDb.db, search.id, [part]);
    await watch.runCycle();
    watch.simulator.setStatus('R095', part, 'available');
    watch.simulator.setStatus('R032', part, 'available');
    watch.advance(MINUTE);
    await watch.runCycle();
    withToken = await api.buildVariant({
      metrics: { registry: createMetrics(api.testDb.db), token: METRICS_TOKEN },
    });
  });
  afterAll(async () => {
    await withToken?.close();
    await watch.close();
    await api.close();
  });

  it('lists restock events of the search’s store and nearby stores with daily counts', async () => {
    const response = await api.call({
      method: 'GET',
      url: `/v2/searches/${search.id}/history?days=3`,
      as: alice,
    });
    expect(response.statusCode, response.body).toBe(200);
    const history = searchHistorySchema.parse(response.json());
    expect(history.days).toBe(3);
    expect(history.daily).toHaveLength(3);
    const restocks = history.events.filter(
      (event) => event.part_number === part && event.to_status === 'available',
    );
    expect(restocks.map((event) => event.store_id).sort()).toEqual(['R032', 'R095']);
    expect(restocks.find((event) => event.store_id === 'R095')).toMatchObject({
      store_name: 'Fifth Avenue',
      distance_miles: 0,
      from_status: 'unavailable',
    });
    expect(restocks.find((event) => event.store_id === 'R032')?.distance_miles).toBeGreaterThan(0);
    expect(history.daily.reduce((sum, day) => sum + day.restocks, 0)).toBeGreaterThanOrEqual(2);
    expect(history.last_checked_at).not.toBeNull();
    expect(history.is_stale).toBe(false);
  });

  it('defaults to seven days and names `days` when it is out of range', async () => {
    const week = searchHistorySchema.parse(
      (
        await api.call({ method: 'GET', url: `/v2/searches/${search.id}/history`, as: alice })
      ).json(),
    );
    expect(week.daily).toHaveLength(7);
    for (const days of ['0', '31', 'soon']) {
      const response = await api.call({
        method: 'GET',
        url: `/v2/searches/${search.id}/history?days=${days}`,
        as: alice,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid_input', field: 'days' });
    }
  });

  it('answers 404 for someone else’s search and 401 without a token', async () => {
    expect(
      (await api.call({ method: 'GET', url: `/v2/searches/${search.id}/history`, as: bob }))
        .statusCode,
    ).toBe(404);
    expect(
      (await api.call({ method: 'GET', url: `/v2/searches/${search.id}/history` })).statusCode,
    ).toBe(401);
  });

  it('shows anyone whether alerts are delayed and each country’s freshness, and the hosts and addresses only with the token', async () => {
    const healthy = publicWatchStatusSchema.strict().parse(await readStatus());
    expect(healthy.is_delayed).toBe(false);
    expect(healthy.countries).toEqual([
      expect.objectContaining({
        country_code: 'US',
        shape: 'pickup-message',
        freshness: expect.objectContaining({
          overdue_groups: 0,
          unchecked_groups: 0,
        }) as unknown,
      }),
    ]);
    const usFreshness = healthy.countries[0].freshness;
    expect(usFreshness.groups).toBeGreaterThan(0);
    expect(usFreshness.newest_check_at).not.toBeNull();
    // A signed-in person's own token is not the operator's.
    expect(await readStatus(`Bearer ${alice.token}`)).toEqual({
      ...healthy,
      checked_at: expect.any(String) as unknown,
    });

    const operator = operatorWatchStatusSchema.parse(await readStatus(`Bearer ${METRICS_TOKEN}`));
    expect(operator.view).toBe('operator');
    expect(operator.hosts).toHaveLength(1);
    expect(operator.hosts[0]).toMatchObject({
      error_rate: 0,
      is_cooling_down: false,
      cool_down_until: null,
    });
    expect(operator.hosts[0].last_success_at).not.toBeNull();
    expect(operator.addresses).toEqual([
      expect.objectContaining({
        label: 'direct test',
        is_cooling_down: false,
        consecutive_blocks: 0,
      }),
    ]);

    watch.simulator.injectFault('541', 300);
    watch.advance(MINUTE);
    const cycle = await watch.runCycle();
    expect(cycle.failed).toBe(1);
    expect(publicWatchStatusSchema.strict().parse(await readStatus()).is_delayed).toBe(true);
    const blocked = operatorWatchStatusSchema.parse(await readStatus(`Bearer ${METRICS_TOKEN}`));
    expect(blocked.is_delayed).toBe(true);
    expect(blocked.hosts[0]).toMatchObject({ is_cooling_down: true, last_failure_kind: 'blocked' });
    expect(blocked.hosts[0].error_rate).toBeGreaterThan(0);
    expect(blocked.addresses[0]).toMatchObject({ is_cooling_down: true, consecutive_blocks: 1 });
  });

  it('says on the inventory that checks are failing instead of passing stale stock as current', async () => {
    const response = await api.call({
      method: 'GET',
      url: `/v2/searches/${search.id}/inventory`,
      as: alice,
    });
    expect(response.statusCode, response.body).toBe(200);
    const inventory = searchInventorySchema.parse(response.json());
    expect(inventory.is_stale).toBe(true);
    expect(inventory.checks_failing_since).not.toBeNull();
    const history = searchHistorySchema.parse(
      (
        await api.call({ method: 'GET', url: `/v2/searches/${search.id}/history`, as: alice })
      ).json(),
    );
    expect(history.is_stale).toBe(true);
  });
});
