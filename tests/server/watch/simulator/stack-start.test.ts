import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { startTestStack, type TestStack } from '#tests/helpers/stack.ts';

describe('the simulator in npm start', () => {
  let stack: TestStack;
  let simulatorPort: number;
  let isStopped = false;
  beforeAll(async () => {
    simulatorPort = await getFreePort();
    stack = await startTestStack({ SIMULATOR_PORT: String(simulatorPort) });
  });
  afterAll(async () => {
    if (!isStopped) await stack?.stop();
  });

  it('runs on SIMULATOR_PORT next to the API and stops with the stack', async () => {
    const response = await fetch(`http://localhost:${simulatorPort}/_sim/requests`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ count: expect.any(Number) as unknown });
    isStopped = true;
    await stack.stop();
    await expect(fetch(`http://localhost:${simulatorPort}/_sim/requests`)).rejects.toThrow();
  });
});
