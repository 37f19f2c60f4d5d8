import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { startTestStack, type TestStack } from '#tests/helpers/stack.ts';

describe('the simulator in npm start', () => {
  let stack: TestStack;
  let simulatorPort: number;
  let isStopped = false;
  beforeAll(async () => {
    simulatorPort = await getFreePort();
    stack = await startTestStack({
      SIMULATOR_PORT: String(simulatorPort),
      SIMULATOR_FULFILLMENT_MESSAGES: 'alive',
      SIMULATOR_BLOCK_AFTER_REQUESTS: '5',
      SIMULATOR_BLOCK_WINDOW_SECONDS: '60',
      SIMULATOR_BLOCK_SECONDS: '120',
    });
  });
  afterAll(async () => {
    if (!isStopped) await stack?.stop();
  });

  it('runs on SIMULATOR_PORT with the SIMULATOR_* behaviour next to the API and stops with the stack', async () => {
    const response = await fetch(`http://localhost:${simulatorPort}/_sim/requests`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      count: expect.any(Number) as unknown,
      answered_541: expect.any(Number) as unknown,
      by_address: expect.any(Object) as unknown,
    });
    const state = (await (await fetch(`http://localhost:${simulatorPort}/_sim/state`)).json()) as {
      settings: unknown;
    };
    expect(state.settings).toEqual({
      fulfillment_messages: 'alive',
      pickup_message: 'alive',
      block_after_requests: 5,
      block_window_seconds: 60,
      block_seconds: 120,
    });
    isStopped = true;
    await stack.stop();
    await expect(fetch(`http://localhost:${simulatorPort}/_sim/requests`)).rejects.toThrow();
  });
});
