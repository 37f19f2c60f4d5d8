// `npm run bench:watch`: how many upstream requests the planner makes per cycle against one
// request per search, and how long a simulator flip takes to become an email at a real SMTP
// server, over the seeded catalog with the real poller, outbox and delivery worker.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '#server/config.ts';
import { createDatabase, type Db } from '#server/db/database.ts';
import {
  ensureDatabase,
  startEmbeddedPostgres,
  type EmbeddedCluster,
} from '#server/db/embedded-postgres.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { startAlertDelivery } from '#server/notify/delivery-worker.ts';
import { seedCatalog } from '#server/services/catalog-service.ts';
import { runWatchCycle, startWatcher, type PollerDeps } from '#server/watch/index.ts';
import {
  startUpstreamSimulator,
  type RunningUpstreamSimulator,
} from '#server/watch/simulator/index.ts';
import {
  COUNTRY_SEEDS,
  PRODUCT_MODEL_SEEDS,
  PRODUCT_TYPE_SEEDS,
  STORE_SEEDS,
} from '#shared/catalog/index.ts';
import { createTokenBucketLimiter } from '#shared/upstream/index.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { startSmtpSink } from '#tests/helpers/smtp-sink.ts';

const SEARCH_COUNTS = [1_000, 10_000];
const MEASURED_CYCLES = 3;
const FLIP_SAMPLES = 20;
const LATENCY_POLL_SECONDS = 5;
const LATENCY_RATE_PER_MINUTE = 600;
const DEFAULT_RATE_PER_MINUTE = 30;

type Combo = { storeId: string; countryCode: string; productId: string; parts: string[] };

/** mulberry32: a small seeded PRNG so every run plans the same searches. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Every (store, product type) a search could watch, with the parts sold there. */
function listCombos(): Combo[] {
  const countryByLocale = new Map(
    COUNTRY_SEEDS.map((country) => [country.locale_code, country.country_code]),
  );
  const combos: Combo[] = [];
  for (const store of STORE_SEEDS) {
    const countryCode = countryByLocale.get(store.country_locale);
    if (countryCode === undefined) continue;
    for (const product of PRODUCT_TYPE_SEEDS) {
      const parts = PRODUCT_MODEL_SEEDS.filter(
        (m) => m.country_code === countryCode && m.product_id === product.product_id,
      ).map((m) => m.part_number);
      if (parts.length > 0)
        combos.push({ storeId: store.store_id, countryCode, productId: product.product_id, parts });
    }
  }
  return combos;
}

/**
 * Inserts `count` searches: stores uniform, product types weighted 1/rank in catalog order
 * (launch demand piles onto a few models), two preferred parts each, nearby results on.
 */
async function insertSearches(
  db: Db,
  count: number,
  random: () => number,
  isEmailOn: boolean,
): Promise<void> {
  const combos = listCombos();
  const products = [...new Set(combos.map((combo) => combo.productId))];
  const weights = products.map((_, index) => 1 / (index + 1));
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
  const pickProduct = (): string => {
    let roll = random() * totalWeight;
    for (const [index, weight] of weights.entries()) {
      roll -= weight;
      if (roll <= 0) return products[index];
    }
    return products[products.length - 1];
  };
  for (let start = 0; start < count; start += 500) {
    const size = Math.min(500, count - start);
    const users = await db
      .insertInto('users')
      .values(
        Array.from({ length: size }, (_, index) => ({
          issuer: 'https://bench/',
          subject: `u${start + index}`,
          email: `u${start + index}@bench.test`,
          plan: 'better' as const,
        })),
      )
      .returning('id')
      .execute();
    const rows = users.map((user) => {
      const productId = pickProduct();
      const candidates = combos.filter((combo) => combo.productId === productId);
      const combo = candidates[Math.floor(random() * candidates.length)];
      return { user, combo };
    });
    const searches = await db
      .insertInto('searches')
      .values(
        rows.map(({ user, combo }) => ({
          user_id: user.id,
          product_type: combo.productId,
          store_id: combo.storeId,
          include_nearby_store_results: true,
          send_text_updates: false,
          send_email_updates: isEmailOn,
        })),
      )
      .returning('id')
      .execute();
    const preferred = searches.flatMap((search, index) => {
      const parts = rows[index].combo.parts;
      const first = Math.floor(random() * parts.length);
      return [...new Set([parts[first], parts[(first + 1) % parts.length]])].map((part_number) => ({
        search_id: search.id,
        part_number,
      }));
    });
    await db.insertInto('search_preferred_models').values(preferred).execute();
  }
}

