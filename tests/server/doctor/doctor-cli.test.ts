import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  declareEgressAddresses,
  recordEgressBlock,
} from '#server/db/repositories/egress-repository.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { startSimulatorHarness, type SimulatorHarness } from '#tests/server/simulator/support.ts';

// `shelfwatch doctor` as an operator runs it (server/cli.ts in its own process, the configured
// direct address) against the simulator: its exit status, its report, and the block state it
// reads from egress_addresses.

const ROOT_DIR = fileURLToPath(new URL('../../..', import.meta.url));
const DIRECT_LABEL = `direct ${os.hostname()}`;

describe('shelfwatch doctor on the command line', () => {
  let harness: SimulatorHarness;
  let testDb: TestDatabase;
  let dataDir: string;

  beforeAll(async () => {
    harness = await startSimulatorHarness();
    testDb = await createTestDatabase();
    // An empty data folder: no embedded PostgreSQL runs there, so no database unless named.
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-doctor-'));
  });
  afterEach(() => harness.simulator.clearFault());
  afterAll(async () => {
    await harness?.close();
    await testDb?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function runDoctorCli(args: string[], env: Record<string, string> = {}) {
    // No DATABASE_URL unless the test names one: the doctor must find no database otherwise.
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL'),
    );
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/cli.ts', 'doctor', '--upstream', harness.simulator.url, ...args],
      {
        cwd: ROOT_DIR,
        env: {
          ...inherited,
          SHELFWATCH_DATA_DIR: dataDir,
          UPSTREAM_PROXIES: '',
          UPSTREAM_DIRECT: 'true',
          ...env,
        },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    return { code, stdout, stderr };
  }

  it('exits 0 with a report of every request when the address answers as captured', async () => {
    const result = await runDoctorCli(['--country', 'GB']);
    expect(result.code, result.stderr + result.stdout).toBe(0);
    expect(result.stdout).toContain('Database   not reachable (no DATABASE_URL and no embedded');
    expect(result.stdout).toContain(`${DIRECT_LABEL} (direct)`);
    expect(result.stdout).toMatch(/warm-up +bag page HTTP 200 in \d+ ms, warm, cookies: dssid2/);
    expect(result.stdout).toMatch(/pickup-message +as captured +HTTP 200 in \d+ ms: \d+ stores; /);
    expect(result.stdout).toMatch(/fulfillment-messages +as captured +HTTP 541 in \d+ ms: retired/);
    expect(result.stdout).toMatch(/buy page +as captured +HTTP 200 in \d+ ms: \d+ products/);
    expect(result.stdout).toContain('Result: every address answered as captured (exit 0).');
  }, 60_000);

  it('exits 1 and says BLOCKED when Apple answers 541 (a fault set with the control API)', async () => {
    const fault = await harness.control('POST', '/_sim/fault', { kind: '541', seconds: 60 });
    expect(fault.status).toBe(200);
    const result = await runDoctorCli(['--country', 'GB', '--json']);
    expect(result.code, result.stderr).toBe(1);
    const report = JSON.parse(result.stdout) as {
      isHealthy: boolean;
      addresses: { label: string; verdict: string; probes: { httpStatus: number }[] }[];
      browser: { userAgent: string };
    };
    expect(report.isHealthy).toBe(false);
    expect(report.addresses).toEqual([
      expect.objectContaining({ label: DIRECT_LABEL, verdict: 'blocked' }),
    ]);
    expect(report.addresses[0]?.probes.map((probe) => probe.httpStatus)).toEqual([541]);
    expect(report.browser.userAgent).toContain('Safari/');
  }, 60_000);

  it('reads the address’s cool-down from egress_addresses and leaves a cooling address alone', async () => {
    const at = new Date();
    await declareEgressAddresses(
      testDb.db,
      [{ label: DIRECT_LABEL, kind: 'direct', ratePerMinute: 1, burst: 20 }],
      at,
    );
    const until = await recordEgressBlock(testDb.db, DIRECT_LABEL, {
      at,
      kind: 'blocked',
      baseMs: 300_000,
      maxMs: 3_600_000,
      hintedMs: 0,
    });
    const before = harness.simulator.getRequestCount();
    const result = await runDoctorCli(['--country', 'GB'], { DATABASE_URL: testDb.url });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain('Database   egress_addresses read');
    expect(result.stdout).toContain(
      `cooling down until ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC; 1 blocks in a row`,
    );
    expect(result.stdout).toContain('=> COOLING DOWN: not asked (--force asks anyway)');
    expect(harness.simulator.getRequestCount()).toBe(before);
  }, 60_000);

  it('is listed in `shelfwatch --help` with the description its own help gives', async () => {
    const run = async (args: string[]) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
        cwd: ROOT_DIR,
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      await new Promise((resolve) => child.once('close', resolve));
      return stdout;
    };
    const [top, own] = await Promise.all([run(['--help']), run(['doctor', '--help'])]);
    const description = own
      .split('\n')
      .slice(2)
      .join(' ')
      .split('Options:')[0]
      ?.replace(/\s+/g, ' ');
    const listed = /^ {2}doctor +(.*(?:\n {20,}.*)*)/m.exec(top)?.[1]?.replace(/\s+/g, ' ');
    expect(listed).toBe(description?.trim());
    expect(own).toMatch(/--country <code> +country to ask \(default US\)/);
  }, 60_000);

  it('exits 2 with the reason for an option it cannot use', async () => {
    const result = await runDoctorCli(['--country', 'ZZ']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--country ZZ is not a country Shelfwatch can ask');
    expect(result.stdout).toBe('');
  }, 60_000);
});
