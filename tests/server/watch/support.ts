// Test support for the watch engine: a migrated, seeded database, the upstream simulator on a
// hand-moved clock shared with the poller, and quick ways to make users and searches.
import type { Db, Executor } from '#server/db/database.ts';
import { listSnapshots } from '#server/db/repositories/availability-repository.ts';
import {
  replacePreferredParts,
  insertSearch,
} from '#server/db/repositories/searches-repository.ts';
import {
  findOrCreateUserByIdentity,
  updateUserAccount,
  updateUserPlan,
} from '#server/db/repositories/users-repository.ts';
import type { PlanCode, SearchRow, UserRow } from '#server/db/schema.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import {
  declareEgressPool,
  runWatchCycle,
  type CycleReport,
  type EgressAddress,
  type EgressPool,
  type PollerDeps,
} from '#server/watch/index.ts';
import { startUpstreamSimulator, type RunningUpstreamSimulator } from '#server/simulator/index.ts';
import type { SimulatorBehaviour } from '#server/config/simulator-settings.ts';
import { COUNTRY_SEEDS, PRODUCT_MODEL_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';
import { DEFAULT_PARTS_PER_REQUEST } from '#shared/watch/engine/index.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

/** A fixed instant the watch tests start their clocks at. */
export const WATCH_START_MS = Date.UTC(2026, 0, 15, 12, 0, 0);

/** Database, simulator and poller sharing one clock the test moves. */
export type WatchHarness = {
  testDb: TestDatabase;
  db: Db;
  simulator: RunningUpstreamSimulator;
  deps: PollerDeps & { controlParts?: ReadonlyMap<string, string> };
  now: () => number;
  advance: (ms: number) => void;
  /** Runs one planning cycle and all its polls in this process. */
  runCycle: () => Promise<CycleReport>;
  createUser: (
    name: string,
    plan: PlanCode,
    extra?: { phone?: string | null; isNotificationsEnabled?: boolean },
  ) => Promise<UserRow>;
  createSearch: (
    user: UserRow,
    search: {
      productId: string;
      storeId: string;
      preferred: string[];
      isNearby?: boolean;
      maxMiles?: number | null;
      isEmail?: boolean;
      isText?: boolean;
    },
  ) => Promise<SearchRow>;
  close: () => Promise<void>;
};

/** Part numbers of a product type in a country, from the seed catalog. */
export function listSeedParts(countryCode: string, productId: string): string[] {
  return PRODUCT_MODEL_SEEDS.filter(
    (model) => model.country_code === countryCode && model.product_id === productId,
  ).map((model) => model.part_number);
}

/** Store ids of a country's seeded stores. */
export function listSeedStores(locale: string): string[] {
  return STORE_SEEDS.filter((store) => store.country_locale === locale).map(
    (store) => store.store_id,
  );
}

/** Starts the harness; one per test file. */
export async function startWatchHarness(
  options: {
    quietWindowMinutes?: number;
    intervalSeconds?: number;
    testDb?: TestDatabase;
    startMs?: number;
    /**
     * The simulator's stock schedule: seed and bucket length. By default seed 11 and a schedule
     * that never moves (only a test's flips change stock); the alert-volume bench passes the
     * simulator's own defaults (seed 1, 300 s) for its churn.
     */
    schedule?: { seed: number; changeEverySeconds: number };
    /** Simulator settings; by default Apple today without the per-address block. */
    simulator?: Partial<SimulatorBehaviour>;
    /** Egress addresses; by default one direct address through the global fetch. */
    addresses?: EgressAddress[];
    ratePerMinute?: number;
    burst?: number;
    controlParts?: ReadonlyMap<string, string>;
    /** Most parts in one request (the shipped default unless set). */
    partsPerRequest?: number;
  } = {},
): Promise<WatchHarness> {
  const testDb = options.testDb ?? (await createTestDatabase());
  await seedCatalog(testDb.db);
  let clock = options.startMs ?? WATCH_START_MS;
  const now = (): number => clock;
  const simulator = await startUpstreamSimulator({
    port: await getFreePort(),
    seed: options.schedule?.seed ?? 11,
    // A schedule that never moves during a test: only the test's flips change stock.
    changeEverySeconds: options.schedule?.changeEverySeconds ?? 365 * 24 * 3600,
    stores: STORE_SEEDS,
    models: PRODUCT_MODEL_SEEDS,
    countries: COUNTRY_SEEDS,
    now,
    blockAfterRequests: 0,
    ...options.simulator,
  });
  const pool: EgressPool = {
    addresses: options.addresses ?? [
      {
        label: 'direct test',
        kind: 'direct',
        fetch: (url, init) => fetch(url, init),
        close: () => Promise.resolve(),
      },
    ],
    ratePerMinute: options.ratePerMinute ?? 1000,
    burst: options.burst ?? 1000,
    baseCoolDownMs: 300_000,
    maxCoolDownMs: 3_600_000,
  };
  await declareEgressPool(testDb.db, pool, clock);
  const deps: PollerDeps & { controlParts?: ReadonlyMap<string, string> } = {
    db: testDb.db,
    now,
    random: () => 0.5,
    // Waiting for a token moves the test's clock instead of the wall clock.
    sleep: (ms) => {
      clock += ms;
      return Promise.resolve();
    },
    pool,
    baseUrl: simulator.url,
    shape: 'pickup-message',
    intervalMs: (options.intervalSeconds ?? 60) * 1000,
    quietWindowMs: (options.quietWindowMinutes ?? 30) * 60_000,
    partsPerRequest: options.partsPerRequest ?? DEFAULT_PARTS_PER_REQUEST,
    // A request that cannot be sent now is left to a later cycle: tests move time themselves.
    maxTokenWaitMs: 0,
    controlParts: options.controlParts,
  };
  let userCount = 0;
  return {
    testDb,
    db: testDb.db,
    simulator,
    deps,
    now,
    advance: (ms) => {
      clock += ms;
    },
    runCycle: () => runWatchCycle(deps),
    createUser: async (name, plan, extra = {}) => {
      userCount += 1;
      const user = await findOrCreateUserByIdentity(testDb.db, {
        issuer: 'https://idp.test/',
        subject: `${name}-${userCount}`,
        email: `${name}@example.com`,
      });
      await updateUserPlan(testDb.db, user.id, plan);
      return await updateUserAccount(testDb.db, user.id, {
        email: user.email,
        phone_number: extra.phone === undefined ? '+12025550123' : extra.phone,
        enable_notifications: extra.isNotificationsEnabled ?? true,
      });
    },
    createSearch: async (user, search) => {
      const row = await insertSearch(testDb.db, {
        user_id: user.id,
        product_type: search.productId,
        store_id: search.storeId,
        include_nearby_store_results: search.isNearby ?? false,
        max_distance_miles: search.maxMiles ?? null,
        send_email_updates: search.isEmail ?? true,
        send_text_updates: search.isText ?? true,
      });
      await replacePreferredParts(testDb.db, row.id, search.preferred);
      return row;
    },
    close: async () => {
      await simulator.close();
      if (options.testDb === undefined) await testDb.drop();
    },
  };
}

/** The recorded status of one part at one store, through the repository the app reads with. */
export async function readSnapshotStatus(
  db: Executor,
  storeId: string,
  partNumber: string,
): Promise<string | undefined> {
  const [row] = await listSnapshots(db, [storeId], [partNumber]);
  return row?.status;
}
