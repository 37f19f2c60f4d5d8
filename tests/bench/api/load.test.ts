import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoadRunner, type LoadRunner } from './load.ts';

type Seen = { path: string; user: string | undefined; client: string | undefined; at: number };

describe('the load runner of bench:api', () => {
  const seen: Seen[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    seen.push({
      path: request.url ?? '',
      user: request.headers['x-user'] as string | undefined,
      client: request.headers['x-forwarded-for'] as string | undefined,
      at: performance.now(),
    });
    response.setHeader('content-type', 'application/json');
    response.end('{}');
  });
  let origin = '';
  let runner: LoadRunner;

  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    runner = createLoadRunner();
  });
  afterAll(async () => {
    await runner.close();
    server.close();
  });

  it('runs loads asked for at once one after the other, each with its own rotation', async () => {
    const first = runner.runLoad({
      origin,
      connections: 2,
      durationSeconds: 1,
      variants: [
        { path: '/a', headers: { 'x-user': 'ann' } },
        { path: '/b', headers: { 'x-user': 'bob' } },
      ],
      clientAddresses: 3,
    });
    // Asked for at once, but the second starts only when the first has finished.
    const second = runner.runLoad({
      origin,
      connections: 2,
      durationSeconds: 1,
      variants: [{ path: '/c', headers: {} }],
      clientAddresses: 0,
    });
    const [firstResult, secondResult] = await Promise.all([first, second]);

    const firstRequests = seen.filter((request) => request.path !== '/c');
    const secondRequests = seen.filter((request) => request.path === '/c');
    expect(firstResult.responses).toBeGreaterThan(10);
    expect(firstResult.statusCounts['200']).toBe(firstResult.responses);
    expect(firstResult.latencySamples).toBe(firstResult.responses);
    expect(firstRequests.length).toBeGreaterThanOrEqual(firstResult.responses);
    expect(new Set(firstRequests.map((request) => `${request.path} ${request.user}`))).toEqual(
      new Set(['/a ann', '/b bob']),
    );
    expect(new Set(firstRequests.map((request) => request.client))).toEqual(
      new Set(['10.0.0.0', '10.0.0.1', '10.0.0.2']),
    );
    expect(secondResult.responses).toBeGreaterThan(10);
    expect(secondRequests.length).toBeGreaterThanOrEqual(secondResult.responses);
    expect(secondRequests.every((request) => request.client === undefined)).toBe(true);
    const lastOfFirst = Math.max(...firstRequests.map((request) => request.at));
    expect(Math.min(...secondRequests.map((request) => request.at))).toBeGreaterThan(lastOfFirst);
  });

  it('rejects a load the generator cannot start, and runs the next one', async () => {
    await expect(
      runner.runLoad({
        origin: 'not a url',
        connections: 1,
        durationSeconds: 1,
        variants: [{ path: '/a', headers: {} }],
        clientAddresses: 0,
      }),
    ).rejects.toThrow(/^load failed: /);
    const after = await runner.runLoad({
      origin,
      connections: 1,
      durationSeconds: 1,
      variants: [{ path: '/d', headers: {} }],
      clientAddresses: 0,
    });
    expect(after.responses).toBeGreaterThan(0);
  });
});
