import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRunningPostmaster } from '#server/db/embedded-postgres.ts';
import { productListSchema, storeListSchema } from '#shared/api/catalog.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { startTestStack, type TestStack } from '#tests/helpers/stack.ts';

describe('the embedded stack', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack?.stop());

  it('serves health, the catalog and the website configuration over real HTTP', async () => {
    expect((await fetch(`${stack.baseUrl}/healthz`)).status).toBe(200);
    const products = productListSchema.parse(
      await (await fetch(`${stack.baseUrl}/v2/products`)).json(),
    );
    expect(products.length).toBeGreaterThan(20);
    const stores = storeListSchema.parse(await (await fetch(`${stack.baseUrl}/v2/stores`)).json());
    expect(stores.length).toBeGreaterThanOrEqual(40);
    const config = (await (await fetch(`${stack.baseUrl}/app-config.json`)).json()) as {
      auth: { domain: string };
    };
    expect(`${config.auth.domain}/`).toBe(stack.issuer);
  });

  it('serves the website for client-side routes with 200 and keeps JSON 404s for the API', async () => {
    for (const route of ['/', '/plans', '/search/5d1c0c52-0000-4000-8000-000000000000']) {
      const response = await fetch(`${stack.baseUrl}${route}`);
      expect(response.status, route).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(await response.text()).toContain('id="root"');
    }
    const api = await fetch(`${stack.baseUrl}/v2/unknown`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'not_found' });
    expect((await fetch(`${stack.baseUrl}/assets/missing.js`)).status).toBe(404);
  });

  it('publishes the login provider discovery document with Auth0-style endpoints', async () => {
    const discovery = (await (
      await fetch(`${stack.issuer}.well-known/openid-configuration`)
    ).json()) as Record<string, string>;
    expect(discovery.issuer).toBe(stack.issuer);
    expect(discovery.token_endpoint).toBe(`${stack.issuer}oauth/token`);
    expect(discovery.jwks_uri).toBe(`${stack.issuer}.well-known/jwks.json`);
  });
});

describe('npm start in a terminal', () => {
  const rootDir = fileURLToPath(new URL('../..', import.meta.url));
  const password = 'demo-password-for-this-test';
  let dataDir: string;
  let environment: Record<string, string>;
  let server: ChildProcessWithoutNullStreams | undefined;
  let output = '';

  /**
   * Starts `server/main.ts` as `npm start` does (Node's own type stripping), as its own process
   * in its own process group, as a terminal runs it: Ctrl-C signals that whole group.
   */
  const spawnServer = (): ChildProcessWithoutNullStreams =>
    spawn(process.execPath, ['server/main.ts'], {
      cwd: rootDir,
      env: { ...process.env, DATABASE_URL: '', ...environment },
      detached: true,
    });

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-npm-start-'));
    // Embedded PostgreSQL runs as an unprivileged user when started by root: let it in.
    await chmod(dataDir, 0o755);
    environment = {
      SHELFWATCH_DATA_DIR: dataDir,
      PORT: String(await getFreePort()),
      IDP_PORT: String(await getFreePort()),
      SIMULATOR_PORT: String(await getFreePort()),
      EMBEDDED_PG_PORT: String(await getFreePort()),
      SHELFWATCH_DEMO_PASSWORD: password,
      WATCH_ENABLED: 'false',
      // stdout is a pipe here; a terminal would choose pretty lines by itself.
      LOG_FORMAT: 'pretty',
      LOG_LEVEL: 'info',
      NO_COLOR: '1',
    };
    server = spawnServer();
    server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 90_000;
    while (!output.includes('  Stop:')) {
      if (Date.now() > deadline || server.exitCode !== null)
        throw new Error(`npm start did not come up:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 120_000);
  afterAll(async () => {
    if (server !== undefined && server.exitCode === null) {
      server.kill('SIGKILL');
      await new Promise((resolve) => server?.once('exit', resolve));
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prints a short readable banner and no line per request', async () => {
    const siteUrl = `http://localhost:${environment.PORT}`;
    for (const route of ['/', '/plans', '/healthz', '/app-config.json', '/v2/products']) {
      expect((await fetch(`${siteUrl}${route}`)).status, route).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const lines = output.split('\n').filter((line) => line.trim() !== '');
    const bannerStart = lines.findIndex((line) => line.startsWith('Shelfwatch is ready'));
    // Before the banner: the start line and where the server listens, nothing else.
    expect(lines.slice(0, bannerStart)).toEqual([
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\] INFO: Starting Shelfwatch \(data in .+\)\.\.\.$/),
      expect.stringMatching(
        /^\[\d\d:\d\d:\d\d\] INFO: http: Website and API listening at http:\/\/127\.0\.0\.1:\d+$/,
      ),
    ]);
    expect(lines.slice(bannerStart)).toEqual([
      expect.stringMatching(/^Shelfwatch is ready \(started in \d+\.\d s\)$/) as unknown,
      `  Website:    ${siteUrl}`,
      `  Health:     ${siteUrl}/healthz`,
      `  Metrics:    ${siteUrl}/metrics, bearer token in ${path.join(dataDir, 'metrics-token')}`,
      `  Sign-in:    built-in login provider at http://localhost:${environment.IDP_PORT}/`,
      `  Demo login: demo@shelfwatch.local / ${password} (created now)`,
      '  Stock:      not watched (WATCH_ENABLED=false)',
      `  Email:      written to ${path.join(dataDir, 'outbox', 'email')}`,
      `  Texts:      written to ${path.join(dataDir, 'outbox', 'text')}`,
      `  Database:   embedded PostgreSQL on port ${environment.EMBEDDED_PG_PORT}, data in ${path.join(dataDir, 'postgres')}`,
      '  Stop:       Ctrl-C',
    ]);
    expect(output).not.toMatch(/GET \/|request completed|incoming request|"level"/);
  });

  it('keeps /metrics behind the token it wrote into the data folder (mode 600), never printed', async () => {
    const siteUrl = `http://localhost:${environment.PORT}`;
    const tokenFile = path.join(dataDir, 'metrics-token');
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
    const token = (await readFile(tokenFile, 'utf8')).trim();
    expect(output).not.toContain(token);
    expect((await fetch(`${siteUrl}/metrics`)).status).toBe(401);
    const scraped = await fetch(`${siteUrl}/metrics`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(scraped.status).toBe(200);
  });

  it('refuses a second start on the same data folder, saying which cluster holds it', async () => {
    const second = spawnServer();
    let secondOutput = '';
    second.stdout.on('data', (chunk: Buffer) => (secondOutput += chunk.toString()));
    second.stderr.on('data', (chunk: Buffer) => (secondOutput += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
    expect(code).toBe(1);
    expect(secondOutput).toContain(`The data folder ${dataDir} is in use`);
    expect(secondOutput).toContain(`port ${environment.EMBEDDED_PG_PORT}`);
  }, 60_000);

  it('stops quietly on Ctrl-C (SIGINT to its process group): no ERROR line, PostgreSQL stopped', async () => {
    const running = server!;
    const code = new Promise<number | null>((resolve) => running.once('exit', resolve));
    // The terminal signals every process of the foreground group, the postmaster included
    // unless it runs in a group of its own.
    process.kill(-running.pid!, 'SIGINT');
    expect(await code).toBe(0);
    expect(output).toMatch(/INFO: SIGINT received, stopping\.\.\.\n.*INFO: Stopped\.\n$/);
    expect(output).not.toMatch(/ERROR|FATAL|shutting down/);
    expect(await findRunningPostmaster(path.join(dataDir, 'postgres'))).toBeUndefined();
  }, 60_000);
});
