// `npm run bench:watch -- --plan-only` plans one sweep per crowd size and address count without
// running workers (tests/bench/watch/plan-only.ts).
// `npm run bench:watch`: the watch engine at the shipped defaults (60 s interval; per egress
// address one request a minute, bursts of 20, 5 minutes of cool-down after a 541), time-
// compressed by K, through real `shelfwatch worker` processes asking through A local proxies
// (each one address at the simulated Apple, which blocks an address after 30 requests in 10
// minutes, compressed the same way), over Apple's 521-store directory when ../shared has it.
// For 1,000 and 10,000 skewed searches and 1 and 10 addresses (two workers each): requests
// and 541 answers per address counted at the simulator, achieved staleness of alerting and of
// all searches against the schedule's promise, and flip to SMTP receipt.
// Settings (a run with any of them set leaves bench/results.md alone unless BENCH_WATCH_RESULTS
// names a file): BENCH_WATCH_SIZES=1000,10000, BENCH_WATCH_ADDRESSES=1,10 and
// BENCH_WATCH_WORKERS (2 processes per configuration) choose the runs; BENCH_WATCH_FACTOR (K,
// 10); BENCH_WATCH_WINDOW_SECONDS (360) and BENCH_WATCH_MIN_WINDOW_SECONDS (120) bound each
// configuration's window; BENCH_WATCH_FLIPS (150 per configuration) and
// BENCH_WATCH_FLIP_SPREAD_SECONDS (60); BENCH_DATABASE_URL (a superuser URL of a disposable
// server with max_connections of 200 or more) instead of an embedded cluster.
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startUpstreamSimulator, type RunningUpstreamSimulator } from '#server/simulator/index.ts';
import { COUNTRY_SEEDS, PRODUCT_MODEL_SEEDS } from '#shared/catalog/index.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import type { Db } from '#server/db/database.ts';
import { loadBenchCatalog, loadCatalogInto, type BenchCatalog } from './watch/catalog.ts';
import {
  APPLE_BLOCK,
  compressDefaults,
  DEFAULTS,
  describeDistortions,
} from './watch/compression.ts';
import { describeMachine, openBenchServer } from './watch/environment.ts';
import { chooseProbes } from './watch/flips.ts';
import { runFirstSweep, type SweptGroup } from './watch/first-sweep.ts';
import { runPlanOnly } from './watch/plan-only.ts';
import type { GroupWeights } from './watch/measure.ts';
import {
  describeAnswerToSmtpTarget,
  formatCrowdTable,
  formatFlipsTable,
  formatRequestsTable,
  formatStalenessTable,
  type SizeSummary,
} from './watch/report.ts';
import { runConfiguration, type ConfigurationResult } from './watch/run-configuration.ts';
import { seedCrowd, type SeededSearch } from './watch/seed.ts';
import {
  countUsersForSearches,
  createSeededRandom,
  DEFAULT_CROWD,
  planCrowd,
  summariseCrowd,
  type PlannedUser,
} from './watch/skew.ts';
import { formatDuration } from './watch/stats.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEFAULT_SIZES = [1_000, 10_000];
const DEFAULT_ADDRESSES = [1, 10];

/** Settings read from the environment; the defaults are what results.md is written for. */
const SETTINGS = {
  sizes: readList('BENCH_WATCH_SIZES', DEFAULT_SIZES),
  addresses: readList('BENCH_WATCH_ADDRESSES', DEFAULT_ADDRESSES),
  workers: readNumber('BENCH_WATCH_WORKERS', 2),
  factor: readNumber('BENCH_WATCH_FACTOR', 10),
  maxWindowMs: readNumber('BENCH_WATCH_WINDOW_SECONDS', 360) * 1000,
  minWindowMs: readNumber('BENCH_WATCH_MIN_WINDOW_SECONDS', 120) * 1000,
  flips: readNumber('BENCH_WATCH_FLIPS', 150),
  flipSpreadMs: readNumber('BENCH_WATCH_FLIP_SPREAD_SECONDS', 60) * 1000,
  sweepConcurrency: 4,
};
const IS_DEFAULT_RUN = [
  'BENCH_WATCH_SIZES',
  'BENCH_WATCH_ADDRESSES',
  'BENCH_WATCH_WORKERS',
  'BENCH_WATCH_FACTOR',
  'BENCH_WATCH_WINDOW_SECONDS',
  'BENCH_WATCH_MIN_WINDOW_SECONDS',
  'BENCH_WATCH_FLIPS',
  'BENCH_WATCH_FLIP_SPREAD_SECONDS',
].every((name) => (process.env[name] ?? '') === '');
const RESULTS_PATH =
  process.env.BENCH_WATCH_RESULTS ??
  (IS_DEFAULT_RUN ? path.join(REPO_ROOT, 'bench', 'results.md') : undefined);

