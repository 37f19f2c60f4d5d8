import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { startSmtpSink, type SmtpSink } from '#tests/helpers/smtp-sink.ts';
import { listSeedParts, startWatchHarness, type WatchHarness } from './support.ts';

// Issue 11: three real `shelfwatch worker` processes on one database; one is killed with
// SIGKILL while its request is in flight. Every group is still answered at most once per
// cycle, the killed worker's group within a minute, and every alert is sent exactly once.

const ROOT_DIR = fileURLToPath(new URL('../../..', import.meta.url));
// New York, Chicago, San Francisco, Los Angeles: one group each (an answer listing a store of
// another group covers it, so some groups may be skipped in a cycle: never asked twice).
const STORES = ['R095', 'R035', 'R075', 'R050'];
const TAKEOVER_LIMIT_MS = 60_000;

type Gate = {
  url: string;
  /** Answered requests per location or store asked since the gate started. */
  answeredByStore: Map<string, number>;
  /** Remote ports of requests held open, in arrival order. */
  heldPorts: number[];
  setHolding: (isHolding: boolean) => void;
  close: () => Promise<void>;
};

/** Passes requests to the simulator, or holds them open (a worker stuck mid-request). */
async function startGate(targetUrl: string): Promise<Gate> {
  let isHolding = false;
  const answeredByStore = new Map<string, number>();
  const heldPorts: number[] = [];
  const server = http.createServer((request, response) => {
    if (isHolding) {
      heldPorts.push(request.socket.remotePort ?? 0);
      return;
    }
    const target = new URL(request.url ?? '/', targetUrl);
    // A request names a location seed (a store's postal code) or, alone, a store.
    const store = target.searchParams.get('location') ?? target.searchParams.get('store');
    const upstream = http.request(
      target,
      { method: request.method, headers: { ...request.headers, host: target.host } },
      (answer) => {
        if (store !== null && answer.statusCode === 200) {
          answeredByStore.set(store, (answeredByStore.get(store) ?? 0) + 1);
        }
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    request.pipe(upstream);
  });
  const port = await getFreePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    answeredByStore,
    heldPorts,
    setHolding: (value) => {
      isHolding = value;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The process among `pids` that owns the TCP connection from local port `port` (Linux /proc). */
async function findSocketOwner(pids: number[], port: number): Promise<number | undefined> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(table, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hexPort}`)) inodes.add(fields[9] ?? '');
    }
  }
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      if (inode !== undefined && inodes.has(inode)) return pid;
    }
  }
  return undefined;
}

async function waitFor(
  description: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('three workers, one killed mid-cycle', () => {
  let watch: WatchHarness;
  let gate: Gate;
  let smtp: SmtpSink;
  let dataDir: string;
  const workers: ChildProcess[] = [];
  const part = listSeedParts('US', 'iphone16pro')[0] ?? '';

  beforeAll(async () => {
    watch = await startWatchHarness({ startMs: Date.now() });
    gate = await startGate(watch.simulator.url);
    smtp = await startSmtpSink();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-workers-'));
    for (const storeId of STORES) {
      watch.simulator.setStatus(storeId, part, 'unavailable');
      const user = await watch.createUser(`shopper-${storeId}`, 'best');
      await watch.createSearch(user, { productId: 'iphone16pro', storeId, preferred: [part] });
    }
    for (let index = 0; index < 3; index += 1) {
      workers.push(
        spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'worker'], {
          cwd: ROOT_DIR,
          env: {
            ...process.env,
            DATABASE_URL: watch.testDb.url,
            UPSTREAM_BASE_URL: gate.url,
            SHELFWATCH_DATA_DIR: dataDir,
            SMTP_URL: smtp.url,
            POLL_INTERVAL_SECONDS: '2',
            UPSTREAM_RATE_PER_MINUTE: '600',
            LOG_FORMAT: 'json',
            LOG_LEVEL: 'warn',
          },
          stdio: 'ignore',
        }),
      );
    }
  }, 60_000);

  afterAll(async () => {
    for (const worker of workers) worker.kill('SIGKILL');
    await gate.close();
    await smtp.close();
    await watch.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('asks every location at most once a cycle and sends every alert once', async () => {
    await waitFor('the first cycle of every group', async () => {
      const targets = await watch.db.selectFrom('poll_targets').select('last_covered_at').execute();
      return (
        targets.length === STORES.length && targets.every((row) => row.last_covered_at !== null)
      );
    });
    // Count cycles from here on: the planner stamps each one in watch_freshness.
    const plannedAt = new Set<number>();
    let isCounting = true;
    const countCycles = async (): Promise<void> => {
      while (isCounting) {
        const row = await watch.db
          .selectFrom('watch_freshness')
          .select('planned_at')
          .executeTakeFirst();
        if (row !== undefined) plannedAt.add(row.planned_at.getTime());
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const counting = countCycles();
    const answeredBefore = new Map(gate.answeredByStore);

    // Stock arrives everywhere, and the next requests hang: one worker is caught mid-request.
    for (const storeId of STORES) watch.simulator.setStatus(storeId, part, 'available');
    gate.setHolding(true);
    await waitFor('a request in flight', () => gate.heldPorts.length > 0);
    const pids = workers.map((worker) => worker.pid ?? 0);
    const victim = await findSocketOwner(pids, gate.heldPorts[0] ?? 0);
    expect(victim).toBeDefined();
    workers.find((worker) => worker.pid === victim)?.kill('SIGKILL');
    const killedAt = Date.now();
    gate.setHolding(false);

    // Every shopper hears once; the held groups are answered by the survivors.
    await smtp.waitForMessages(STORES.length, TAKEOVER_LIMIT_MS + 30_000);
    const answeredAt = Date.now();
    expect(answeredAt - killedAt).toBeLessThan(TAKEOVER_LIMIT_MS + 5_000);
    // A few more cycles on the same shelves: nothing more may go out.
    const cyclesNow = plannedAt.size;
    await waitFor('three more cycles', () => plannedAt.size >= cyclesNow + 3);
    isCounting = false;
    await counting;

    const recipients = smtp.messages.map((message) => message.envelopeTo.join(',')).sort();
    expect(recipients).toEqual(STORES.map((store) => `shopper-${store}@example.com`).sort());
    let answeredInAll = 0;
    for (const [where, count] of gate.answeredByStore) {
      const answered = count - (answeredBefore.get(where) ?? 0);
      answeredInAll += answered;
      // A cycle may still be in flight when counting starts, hence the one extra.
      expect(answered, where).toBeLessThanOrEqual(plannedAt.size + 1);
    }
    expect(answeredInAll).toBeGreaterThanOrEqual(plannedAt.size - 1);
  }, 180_000);

  it('lets a worker stopped with SIGTERM finish its jobs, leave the budget and exit cleanly', async () => {
    const survivor = workers.find(
      (worker) => worker.exitCode === null && worker.signalCode === null,
    );
    if (survivor === undefined) throw new Error('no worker left running');
    const workersBefore = await watch.db.selectFrom('watch_workers').select('id').execute();
    const exited = new Promise<number | null>((resolve) => survivor.once('exit', resolve));
    survivor.kill('SIGTERM');
    expect(await exited).toBe(0);
    const workersAfter = await watch.db.selectFrom('watch_workers').select('id').execute();
    expect(workersAfter.length).toBe(workersBefore.length - 1);
  }, 60_000);
});