async function openBenchDatabase(
  cluster: EmbeddedCluster,
  name: string,
): Promise<{ db: Db; url: string }> {
  await ensureDatabase(cluster, name);
  const url = cluster.connectionString(name);
  const db = createDatabase(url, 10);
  await migrateToLatest(db);
  await seedCatalog(db);
  return { db, url };
}

async function measureRequestsPerCycle(cluster: EmbeddedCluster, count: number): Promise<void> {
  const { db } = await openBenchDatabase(cluster, `bench_requests_${count}`);
  let clock = Date.UTC(2026, 0, 15, 12);
  const now = (): number => clock;
  const simulator = await startUpstreamSimulator({
    port: await getFreePort(),
    seed: 3,
    changeEverySeconds: 300,
    stores: STORE_SEEDS,
    models: PRODUCT_MODEL_SEEDS,
    countries: COUNTRY_SEEDS,
    now,
  });
  try {
    await insertSearches(db, count, createRandom(count), true);
    const deps: PollerDeps = {
      db,
      fetch: (url, init) => fetch(url, init),
      now,
      random: () => 0.5,
      limiter: createTokenBucketLimiter({
        capacity: 1e6,
        refillPerSecond: 1e6,
        now,
        sleep: () => Promise.resolve(),
      }),
      baseUrl: simulator.url,
      shape: 'fulfillment-messages',
      intervalMs: 60_000,
      quietWindowMs: 30 * 60_000,
    };
    const requests: number[] = [];
    let groups = 0;
    for (let cycle = 0; cycle <= MEASURED_CYCLES; cycle += 1) {
      const report = await runWatchCycle(deps);
      groups = report.groups;
      requests.push(report.requests);
      clock += 60_000;
    }
    const steady = requests.slice(1);
    const average = steady.reduce((sum, value) => sum + value, 0) / steady.length;
    console.log(
      `${String(count).padStart(6)} searches | ${String(groups).padStart(5)} groups | first cycle ${String(requests[0]).padStart(5)} requests | ` +
        `steady ${steady.join('/')} requests per cycle (avg ${average.toFixed(0)}) | one-per-search ${count} | ` +
        `${(count / average).toFixed(1)}x fewer | at ${DEFAULT_RATE_PER_MINUTE}/min a cycle takes ${(average / DEFAULT_RATE_PER_MINUTE).toFixed(1)} min vs ${(count / DEFAULT_RATE_PER_MINUTE).toFixed(0)} min`,
    );
  } finally {
    await simulator.close();
    await db.destroy();
  }
}

function percentile(sorted: number[], p: number): number {
  return (
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
  );
}

