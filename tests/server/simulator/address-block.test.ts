import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createAddressBudget, normalizeCallerAddress } from '#server/simulator/address-budget.ts';
import { renderErrorPage } from '#server/simulator/faults.ts';
import {
  buildPickupQuery,
  listCountryParts,
  startSimulatorHarness,
  type SimulatorHarness,
  BROWSER_HEADERS,
} from './support.ts';

// The per-address block, seen over real HTTP: loopback aliases (127.0.0.2, ...) stand for
// separate egress addresses, and the simulator's clock is moved by hand.

const PATH = `/shop/retail/pickup-message?${buildPickupQuery(listCountryParts('US', 3), { location: '10153' })}`;

type AddressReport = {
  requests: number;
  requests_in_window: number;
  answered_541: number;
  blocked_answers: number;
  blocks: number;
  blocked_until: string | null;
};

describe('per-caller-address block', () => {
  let harness: SimulatorHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  async function askTimes(
    times: number,
    address?: string,
    headers?: Record<string, string>,
  ): Promise<number[]> {
    const statuses: number[] = [];
    for (let index = 0; index < times; index += 1) {
      statuses.push((await harness!.getFrom(PATH, { address, headers })).status);
    }
    return statuses;
  }

  async function readAddresses(): Promise<Record<string, AddressReport>> {
    const response = await harness!.control('GET', '/_sim/requests');
    return (response.json as { by_address: Record<string, AddressReport> }).by_address;
  }

  it('answers 30 requests from one address, then 541 with the fault page for 10 minutes, by default', async () => {
    harness = await startSimulatorHarness();
    expect(await askTimes(30)).toEqual(Array<number>(30).fill(200));
    const blocked = await harness.getFrom(PATH);
    expect(blocked.status).toBe(541);
    expect(blocked.contentType).toContain('text/html');
    expect(blocked.text).toBe(renderErrorPage());
    const report = (await readAddresses())['127.0.0.1'];
    expect(report).toMatchObject({ requests: 31, answered_541: 1, blocked_answers: 1, blocks: 1 });
    // Blocked from the 31st request (at the start time) for 600 s.
    expect(report?.blocked_until).toBe(new Date(Date.UTC(2026, 0, 15, 12, 10, 0)).toISOString());

    harness.advanceClock(599_000);
    // Still blocked 599 s later; that retry restarts the 600 s.
    expect((await harness.getFrom(PATH)).status).toBe(541);
    harness.advanceClock(599_000);
    expect((await harness.getFrom(PATH)).status).toBe(541);
    harness.advanceClock(600_000);
    // Quiet for a whole block: a fresh budget of 30.
    expect(await askTimes(30)).toEqual(Array<number>(30).fill(200));
    expect((await harness.getFrom(PATH)).status).toBe(541);
    expect((await readAddresses())['127.0.0.1']).toMatchObject({
      requests: 64,
      answered_541: 4,
      blocked_answers: 4,
      blocks: 2,
    });
  });

  it('gives each caller address its own budget', async () => {
    harness = await startSimulatorHarness({ behaviour: { blockAfterRequests: 5 } });
    expect(await askTimes(6, '127.0.0.2')).toEqual([200, 200, 200, 200, 200, 541]);
    // 127.0.0.2 is blocked; 127.0.0.3 and the default route are untouched.
    expect(await askTimes(5, '127.0.0.3')).toEqual([200, 200, 200, 200, 200]);
    expect(await askTimes(1)).toEqual([200]);
    expect(await askTimes(1, '127.0.0.2')).toEqual([541]);
    const addresses = await readAddresses();
    expect(addresses['127.0.0.2']).toMatchObject({ requests: 7, answered_541: 2, blocks: 1 });
    expect(addresses['127.0.0.2']?.blocked_until).not.toBeNull();
    expect(addresses['127.0.0.3']).toMatchObject({
      requests: 5,
      requests_in_window: 5,
      answered_541: 0,
      blocked_until: null,
    });
    expect(addresses['127.0.0.1']).toMatchObject({ requests: 1, answered_541: 0 });

    // The simulator's own URL (localhost) reaches it from an alias too.
    const agent = new Agent({ localAddress: '127.0.0.10' });
    try {
      const response = await fetch(`${harness.simulator.url}${PATH}`, {
        headers: BROWSER_HEADERS,
        dispatcher: agent,
      } as RequestInit);
      await response.arrayBuffer();
      expect(response.status).toBe(200);
    } finally {
      await agent.close();
    }
    expect((await readAddresses())['127.0.0.10']?.requests).toBe(1);
  });

  it('reads an IPv4 caller of a dual-stack listener as its IPv4 address', async () => {
    harness = await startSimulatorHarness({ host: '::', behaviour: { blockAfterRequests: 1 } });
    expect(await askTimes(2, '127.0.0.9')).toEqual([200, 541]);
    expect(Object.keys(await readAddresses())).toEqual(['127.0.0.9']);
  });

  it('keys the block on the socket’s address, not on X-Forwarded-For or cookies', async () => {
    harness = await startSimulatorHarness({ behaviour: { blockAfterRequests: 3 } });
    const statuses: number[] = [];
    for (let index = 0; index < 4; index += 1) {
      const headers = { 'x-forwarded-for': `203.0.113.${index}`, cookie: `session=${index}` };
      statuses.push(...(await askTimes(1, '127.0.0.4', headers)));
    }
    expect(statuses).toEqual([200, 200, 200, 541]);
    expect(Object.keys(await readAddresses())).toEqual(['127.0.0.4']);
  });

  it('counts requests in a sliding window: the same requests spread out never trip it', async () => {
    harness = await startSimulatorHarness({
      behaviour: { blockAfterRequests: 4, blockWindowSeconds: 60, blockSeconds: 120 },
    });
    // One request every 16 s: never more than 4 in any 60 s.
    for (let index = 0; index < 12; index += 1) {
      expect(await askTimes(1, '127.0.0.5')).toEqual([200]);
      harness.advanceClock(16_000);
    }
    // Five within a minute trip it, for 120 s from the latest request.
    harness.advanceClock(60_000);
    expect(await askTimes(5, '127.0.0.5')).toEqual([200, 200, 200, 200, 541]);
    harness.advanceClock(119_000);
    expect(await askTimes(1, '127.0.0.5')).toEqual([541]);
    harness.advanceClock(120_000);
    expect(await askTimes(1, '127.0.0.5')).toEqual([200]);
  });

  it('counts requests to the dead fulfillment-messages endpoint toward the block', async () => {
    harness = await startSimulatorHarness({ behaviour: { blockAfterRequests: 3 } });
    const deadPath = PATH.replace('/shop/retail/pickup-message', '/shop/fulfillment-messages');
    for (let index = 0; index < 3; index += 1) {
      expect((await harness.getFrom(deadPath, { address: '127.0.0.6' })).status).toBe(541);
    }
    // The budget is spent on 541s: pickup-message is blocked too.
    const blocked = await harness.getFrom(PATH, { address: '127.0.0.6' });
    expect(blocked.status).toBe(541);
    expect(blocked.text).toBe(renderErrorPage());
    expect((await readAddresses())['127.0.0.6']).toMatchObject({
      requests: 4,
      answered_541: 4,
      blocked_answers: 1,
    });
  });

  it('does not block when blockAfterRequests is 0, and still counts per address', async () => {
    harness = await startSimulatorHarness({ behaviour: { blockAfterRequests: 0 } });
    expect((await askTimes(40, '127.0.0.7')).every((status) => status === 200)).toBe(true);
    expect((await readAddresses())['127.0.0.7']).toMatchObject({
      requests: 40,
      answered_541: 0,
      blocks: 0,
      blocked_until: null,
    });
  });

  it('lifts every block and forgets the counts on DELETE /_sim/blocks', async () => {
    harness = await startSimulatorHarness({ behaviour: { blockAfterRequests: 2 } });
    await askTimes(3, '127.0.0.2');
    await askTimes(3, '127.0.0.3');
    await askTimes(1, '127.0.0.4');
    expect(await harness.control('DELETE', '/_sim/blocks')).toEqual({
      status: 200,
      json: { lifted: 2, cleared_addresses: 3 },
    });
    expect(await readAddresses()).toEqual({});
    expect(await askTimes(2, '127.0.0.2')).toEqual([200, 200]);
    // The in-process handle does the same.
    expect(await askTimes(1, '127.0.0.2')).toEqual([541]);
    expect(harness.simulator.getAddressCounts().get('127.0.0.2')?.blocks).toBe(1);
    expect(harness.simulator.liftBlocks()).toBe(1);
    expect(await askTimes(1, '127.0.0.2')).toEqual([200]);
  });

  it('reports the block settings and the 541 total in /_sim/state', async () => {
    harness = await startSimulatorHarness({ behaviour: { blockAfterRequests: 1 } });
    await askTimes(3, '127.0.0.8');
    const state = (await harness.control('GET', '/_sim/state')).json as {
      settings: unknown;
      requests: { total: number; answered_541: number; by_address: Record<string, unknown> };
    };
    expect(state.settings).toEqual({
      fulfillment_messages: 'dead',
      pickup_message: 'alive',
      block_after_requests: 1,
      block_window_seconds: 600,
      block_seconds: 600,
    });
    expect(state.requests).toMatchObject({
      total: 3,
      answered_541: 2,
      by_address: { '127.0.0.8': { requests: 3, answered_541: 2 } },
    });
  });
});

