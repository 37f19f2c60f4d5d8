// `npm run bench:watch -- --plan-only` plans one sweep per crowd size and address count without
// running workers (tests/bench/watch/plan-only.ts).
// `npm run bench:watch`: the watch engine at the shipped defaults (60 s interval, 30 requests a
// minute per worker, bursts of 5), time-compressed by K, through real `shelfwatch worker`
// processes (pg-boss fan-out, one token bucket each) over Apple's 521-store directory when
// ../shared has it. For 1,000 / 10,000 / 100,000 skewed searches and 1, 3 and 10 workers:
// upstream requests per cycle (counted at the simulator) against one per group and one per
// search, staleness per search against the planner's promise, and flip to SMTP receipt.
// Settings (a run with any of them set leaves bench/results.md alone unless BENCH_WATCH_RESULTS
// names a file): BENCH_WATCH_SIZES=1000,10000 and BENCH_WATCH_WORKERS=1,3 run a subset;
// BENCH_WATCH_WINDOW_SECONDS (120) and BENCH_WATCH_MIN_WINDOW_SECONDS (60) bound each
// configuration's window; BENCH_WATCH_MAX_FACTOR (10) and BENCH_WATCH_MAX_RATE (25 requests a
// second for all workers) bound the compression; BENCH_WATCH_FLIPS (200 per configuration) and
// BENCH_WATCH_FLIP_SPREAD_SECONDS (45); BENCH_DATABASE_URL (a superuser URL of a disposable
// server with max_connections of 200 or more) instead of an embedded cluster.
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  startUpstreamSimulator,
  type RunningUpstreamSimulator,
} from '#server/watch/simulator/index.ts';
import { COUNTRY_SEEDS, PRODUCT_MODEL_SEEDS } from '#shared/catalog/index.ts';
import { computeFreshnessSchedule, describeFreshness } from '#shared/watch/index.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import type { Db } from '#server/db/database.ts';
import { loadBenchCatalog, loadCatalogInto, type BenchCatalog } from './watch/catalog.ts';
import { chooseCompression, DEFAULTS, describeDistortions } from './watch/compression.ts';
import { describeMachine, openBenchServer } from './watch/environment.ts';
import { chooseProbes } from './watch/flips.ts';
import { runFirstSweep } from './watch/first-sweep.ts';
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
const DEFAULT_SIZES = [1_000, 10_000, 100_000];
const DEFAULT_WORKERS = [1, 3, 10];