async function measureFlipToEmail(
  cluster: EmbeddedCluster,
  count: number,
  dataDir: string,
): Promise<void> {
  const { db, url } = await openBenchDatabase(cluster, `bench_latency_${count}`);
  const random = createRandom(42);
  const simulator: RunningUpstreamSimulator = await startUpstreamSimulator({
    port: await getFreePort(),
    seed: 5,
    changeEverySeconds: 365 * 24 * 3600,
    stores: STORE_SEEDS,
    models: PRODUCT_MODEL_SEEDS,
    countries: COUNTRY_SEEDS,
  });
  const smtp = await startSmtpSink();
  const silent = (): undefined => undefined;
  // Background searches match (and cost) like any other but send nothing, so the probes'
  // latency is not a queue of thousands of first-sighting emails from the warm-up.
  await insertSearches(db, count, random, false);
  // One probe per flip: a (store, part) that starts unavailable and that only the probe prefers.
  const combos = listCombos().filter((combo) => combo.countryCode === 'US');
  const probes: { email: string; storeId: string; part: string }[] = [];
  for (let index = 0; index < FLIP_SAMPLES; index += 1) {
    const combo = combos[Math.floor(random() * combos.length)];
    const part = combo.parts[Math.floor(random() * combo.parts.length)];
    if (probes.some((probe) => probe.storeId === combo.storeId && probe.part === part)) continue;
    simulator.setStatus(combo.storeId, part, 'unavailable');
    const email = `probe${index}@bench.test`;
    const user = await db
      .insertInto('users')
      .values({ issuer: 'https://bench/', subject: `probe${index}`, email, plan: 'better' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const search = await db
      .insertInto('searches')
      .values({
        user_id: user.id,
        product_type: combo.productId,
        store_id: combo.storeId,
        send_text_updates: false,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('search_preferred_models')
      .values({ search_id: search.id, part_number: part })
      .execute();
    probes.push({ email, storeId: combo.storeId, part });
  }
  // Warm up in this process without pacing: every group asked once, first sightings alerted.
  await runWatchCycle({
    db,
    fetch: (input, init) => fetch(input, init),
    now: Date.now,
    random: Math.random,
    limiter: createTokenBucketLimiter({
      capacity: 1e6,
      refillPerSecond: 1e6,
      now: Date.now,
      sleep: () => Promise.resolve(),
    }),
    baseUrl: simulator.url,
    shape: 'fulfillment-messages',
    intervalMs: LATENCY_POLL_SECONDS * 1000,
    quietWindowMs: 30 * 60_000,
  });
  const config = loadConfig({
    SHELFWATCH_DATA_DIR: dataDir,
    PUBLIC_URL: 'https://shelfwatch.test',
    SMTP_URL: smtp.url,
  });
  const delivery = await startAlertDelivery({
    db,
    config,
    databaseUrl: url,
    logger: { info: silent, warn: silent, error: silent },
    batchSize: 50,
  });
  const watcher = await startWatcher({
    db,
    connectionString: url,
    baseUrl: simulator.url,
    pollIntervalSeconds: LATENCY_POLL_SECONDS,
    upstreamRatePerMinute: LATENCY_RATE_PER_MINUTE,
    upstreamBurst: 10,
    quietWindowMinutes: 30,
  });
  try {
    // Let the first sightings (already-available preferred parts) be alerted and delivered.
    await waitUntil(async () => {
      const targets = await db.selectFrom('poll_targets').select('last_requested_at').execute();
      const pending = await db
        .selectFrom('alert_outbox')
        .select('id')
        .where('status', 'in', ['pending', 'sending'])
        .execute();
      return targets.every((target) => target.last_requested_at !== null) && pending.length === 0;
    }, 600_000);
    const latencies: number[] = [];
    for (const probe of probes) {
      const seen = smtp.messages.length;
      const flippedAt = Date.now();
      simulator.setStatus(probe.storeId, probe.part, 'available');
      await waitUntil(
        () =>
          Promise.resolve(
            smtp.messages.slice(seen).some((message) => message.envelopeTo.includes(probe.email)),
          ),
        300_000,
        10,
      );
      latencies.push(Date.now() - flippedAt);
      process.stdout.write('.');
    }
    latencies.sort((a, b) => a - b);
    process.stdout.write('\n');
    console.log(
      `${String(count).padStart(6)} searches | ${latencies.length} flips | poll every ${LATENCY_POLL_SECONDS} s, ${LATENCY_RATE_PER_MINUTE}/min | ` +
        `flip -> email at SMTP p50 ${(percentile(latencies, 50) / 1000).toFixed(2)} s, p99 ${(percentile(latencies, 99) / 1000).toFixed(2)} s, max ${((latencies.at(-1) ?? 0) / 1000).toFixed(2)} s`,
    );
  } finally {
    await watcher.stop();
    await delivery.stop();
    await smtp.close();
    await simulator.close();
    await db.destroy();
  }
}

async function waitUntil(
  check: () => Promise<boolean>,
  timeoutMs: number,
  stepMs = 250,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('benchmark step timed out');
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}

async function main(): Promise<void> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-bench-'));
  await chmod(folder, 0o755);
  const cluster = await startEmbeddedPostgres({
    directory: path.join(folder, 'pg'),
    port: await getFreePort(),
    password: 'bench-only',
  });
  try {
    console.log(
      `Upstream requests per cycle (${STORE_SEEDS.length} seeded stores, ${PRODUCT_TYPE_SEEDS.length} product types; cycle 1 also asks every group once for its own neighbour list):`,
    );
    for (const count of SEARCH_COUNTS) await measureRequestsPerCycle(cluster, count);
    console.log(
      'Simulator flip to email at a real SMTP server (poller on pg-boss, outbox, delivery worker):',
    );
    for (const count of SEARCH_COUNTS) await measureFlipToEmail(cluster, count, folder);
  } finally {
    await cluster.stop();
    await rm(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
