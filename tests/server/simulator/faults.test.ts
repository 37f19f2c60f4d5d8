import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PickupRequest, UpstreamFailure, UpstreamResult } from '#shared/upstream/index.ts';
import { LEGACY_SIMULATOR_BEHAVIOUR } from '#server/simulator/index.ts';
import { listPartNumbers, startSimulatorHarness, type SimulatorHarness } from './support.ts';

const REQUEST: PickupRequest = {
  countryCode: 'US',
  storeNumber: 'R095',
  partNumbers: listPartNumbers('US', 'iphone16'),
};

function expectFailure(result: UpstreamResult<unknown>): UpstreamFailure {
  if (result.ok) throw new Error('Expected a failure, got stores');
  return result.failure;
}

describe('upstream simulator faults', () => {
  let harness: SimulatorHarness;
  beforeAll(async () => {
    harness = await startSimulatorHarness({ behaviour: LEGACY_SIMULATOR_BEHAVIOUR });
  });
  afterEach(() => harness.simulator.clearFault());
  afterAll(async () => harness.close());

  it('turns a 541 fault into a block with a cool-down, asked once', async () => {
    const before = harness.simulator.getRequestCount();
    expect(
      (await harness.control('POST', '/_sim/fault', { kind: '541', seconds: 60 })).status,
    ).toBe(200);
    const failure = expectFailure(await harness.ask(REQUEST));
    // How long the client cools down is its own choice (shared/upstream/failures.ts).
    expect(failure).toMatchObject({ kind: 'blocked', httpStatus: 541 });
    expect(failure.coolDownSeconds).toBeGreaterThan(0);
    expect(harness.simulator.getRequestCount() - before).toBe(1);
  });

  it('sends Retry-After on a 541 only when the fault asks for one', async () => {
    await harness.control('POST', '/_sim/fault', {
      kind: '541',
      seconds: 60,
      retry_after_seconds: 42,
    });
    expect(expectFailure(await harness.ask(REQUEST))).toMatchObject({
      kind: 'blocked',
      coolDownSeconds: 42,
    });
  });

  it('turns a 503 fault into a block', async () => {
    harness.simulator.injectFault('503', 60);
    expect(expectFailure(await harness.ask(REQUEST))).toMatchObject({
      kind: 'blocked',
      httpStatus: 503,
      coolDownSeconds: 300,
    });
  });

  it('turns an html fault into an HTML failure, not stock', async () => {
    harness.simulator.injectFault('html', 60);
    expect(expectFailure(await harness.ask(REQUEST))).toMatchObject({
      kind: 'html',
      httpStatus: 200,
    });
  });

  it('turns a malformed fault into a malformed failure on both shapes', async () => {
    const before = harness.simulator.getRequestCount();
    harness.simulator.injectFault('malformed', 60);
    expect(expectFailure(await harness.ask(REQUEST))).toMatchObject({ kind: 'malformed' });
    // The client falls back to the other shape once; that one is cut off too.
    expect(harness.simulator.getRequestCount() - before).toBe(2);
  });

  it('holds answers during a slow fault so a client with a short timeout sees a network failure', async () => {
    harness.simulator.injectFault('slow', 60);
    const failure = expectFailure(await harness.ask(REQUEST, { timeoutMs: 300 }));
    expect(failure.kind).toBe('network');
    expect(failure.message).toContain('300 ms');
  });

  it('releases a held answer when the slow fault ends by the simulator’s clock', async () => {
    harness.simulator.injectFault('slow', 30);
    const before = harness.simulator.getRequestCount();
    let isSettled = false;
    const pending = harness.ask(REQUEST, { timeoutMs: 20_000 }).finally(() => {
      isSettled = true;
    });
    await vi.waitFor(() => expect(harness.simulator.getRequestCount()).toBe(before + 1), {
      timeout: 10_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(isSettled).toBe(false);
    harness.advanceClock(31_000);
    expect((await pending).ok).toBe(true);
  });

  it('ends every fault after its seconds, read from the injected clock', async () => {
    for (const kind of ['541', '503', 'html', 'malformed'] as const) {
      harness.simulator.injectFault(kind, 10);
      expect((await harness.ask(REQUEST)).ok, kind).toBe(false);
      harness.advanceClock(9_000);
      expect((await harness.ask(REQUEST)).ok, kind).toBe(false);
      harness.advanceClock(1_000);
      expect((await harness.ask(REQUEST)).ok, kind).toBe(true);
    }
  });

  it('clears a fault on DELETE /_sim/fault', async () => {
    await harness.control('POST', '/_sim/fault', { kind: '503', seconds: 600 });
    const state = await harness.control('GET', '/_sim/state');
    expect(state.json).toMatchObject({ fault: { kind: '503', seconds_left: 600 } });
    expect(await harness.control('DELETE', '/_sim/fault')).toEqual({
      status: 200,
      json: { cleared: true },
    });
    expect((await harness.ask(REQUEST)).ok).toBe(true);
    expect((await harness.control('GET', '/_sim/state')).json).toMatchObject({ fault: null });
  });
});