function readList(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  return raw.split(',').map((item) => {
    const value = Number(item.trim());
    if (!Number.isInteger(value) || value <= 0)
      throw new Error(`${name}: ${item} is not a positive whole number`);
    return value;
  });
}

function readNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!(value > 0)) throw new Error(`${name}: ${raw} is not a positive number`);
  return value;
}

/** Everything printed, kept for results.md. */
const transcript: string[] = [];
function sayLine(text = ''): void {
  console.log(text);
  transcript.push(text);
}

/** One database for every size: each size adds searches to the last, so targets are asked once. */
type RunState = {
  db: Db;
  url: string;
  catalog: BenchCatalog;
  simulator: RunningUpstreamSimulator;
  /** The same shelves without the block, for the benchmark's unpaced first sweeps. */
  sweepSimulator: RunningUpstreamSimulator;
  workDir: string;
  crowd: PlannedUser[];
  seededUsers: number;
  searches: SeededSearch[];
  /** Every target asked so far, in the order the first sweeps asked them. */
  swept: Omit<SweptGroup, 'isAlerting'>[];
  usedPairs: Set<string>;
  /** Configurations run so far: each gets loopback addresses of its own. */
  configurations: number;
};

async function runSize(
  state: RunState,
  size: number,
): Promise<{ summary: SizeSummary; results: ConfigurationResult[] }> {
  const { db, simulator } = state;
  const compression = compressDefaults(SETTINGS.factor);
  const userCount = countUsersForSearches(state.crowd, size);
  const added = state.crowd.slice(state.seededUsers, userCount);
  const crowd = summariseCrowd(state.crowd.slice(0, userCount));
  const seedStarted = performance.now();
  state.searches.push(...(await seedCrowd(db, added, `u${state.seededUsers}`)));
  state.seededUsers = userCount;
  const seedMs = performance.now() - seedStarted;
  sayLine(
    `\n## ${crowd.searches.toLocaleString('en-US')} searches\n\nSeeded ${added.length.toLocaleString('en-US')} more users ` +
      `(${crowd.users.toLocaleString('en-US')} in all) in ${formatDuration(seedMs)}.`,
  );
  const weights: GroupWeights = new Map();
  for (const search of state.searches) {
    const key = `${search.combo.countryCode}:${search.combo.productId}:${search.combo.storeId}`;
    const weight = weights.get(key) ?? { searches: 0, alerting: 0 };
    weight.searches += 1;
    if (search.isAlerting) weight.alerting += 1;
    weights.set(key, weight);
  }
  const alertingKeys = new Set(
    [...weights].filter(([, weight]) => weight.alerting > 0).map(([key]) => key),
  );
  const probes = chooseProbes(
    state.searches,
    SETTINGS.flips,
    SETTINGS.addresses.length,
    createSeededRandom(size + 1),
    state.usedPairs,
  );
  const sweep = await runFirstSweep(
    db,
    state.sweepSimulator.url,
    alertingKeys,
    SETTINGS.sweepConcurrency,
  );
  state.swept.push(...sweep.groups);
  const groups = state.swept.map((group) => ({
    ...group,
    isAlerting: alertingKeys.has(`${group.countryCode}:${group.productId}:${group.storeId}`),
  }));
  sayLine(
    `First sweep of the new targets (unpaced, ${SETTINGS.sweepConcurrency} at a time, from the benchmark's own address): ` +
      `${sweep.requests} requests in ${formatDuration(sweep.ms)}${sweep.failed > 0 ? `, ${sweep.failed} failed` : ''}. ` +
      `With what it learned the planner sizes a full sweep of all ${groups.length} targets at ${sweep.fullSweepRequests} requests ` +
      `and an alerting sweep at ${sweep.alertingSweepRequests}.`,
  );
  const summary: SizeSummary = {
    searches: crowd.searches,
    users: crowd.users,
    alertingSearches: crowd.alertingSearches,
    groups: crowd.groups,
    alertingGroups: crowd.alertingGroups,
    topShare: crowd.topShare,
    topProducts: crowd.topProducts,
    seedMs,
    sweepRequests: sweep.requests,
    sweepMs: sweep.ms,
  };
  const results: ConfigurationResult[] = [];
  for (const [index, addresses] of SETTINGS.addresses.entries()) {
    state.configurations += 1;
    const result = await runConfiguration({
      db,
      databaseUrl: state.url,
      repoRoot: REPO_ROOT,
      workDir: state.workDir,
      simulator,
      searches: crowd.searches,
      alertingSearches: crowd.alertingSearches,
      groups,
      weights,
      sweeps: {
        fullRequests: sweep.fullSweepRequests,
        alertingRequests: sweep.alertingSweepRequests,
      },
      addresses,
      addressSubnet: state.configurations,
      workers: SETTINGS.workers,
      compression,
      window: {
        maxMs: SETTINGS.maxWindowMs,
        minMs: SETTINGS.minWindowMs,
        flipSpreadMs: SETTINGS.flipSpreadMs,
      },
      probes: probes[index] ?? [],
      log: sayLine,
    });
    const problems = summariseWorkerLog(result.workerLogLines);
    const requests = result.tallies.reduce((sum, tally) => sum + tally.requests, 0);
    const refused = result.tallies.reduce((sum, tally) => sum + tally.answered541, 0);
    sayLine(
      `- ${addresses} address${addresses === 1 ? '' : 'es'}, ${result.workers} workers: window ${formatDuration(result.windowMs)} ` +
        `(${formatDuration(result.windowMs * compression.factor)} real); workers up in ${formatDuration(result.startupMs)}; ` +
        `${requests} requests, ${refused} answered 541; ${result.emails} emails; ${result.outboxLeft} alerts left queued at the end` +
        `${problems === '' ? '; workers logged nothing at warn or above.' : `; workers logged: ${problems}`}`,
    );
    // The sweep simulator's shelves follow the flips, so a later first sweep reads the same stock.
    for (const flip of result.flips)
      state.sweepSimulator.setStatus(flip.storeId, flip.part, 'available');
    results.push(result);
  }
  return { summary, results };
}

