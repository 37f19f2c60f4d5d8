import { ProxyAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackProxy, type LoopbackProxy } from './loopback-proxy.ts';
import {
  BROWSER_HEADERS,
  buildPickupQuery,
  listCountryParts,
  startSimulatorHarness,
  type SimulatorHarness,
} from './support.ts';

// Local proxies stand for egress addresses: each proxy's onward address has its own budget
// at the simulator, as each proxy of UPSTREAM_PROXIES has at Apple.

describe('egress through local proxies', () => {
  let harness: SimulatorHarness;
  let proxies: LoopbackProxy[];
  let agents: ProxyAgent[];
  beforeAll(async () => {
    harness = await startSimulatorHarness({ behaviour: { blockAfterRequests: 3 } });
    proxies = [await startLoopbackProxy('127.0.0.21'), await startLoopbackProxy('127.0.0.22')];
    agents = proxies.map((proxy) => new ProxyAgent(proxy.url));
  });
  afterAll(async () => {
    await Promise.all(agents.map(async (agent) => agent.close()));
    await Promise.all(proxies.map(async (proxy) => proxy.close()));
    await harness.close();
  });

  async function askThrough(agent: ProxyAgent | undefined): Promise<number> {
    const query = buildPickupQuery(listCountryParts('US', 2), { location: 'Chicago' });
    const response = await fetch(
      `http://127.0.0.1:${harness.simulator.port}/shop/retail/pickup-message?${query}`,
      { headers: BROWSER_HEADERS, dispatcher: agent } as RequestInit,
    );
    await response.arrayBuffer();
    return response.status;
  }

  it('gives each proxy’s address its own budget, apart from the direct route', async () => {
    const [first, second] = agents;
    const statuses = { first: [] as number[], second: [] as number[], direct: [] as number[] };
    for (let index = 0; index < 4; index += 1) statuses.first.push(await askThrough(first));
    for (let index = 0; index < 3; index += 1) statuses.second.push(await askThrough(second));
    statuses.direct.push(await askThrough(undefined));
    expect(statuses).toEqual({
      first: [200, 200, 200, 541],
      second: [200, 200, 200],
      direct: [200],
    });
    const counts = harness.simulator.getAddressCounts();
    expect(counts.get('127.0.0.21')).toMatchObject({ requests: 4, answered541: 1, blocks: 1 });
    expect(counts.get('127.0.0.22')).toMatchObject({ requests: 3, answered541: 0, blocks: 0 });
    expect(counts.get('127.0.0.1')).toMatchObject({ requests: 1 });
    expect(proxies.map((proxy) => proxy.getUseCount() > 0)).toEqual([true, true]);
  });
});
