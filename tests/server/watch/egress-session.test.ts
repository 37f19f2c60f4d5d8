import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_MODEL_SEEDS } from '#shared/catalog/index.ts';
import { fetchPickupAvailability, type UpstreamResult } from '#shared/upstream/index.ts';
import type { PickupAnswer } from '#shared/upstream/types.ts';
import type { WarmUpEvent } from '#shared/upstream/session-warm-up.ts';
import { startUpstreamSimulator } from '#server/simulator/index.ts';
import { createEgressAddresses, labelProxy } from '#server/watch/egress-agents.ts';
import type { EgressAddress } from '#server/watch/egress.ts';
import { startLoopbackProxy, type LoopbackProxy } from '#tests/server/simulator/loopback-proxy.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { startSimulatorHarness, type SimulatorHarness } from '#tests/server/simulator/support.ts';

// Each egress address is one browser session: before its first pickup request it visits the
// country's bag page at the simulator, keeps the cookie, and starts over after a block. The
// simulator's bag page neither counts toward the address's budget nor is refused while the
// address is blocked (server/simulator/bag-page.ts says why).

const GB_PART = PRODUCT_MODEL_SEEDS.find((model) => model.country_code === 'GB')!.part_number;

describe('egress addresses as browser sessions', () => {
  let harness: SimulatorHarness;
  const proxies: LoopbackProxy[] = [];
  const addresses: EgressAddress[] = [];
  let events: { label: string; event: WarmUpEvent }[] = [];

  beforeAll(async () => {
    // Two pickup requests per address, then the third trips its block for a minute.
    harness = await startSimulatorHarness({
      behaviour: { blockAfterRequests: 2, blockWindowSeconds: 600, blockSeconds: 60 },
    });
  });
  afterEach(async () => {
    for (const address of addresses.splice(0)) await address.close();
    for (const proxy of proxies.splice(0)) await proxy.close();
    harness.simulator.liftBlocks();
  });
  afterAll(async () => harness.close());

  async function createAddresses(egress: string[]): Promise<void> {
    events = [];
    proxies.push(
      ...(await Promise.all(egress.map(async (address) => await startLoopbackProxy(address)))),
    );
    addresses.push(
      ...createEgressAddresses({
        proxies: proxies.map((proxy) => proxy.url),
        isDirect: false,
        allowH2: false,
        onWarmUp: (label, event) => events.push({ label, event }),
      }),
    );
  }

  async function ask(address: EgressAddress): Promise<UpstreamResult<PickupAnswer>> {
    return await fetchPickupAvailability(
      {
        fetch: address.fetch,
        now: Date.now,
        baseUrl: harness.simulator.url,
        shape: 'pickup-message',
        fallbackShape: false,
      },
      { countryCode: 'GB', storeNumber: 'R092', partNumbers: [GB_PART], searchNearby: false },
    );
  }

  it('opens one session per address on the country’s bag page before its first pickup request', async () => {
    await createAddresses(['127.0.0.2', '127.0.0.3']);
    for (const address of addresses) {
      expect((await ask(address)).ok).toBe(true);
      expect((await ask(address)).ok).toBe(true);
    }
    expect(events).toEqual(
      proxies.map((proxy) => ({
        label: labelProxy(proxy.url),
        event: expect.objectContaining({
          url: `${harness.simulator.url}/uk/shop/bag`,
          outcome: 'warm',
          status: 200,
          cookieNames: ['dssid2'],
        }) as WarmUpEvent,
      })),
    );
    // Two pickup requests each reached the simulator; the bag page is not one of them.
    const counts = harness.simulator.getAddressCounts();
    expect(counts.get('127.0.0.2')?.requests).toBe(2);
    expect(counts.get('127.0.0.3')?.requests).toBe(2);
  });

  it('starts a new session after a block, and the blocked address still gets the bag page', async () => {
    await createAddresses(['127.0.0.4']);
    const [address] = addresses as [EgressAddress];
    await ask(address);
    await ask(address);
    expect(await ask(address)).toMatchObject({
      ok: false,
      failure: { kind: 'blocked', httpStatus: 541 },
    });
    // Asked again while the simulator still blocks it: a new visit first, answered.
    expect(await ask(address)).toMatchObject({ ok: false, failure: { kind: 'blocked' } });
    expect(events.map(({ event }) => [event.outcome, event.status])).toEqual([
      ['warm', 200],
      ['warm', 200],
    ]);
    expect(harness.simulator.getAddressCounts().get('127.0.0.4')).toMatchObject({
      requests: 4,
      blocks: 1,
    });
  });

  it('answers 404 for a bag page of a country the store does not serve', async () => {
    const page = await harness.getFrom('/zz/shop/bag');
    expect(page.status).toBe(404);
    expect(page.contentType).toContain('text/html');
  });

  it('sets an HttpOnly session cookie for the whole store on its HTML page, at every country path', async () => {
    // Hong Kong's store path has two segments (hk/en); the seed catalog has no Hong Kong.
    const simulator = await startUpstreamSimulator({
      port: await getFreePort(),
      stores: [],
      models: [],
      countries: [
        { country_code: 'US', locale_code: 'en_US', display_name: 'United States' },
        { country_code: 'HK', locale_code: 'en_HK', display_name: 'Hong Kong' },
      ],
    });
    try {
      const sessions = new Set<string>();
      for (const path of ['/shop/bag', '/hk/en/shop/bag', '/hk/en/shop/bag']) {
        const response = await fetch(`${simulator.url}${path}`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toContain('text/html');
        expect(response.headers.get('cache-control')).toBe('no-cache, no-store');
        const cookies = response.headers.getSetCookie();
        expect(cookies).toEqual([
          expect.stringMatching(/^dssid2=[0-9a-f-]{36}; Path=\/; HttpOnly$/),
        ]);
        sessions.add(cookies[0]);
        expect(await response.text()).toContain('Your bag is empty.');
      }
      // Each visit a session of its own; none of them a pickup request.
      expect(sessions.size).toBe(3);
      expect(simulator.getRequestCount()).toBe(0);
      // New Zealand has no Apple Store, so the simulator has no store there.
      expect((await fetch(`${simulator.url}/nz/shop/bag`)).status).toBe(404);
    } finally {
      await simulator.close();
    }
  });
});