/** Empties every shelf of the simulator: stock appears only where the benchmark flips it. */
function emptyEveryShelf(simulator: RunningUpstreamSimulator, catalog: BenchCatalog): number {
  let emptied = 0;
  for (const combo of catalog.combos) {
    for (const part of combo.parts) {
      simulator.setStatus(combo.storeId, part, 'unavailable');
      emptied += 1;
    }
  }
  return emptied;
}

/** The distinct messages of the workers' log (JSON lines), with counts. */
function summariseWorkerLog(lines: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const line of lines) {
    let message = line;
    try {
      const parsed = JSON.parse(line) as { msg?: unknown };
      if (typeof parsed.msg === 'string') message = parsed.msg;
    } catch {
      // Not JSON (a stack trace line): counted as it is.
    }
    const key = message.replace(/[0-9a-f-]{36}|\d+/g, '#').slice(0, 160);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([message, times]) => `${times} x "${message}"`)
    .join('; ');
}

function describeSettings(): void {
  const compression = compressDefaults(SETTINGS.factor);
  sayLine(
    `Settings: POLL_INTERVAL_SECONDS ${DEFAULTS.pollIntervalSeconds}, UPSTREAM_RATE_PER_MINUTE ${DEFAULTS.upstreamRatePerMinute} and ` +
      `UPSTREAM_BURST ${DEFAULTS.upstreamBurst} per address, UPSTREAM_COOL_DOWN_SECONDS ${DEFAULTS.coolDownSeconds}, ` +
      `UPSTREAM_PARTS_PER_REQUEST ${DEFAULTS.partsPerRequest}, WATCH_FULL_SWEEP_MINUTES ${DEFAULTS.fullSweepMinutes}, ` +
      `ALERT_QUIET_WINDOW_MINUTES ${DEFAULTS.quietWindowMinutes}; sizes ${SETTINGS.sizes.join(', ')}; addresses ` +
      `${SETTINGS.addresses.join(', ')} with ${SETTINGS.workers} worker processes each; ${SETTINGS.flips} flips per configuration.  `,
  );
  sayLine(
    `Simulated Apple: pickup-message answers (fulfillment-messages 541s), \`location=\` lists the nearest 12 stores, more than ` +
      `${APPLE_BLOCK.afterRequests} requests from one address within ${APPLE_BLOCK.windowSeconds / 60} minutes get 541 for ` +
      `${APPLE_BLOCK.blockSeconds / 60} minutes, and a request during a block starts it again.\n`,
  );
  sayLine('### Time compression\n');
  sayLine(
    `Everything runs K = ${compression.factor} times faster: interval ${compression.intervalSeconds} s, ${compression.ratePerMinute} requests a ` +
      `minute per address (burst ${DEFAULTS.upstreamBurst}), cool-down ${compression.coolDownSeconds} s doubling up to ${compression.maxCoolDownSeconds} s, ` +
      `full sweeps aimed at ${compression.fullSweepMinutes} min, quiet window ${compression.quietWindowMinutes} min, and the simulator's block counts ` +
      `${compression.block.afterRequests} requests in ${compression.block.windowSeconds} s and lasts ${compression.block.blockSeconds} s. Each ` +
      'compressed minute holds a real minute of requests and blocks. Polling-side times (window, cycle gaps, staleness, promise, ' +
      'flip to queued alert) are wall-clock times K; the answer-to-SMTP part does not depend on polling and is measured in real time, unscaled.',
  );
  sayLine(`What stays uncompressed at K = ${compression.factor}:`);
  for (const line of describeDistortions(compression.factor)) sayLine(`- ${line}`);
}

