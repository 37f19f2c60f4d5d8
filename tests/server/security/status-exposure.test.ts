import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorWatchStatusSchema, publicWatchStatusSchema } from '#shared/api/watch.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { startTestStack, type TestStack } from '#tests/helpers/stack.ts';

// Issue 43, item 6: /v2/status showed the machine's name and each proxy's host and port to
// anyone, and /metrics was open unless METRICS_TOKEN was set.

/** A proxy no one listens on (127.0.0.0/8 refuses at once): only its address matters here. */
const PROXY_HOST = '127.0.0.93';
const PROXY_USER = 'scraper';
const PROXY_PASSWORD = 'hunter2-proxy-password';

async function getStatus(
  stack: TestStack,
  authorization?: string,
): Promise<{ text: string; headers: Headers }> {
  const response = await fetch(`${stack.baseUrl}/v2/status`, {
    headers: authorization === undefined ? {} : { authorization },
  });
  expect(response.status).toBe(200);
  return { text: await response.text(), headers: response.headers };
}

async function scrapeMetrics(stack: TestStack, authorization?: string): Promise<Response> {
  return await fetch(`${stack.baseUrl}/metrics`, {
    headers: authorization === undefined ? {} : { authorization },
  });
}

describe('a stack with a proxy and no METRICS_TOKEN', () => {
  let dataDir: string;
  let tokenFile: string;
  let proxyPort: number;
  let simulatorPort: number;
  let stack: TestStack | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-status-exposure-'));
    tokenFile = path.join(dataDir, 'metrics-token');
    proxyPort = await getFreePort();
    simulatorPort = await getFreePort();
    stack = await startTestStack({
      SHELFWATCH_DATA_DIR: dataDir,
      SIMULATOR_PORT: String(simulatorPort),
      WATCH_ENABLED: 'true',
      UPSTREAM_PROXIES: `http://${PROXY_USER}:${PROXY_PASSWORD}@${PROXY_HOST}:${proxyPort}`,
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('shows anyone no host name, proxy host, port or budget on /v2/status', async () => {
    const { text, headers } = await getStatus(stack!);
    const status = publicWatchStatusSchema.strict().parse(JSON.parse(text));
    expect(status.view).toBe('public');
    expect(typeof status.is_delayed).toBe('boolean');
    for (const secret of [
      os.hostname(),
      PROXY_HOST,
      String(proxyPort),
      PROXY_USER,
      PROXY_PASSWORD,
      `:${simulatorPort}`,
      'budget',
      'tokens',
      'cool_down',
    ]) {
      expect(text, secret).not.toContain(secret);
    }
    expect(headers.get('vary')).toContain('Authorization');
    // A signed-in person's token, or a guess, is not the operator's.
    expect((await getStatus(stack!, 'Bearer not-the-metrics-token')).text).not.toContain(
      PROXY_HOST,
    );
  });

  it('generates the token into the data folder, mode 600, and names the file, not the token', async () => {
    expect(stack!.stack.metricsTokenFile).toBe(tokenFile);
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
    expect((await readFile(tokenFile, 'utf8')).trim()).toMatch(/^[\w-]{43}$/);
  });

  it('shows the addresses, hosts and budgets with the token, privately', async () => {
    const token = (await readFile(tokenFile, 'utf8')).trim();
    const { text, headers } = await getStatus(stack!, `Bearer ${token}`);
    const status = operatorWatchStatusSchema.parse(JSON.parse(text));
    expect(status.view).toBe('operator');
    expect(status.addresses.map((address) => address.label).sort()).toEqual([
      `direct ${os.hostname()}`,
      `proxy ${PROXY_HOST}:${proxyPort}`,
    ]);
    expect(status.addresses[0]).toMatchObject({ rate_per_minute: expect.any(Number) as unknown });
    expect(status.hosts).toEqual(expect.any(Array));
    // Credentials never leave the process, not even to the operator.
    expect(text).not.toContain(PROXY_PASSWORD);
    expect(headers.get('cache-control')).toBe('private, no-store');
  });

  it('answers /metrics 401 without the token or with another, and scrapes with it', async () => {
    const token = (await readFile(tokenFile, 'utf8')).trim();
    for (const authorization of [undefined, 'Bearer wrong', token]) {
      const refused = await scrapeMetrics(stack!, authorization);
      expect(refused.status, String(authorization)).toBe(401);
      expect(await refused.json()).toMatchObject({ code: 'unauthenticated' });
    }
    const scraped = await scrapeMetrics(stack!, `Bearer ${token}`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('shelfwatch_poll_groups');
  });

  it('reuses the token file on the next start', async () => {
    const token = (await readFile(tokenFile, 'utf8')).trim();
    await stack!.stop();
    stack = undefined;
    stack = await startTestStack({ SHELFWATCH_DATA_DIR: dataDir });
    expect(stack.stack.metricsTokenFile).toBe(tokenFile);
    expect((await readFile(tokenFile, 'utf8')).trim()).toBe(token);
    expect((await scrapeMetrics(stack, `Bearer ${token}`)).status).toBe(200);
    expect((await scrapeMetrics(stack)).status).toBe(401);
  });
});

describe('a stack with METRICS_TOKEN set', () => {
  let dataDir: string;
  let stack: TestStack;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-status-exposure-'));
    stack = await startTestStack({ SHELFWATCH_DATA_DIR: dataDir, METRICS_TOKEN: 'set by hand' });
  });
  afterAll(async () => {
    await stack?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('uses it as it is and writes no token file', async () => {
    expect(stack.stack.metricsTokenFile).toBeUndefined();
    await expect(stat(path.join(dataDir, 'metrics-token'))).rejects.toThrow(/ENOENT/);
    expect((await scrapeMetrics(stack, 'Bearer set by hand')).status).toBe(200);
    expect((await scrapeMetrics(stack)).status).toBe(401);
    const { text } = await getStatus(stack, 'Bearer set by hand');
    expect(operatorWatchStatusSchema.parse(JSON.parse(text)).view).toBe('operator');
  });
});