describe('caller address and budget rules', () => {
  it('reads IPv4-mapped IPv6 peers as IPv4 and keeps other addresses as they are', () => {
    expect(normalizeCallerAddress('::ffff:127.0.0.2')).toBe('127.0.0.2');
    expect(normalizeCallerAddress('::FFFF:10.1.2.3')).toBe('10.1.2.3');
    expect(normalizeCallerAddress('127.0.0.3')).toBe('127.0.0.3');
    expect(normalizeCallerAddress('::1')).toBe('::1');
    expect(normalizeCallerAddress(undefined)).toBe('unknown');
  });

  it('keeps a retried block tripped until the address has been quiet for the whole block', () => {
    let nowMs = 0;
    const budget = createAddressBudget({
      now: () => nowMs,
      blockAfterRequests: 2,
      blockWindowSeconds: 600,
      blockSeconds: 600,
    });
    const admit = (): boolean => budget.admit('a').isAllowed;
    expect([admit(), admit(), admit()]).toEqual([true, true, false]);
    // A retry every 5 minutes for an hour never gets through.
    for (let minute = 5; minute <= 60; minute += 5) {
      nowMs = minute * 60_000;
      expect(admit()).toBe(false);
    }
    nowMs += 600_000;
    expect(admit()).toBe(true);
    expect(budget.listAddresses().get('a')).toMatchObject({
      requests: 16,
      blockedAnswers: 13,
      blocks: 1,
      blockedUntil: null,
      requestsInWindow: 1,
    });
  });
});