async function main(): Promise<void> {
  const started = performance.now();
  sayLine('# `npm run bench:watch`: watch engine at the shipped defaults\n');
  for (const line of describeMachine()) sayLine(`${line}  `);
  const catalog = await loadBenchCatalog(REPO_ROOT);
  if (process.argv.includes('--plan-only')) {
    for (const note of catalog.notes) sayLine(note);
    runPlanOnly(catalog, sayLine);
    return;
  }
  const compression = compressDefaults(SETTINGS.factor);
  const server = await openBenchServer();
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-bench-watch-work-'));
  await chmod(workDir, 0o755);
  const shelves = {
    seed: 11,
    // Shelves hold still but for the flips: see "What the figures leave out".
    changeEverySeconds: 365 * 24 * 3600,
    stores: catalog.simulatorStores,
    models: PRODUCT_MODEL_SEEDS,
    countries: COUNTRY_SEEDS,
  };
  const simulator = await startUpstreamSimulator({
    ...shelves,
    port: await getFreePort(),
    blockAfterRequests: compression.block.afterRequests,
    blockWindowSeconds: compression.block.windowSeconds,
    blockSeconds: compression.block.blockSeconds,
  });
  const sweepSimulator = await startUpstreamSimulator({
    ...shelves,
    port: await getFreePort(),
    blockAfterRequests: 0,
  });
  sayLine(`Database: ${server.label}  `);
  describeSettings();
  sayLine('\n### Catalog\n');
  for (const note of catalog.notes) sayLine(`- ${note}`);
  sayLine(
    `- Crowd: product types by launch order with Zipf weights (exponent ${DEFAULT_CROWD.productExponent}), the store uniform among the stores of ` +
      `the countries selling the type; users ${DEFAULT_CROWD.planShares.good * 100} % Good, ${DEFAULT_CROWD.planShares.better * 100} % Better, ` +
      `${DEFAULT_CROWD.planShares.best * 100} % Premium, up to their plan's searches (most keep one or two); ${DEFAULT_CROWD.preferredShare * 100} % of searches prefer ` +
      `one or two models; ${DEFAULT_CROWD.emailOnShare * 100} % of paid searches have email on. A search alerts when it prefers a model and has email on.`,
  );
  sayLine(
    '- Sizes grow in one database (the 10,000 include the 1,000). Starting state: every target is asked once, unpaced, from the ' +
      "benchmark's own address (the product does this over its first cycles), which teaches the planner the location seeds; then " +
      "before each configuration the targets' last full answers are spread evenly over the full-sweep period at that budget, and " +
      "alerting targets' last alerting answers over the alerting period, in the order the sweep asked them; the queue, worker " +
      'and address registry, queued alerts and the blocks at the simulator are cleared.',
  );
  const sizes: SizeSummary[] = [];
  const results: ConfigurationResult[] = [];
  try {
    const { db, url } = await server.createDatabase('bench_watch');
    const catalogNote = await loadCatalogInto(db, catalog);
    if (catalogNote !== undefined) sayLine(`- Directory import: ${catalogNote}.`);
    const emptied = emptyEveryShelf(simulator, catalog);
    emptyEveryShelf(sweepSimulator, catalog);
    sayLine(
      `- Shelves: all ${emptied.toLocaleString('en-US')} (store, model) pairs the searches can name are unavailable, as in a launch ` +
        'week; a flip is the only way stock appears, and each pair is flipped at most once in the run.',
    );
    const state: RunState = {
      db,
      url,
      catalog,
      simulator,
      sweepSimulator,
      workDir,
      crowd: planCrowd(
        catalog.combos,
        catalog.productOrder,
        Math.max(...SETTINGS.sizes),
        createSeededRandom(2026),
      ),
      seededUsers: 0,
      searches: [],
      swept: [],
      usedPairs: new Set(),
      configurations: 0,
    };
    for (const size of [...SETTINGS.sizes].sort((a, b) => a - b)) {
      const outcome = await runSize(state, size);
      sizes.push(outcome.summary);
      results.push(...outcome.results);
    }
  } finally {
    await simulator.close();
    await sweepSimulator.close();
    await server.close();
    await rm(workDir, { recursive: true, force: true });
  }
  reportResults(sizes, results);
  sayLine(
    `\nTotal run time ${formatDuration(performance.now() - started)}; load average at the end ${os.loadavg()[0].toFixed(2)}.`,
  );
  if (RESULTS_PATH === undefined) {
    console.log(
      '\nA subset was run: bench/results.md is left as it is (set BENCH_WATCH_RESULTS=path to write one).',
    );
  } else {
    await mkdir(path.dirname(RESULTS_PATH), { recursive: true });
    await writeFile(RESULTS_PATH, `${transcript.join('\n')}\n`);
    console.log(`\nWritten to ${path.relative(process.cwd(), RESULTS_PATH)}`);
  }
}