/** Settings read from the environment; the defaults are what results.md is written for. */
const SETTINGS = {
  sizes: readList('BENCH_WATCH_SIZES', DEFAULT_SIZES),
  workers: readList('BENCH_WATCH_WORKERS', DEFAULT_WORKERS),
  maxWindowMs: readNumber('BENCH_WATCH_WINDOW_SECONDS', 120) * 1000,
  minWindowMs: readNumber('BENCH_WATCH_MIN_WINDOW_SECONDS', 60) * 1000,
  maxBudgetPerSecond: readNumber('BENCH_WATCH_MAX_RATE', 25),
  maxFactor: readNumber('BENCH_WATCH_MAX_FACTOR', 10),
  flips: readNumber('BENCH_WATCH_FLIPS', 200),
  flipSpreadMs: readNumber('BENCH_WATCH_FLIP_SPREAD_SECONDS', 45) * 1000,
  sweepConcurrency: 4,
};
const IS_DEFAULT_RUN = [
  'BENCH_WATCH_SIZES',
  'BENCH_WATCH_WORKERS',
  'BENCH_WATCH_WINDOW_SECONDS',
  'BENCH_WATCH_MIN_WINDOW_SECONDS',
  'BENCH_WATCH_MAX_RATE',
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

/** One database for every size: each size adds searches to the last, so groups are asked once. */
type RunState = {
  db: Db;
  url: string;
  catalog: BenchCatalog;
  simulator: RunningUpstreamSimulator;
  workDir: string;
  crowd: PlannedUser[];
  seededUsers: number;
  searches: SeededSearch[];
  /** Every group asked so far, in the order the first sweeps asked them. */
  swept: { countryCode: string; productId: string; storeId: string }[];
  usedPairs: Set<string>;
};

async function runSize(
  state: RunState,
  size: number,
): Promise<{ summary: SizeSummary; results: ConfigurationResult[] }> {
  const { db, simulator } = state;
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
    SETTINGS.workers.length,
    createSeededRandom(size + 1),
    state.usedPairs,
  );
  const sweep = await runFirstSweep(db, simulator.url, alertingKeys, SETTINGS.sweepConcurrency);
  state.swept.push(...sweep.groups);
  const groups = state.swept.map((group) => ({
    ...group,
    isAlerting: alertingKeys.has(`${group.countryCode}:${group.productId}:${group.storeId}`),
  }));
  sayLine(
    `First sweep of the new groups (unpaced, ${SETTINGS.sweepConcurrency} at a time): ${sweep.requests} requests in ${formatDuration(sweep.ms)}` +
      `${sweep.failed > 0 ? `, ${sweep.failed} failed` : ''}; all ${groups.length} groups at 30 a minute would take ` +
      `${formatDuration((groups.length / 30) * 60_000)} with one worker.`,
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
  for (const [index, workers] of SETTINGS.workers.entries()) {
    const promise = computeFreshnessSchedule({
      budgetPerMinute: workers * DEFAULTS.upstreamRatePerMinute,
      intervalMs: DEFAULTS.pollIntervalSeconds * 1000,
      alertingGroups: crowd.alertingGroups,
      pageOnlyGroups: crowd.groups - crowd.alertingGroups,
    });
    const compression = chooseCompression({
      workers,
      allFreshWithinMs: promise.allFreshWithinMs,
      alertingFreshWithinMs: promise.alertingFreshWithinMs,
      maxFactor: SETTINGS.maxFactor,
      maxBudgetPerSecond: SETTINGS.maxBudgetPerSecond,
      minWindowMs: SETTINGS.minWindowMs,
      maxWindowMs: SETTINGS.maxWindowMs,
      flipSpreadMs: SETTINGS.flipSpreadMs,
    });
    sayLine(
      `- ${workers} worker${workers === 1 ? '' : 's'}: the defaults promise "${describeFreshness(promise)}"; ` +
        `K = ${compression.factor} (interval ${compression.intervalSeconds} s, ${compression.ratePerMinute} requests a minute per worker, ` +
        `quiet window ${compression.quietWindowMinutes} min), window ${formatDuration(compression.windowMs)} = ` +
        `${formatDuration(compression.windowMs * compression.factor)} real (${Math.round(compression.promiseCoverage * 100)} % of the promise)` +
        `${compression.doFlipsFit ? '' : '; flips made late in the spread are not due to be asked about before the window ends'}.`,
    );
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
      workers,
      compression,
      probes: probes[index] ?? [],
      log: sayLine,
    });
    const problems = summariseWorkerLog(result.workerLogLines);
    sayLine(
      `  workers up in ${formatDuration(result.startupMs)}; ${result.requests} requests in ${result.cycles} cycles; ` +
        `${result.emails} emails; ${result.outboxLeft} alerts left queued at the end` +
        `${problems === '' ? '; workers logged nothing at warn or above.' : `; workers logged: ${problems}`}`,
    );
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

async function main(): Promise<void> {
  const started = performance.now();
  sayLine('# `npm run bench:watch`: watch engine at the shipped defaults\n');
  for (const line of describeMachine()) sayLine(`${line}  `);
  const catalog = await loadBenchCatalog(REPO_ROOT);
  for (const note of catalog.notes) sayLine(note);
  if (process.argv.includes('--plan-only')) {
    runPlanOnly(catalog, sayLine);
    return;
  }
  const server = await openBenchServer();
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-bench-watch-work-'));
  await chmod(workDir, 0o755);
  const simulator = await startUpstreamSimulator({
    port: await getFreePort(),
    seed: 11,
    // Shelves hold still but for the flips: see "What the figures leave out".
    changeEverySeconds: 365 * 24 * 3600,
    stores: catalog.simulatorStores,
    models: PRODUCT_MODEL_SEEDS,
    countries: COUNTRY_SEEDS,
  });
  sayLine(`Database: ${server.label}  `);
  sayLine(
    `Settings: POLL_INTERVAL_SECONDS ${DEFAULTS.pollIntervalSeconds}, UPSTREAM_RATE_PER_MINUTE ${DEFAULTS.upstreamRatePerMinute} per worker, ` +
      `UPSTREAM_BURST ${DEFAULTS.upstreamBurst}, ALERT_QUIET_WINDOW_MINUTES ${DEFAULTS.quietWindowMinutes}; sizes ${SETTINGS.sizes.join(', ')}; ` +
      `workers ${SETTINGS.workers.join(', ')}; ${SETTINGS.flips} flips per configuration.\n`,
  );
  sayLine('### Time compression\n');
  sayLine(
    `Each configuration runs the defaults K times faster: interval 60/K s, ${DEFAULTS.upstreamRatePerMinute}·K requests a minute per worker, burst ${DEFAULTS.upstreamBurst}, ` +
      `quiet window 30/K min, so every interval holds exactly the requests of a real one. K is the smallest of 1, 2, 3, 5, 6, 10, 15, 30 (at most ${SETTINGS.maxFactor}) ` +
      `that fits the planner's promised period for all groups into a window of at most ${formatDuration(SETTINGS.maxWindowMs)}, ` +
      `capped so all workers together may send at most ${SETTINGS.maxBudgetPerSecond} requests a second on this machine. ` +
      'Polling-side times (cycle gaps, staleness, promise, flip to queued alert) are wall-clock times K; ' +
      'the answer-to-SMTP part does not depend on polling and is measured in real time, unscaled.',
  );
  sayLine(
    `What the watcher's fixed timings distort under compression (at K = ${SETTINGS.maxFactor}, the largest allowed):`,
  );
  for (const line of describeDistortions(SETTINGS.maxFactor)) sayLine(`- ${line}`);
  sayLine('\n### Catalog\n');
  for (const note of catalog.notes) sayLine(`- ${note}`);
  sayLine(
    `- Crowd: product types by launch order with Zipf weights (exponent ${DEFAULT_CROWD.productExponent}), the store uniform among the stores of ` +
      `the countries selling the type; users ${DEFAULT_CROWD.planShares.good * 100} % Good, ${DEFAULT_CROWD.planShares.better * 100} % Better, ` +
      `${DEFAULT_CROWD.planShares.best * 100} % Premium, up to their plan's searches (most keep one or two); ${DEFAULT_CROWD.preferredShare * 100} % of searches prefer ` +
      `one or two models; ${DEFAULT_CROWD.emailOnShare * 100} % of paid searches have email on. A search alerts when it prefers a model and has email on.`,
  );
  sayLine(
    '- Sizes grow in one database (the 10,000 include the 1,000). Starting state: every group is asked once, unpaced (the product does ' +
      'this on its first cycle), then before each configuration the ' +
      "groups' last answers are spread evenly over their class's period at that budget (alerting and page-only), in the order the sweep asked " +
      'them, and the queue, worker registry and queued alerts are cleared.',
  );
  const sizes: SizeSummary[] = [];
  const results: ConfigurationResult[] = [];
  try {
    const { db, url } = await server.createDatabase('bench_watch');
    const catalogNote = await loadCatalogInto(db, catalog);
    if (catalogNote !== undefined) sayLine(`- Directory import: ${catalogNote}.`);
    const emptied = emptyEveryShelf(simulator, catalog);
    sayLine(
      `- Shelves: all ${emptied.toLocaleString('en-US')} (store, model) pairs the searches can name are unavailable, as in a launch ` +
        'week; a flip is the only way stock appears, and each pair is flipped once in the run.',
    );
    const state: RunState = {
      db,
      url,
      catalog,
      simulator,
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
    };
    for (const size of [...SETTINGS.sizes].sort((a, b) => a - b)) {
      const outcome = await runSize(state, size);
      sizes.push(outcome.summary);
      results.push(...outcome.results);
    }
  } finally {
    await simulator.close();
    await server.close();
    await rm(workDir, { recursive: true, force: true });
  }
  sayLine('\n## Results\n');
  sayLine('### Crowd\n');
  sayLine(formatCrowdTable(sizes));
  sayLine('\n### Upstream requests per cycle (counted at the simulator)\n');
  sayLine(formatRequestsTable(results));
  sayLine(
    '\n"Cycle every" is the median gap between planned cycles (the defaults say 60 s); "Budget per cycle" is 30 per worker, ' +
      '"One per group" and "One per search" are what a planner asking every group, or every search, each cycle would send.',
  );
  sayLine(
    '\n### Staleness per search (age of the last answer covering its store, sampled every 2 s, weighted by searches)\n',
  );
  sayLine(formatStalenessTable(results));
  sayLine(
    '\n"Planner promise" is what the planner stored in watch_freshness for this budget. "Window / promise" is the share of the ' +
      'promised period the window covered: below 100 % the figures lean on the starting state and cannot show a group starving.',
  );
  sayLine('\n### Flip to email\n');
  sayLine(formatFlipsTable(results));
  sayLine(
    '\nFlip to SMTP: the simulator turns a model an alerting search prefers available at its store; the time until the ' +
      "search's owner's email is accepted by a real SMTP server (tests/helpers/smtp-sink.ts) from the workers' delivery. " +
      'Flip to queued alert is scaled by K, queued alert to SMTP is not. "Answer to SMTP" runs from the alert_outbox row ' +
      '(written in the transaction of the answer that saw the change) to the SMTP server accepting the email, unscaled.',
  );
  sayLine(`\n${describeAnswerToSmtpTarget(results)}`);
  sayLine('\n### What the figures leave out\n');
  for (const line of [
    'Real network and Apple: the simulator answers on loopback in a millisecond or two; Apple takes hundreds of milliseconds and ' +
      'blocks (541/503) well before a fleet of addresses would notice. No faults were injected here.',
    "Restock storms: shelves hold still apart from the flips, so no answer carries hundreds of changes and the only alerts are the flips' " +
      '(each flip emails every alerting search nearby that prefers the model, which the email count shows).',
    'Separate machines: all workers, PostgreSQL, the simulator and the SMTP server share this machine (and its other load); ' +
      'ten workers on ten machines would each have a whole CPU.',
    'Text and push alerts, the website and API (bench:api measures those), and the first sweep at the defaults (it is run unpaced; ' +
      'the table of sizes says how long it would take at 30 a minute).',
    'Worker and job failures: no worker was killed (the multi-worker test covers that).',
    'An idle receiving side: the SMTP server runs in the benchmark process (beside the simulator and the sampler) and ' +
      'parses each message before it answers 250; receipt is stamped when the benchmark sees the accepted message (within 5 ms).',
  ]) {
    sayLine(`- ${line}`);
  }
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

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