function reportResults(
  sizes: readonly SizeSummary[],
  results: readonly ConfigurationResult[],
): void {
  sayLine('\n## Results\n');
  sayLine('### Crowd\n');
  sayLine(formatCrowdTable(sizes));
  sayLine('\n### Requests and blocks per configuration (counted at the simulator)\n');
  sayLine(formatRequestsTable(results));
  const refused = results.reduce(
    (sum, result) => sum + result.tallies.reduce((inner, tally) => inner + tally.answered541, 0),
    0,
  );
  sayLine(
    `\nHTTP 541 answers in all configurations: ${refused} (target 0 at the defaults). "Sustained budget" is the addresses' ` +
      'rate over the window, and each starts with a full bucket besides; "Sweep sizes" are the requests the planner sizes a full and an alerting sweep at.',
  );
  sayLine(
    '\n### Staleness per search (age of the last answer covering its target, sampled every 2 s, weighted by searches)\n',
  );
  sayLine(formatStalenessTable(results));
  sayLine(
    "\nFor an alerting search the last answer is a full or an alerting sweep's (which asks its preferred models); for the rest, a " +
      'full sweep\'s. "Promise" is what the planner\'s schedule gives this many addresses for these sweep sizes; "Window / alerting ' +
      'promise" is how many alerting periods the window held: below 100 % the figures lean on the starting state.',
  );
  sayLine('\n### Flip to email\n');
  sayLine(formatFlipsTable(results));
  sayLine(
    '\nFlip to SMTP: the simulator turns a model an alerting search prefers available at its store; the time until that ' +
      "search's first email after the flip is accepted by a real SMTP server (tests/helpers/smtp-sink.ts) from the workers' delivery. " +
      'Flip to queued alert is scaled by K, queued alert to SMTP is not. "Answer to SMTP" runs from the alert_outbox row ' +
      '(written in the transaction of the answer that saw the change) to the SMTP server accepting the email, unscaled.',
  );
  sayLine(`\n${describeAnswerToSmtpTarget(results)}`);
  sayLine('\n### What the figures leave out\n');
  for (const line of [
    "Real network and Apple: the simulator answers on loopback in a millisecond or two; Apple takes hundreds of milliseconds. Its block is played as public reports describe it (30 requests in 10 minutes); Apple's real threshold may differ and may change.",
    "Restock storms: shelves hold still apart from the flips, so no answer carries hundreds of changes and the only alerts are the flips' " +
      '(each flip emails every alerting search nearby that prefers the model, which the email count shows).',
    'Separate machines: all workers, proxies, PostgreSQL, the simulator and the SMTP server share this machine (and its other load).',
    'Text and push alerts, the website and API (bench:api measures those), and the first sweep at the defaults (it is run unpaced).',
    'Faults: no worker was killed, no proxy failed and no endpoint shape died (tests/server/watch/engine-today.test.ts covers those).',
    'A search whose first email after its flip came from another flip nearby (same preferred model) is timed by that email.',
  ]) {
    sayLine(`- ${line}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
