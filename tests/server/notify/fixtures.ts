import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type AppConfig } from '#server/config/app-config.ts';
import type { Db } from '#server/db/database.ts';
import { insertSearch } from '#server/db/repositories/searches-repository.ts';
import type { PlanCode, SearchRow, UserRow } from '#server/db/schema.ts';
import {
  startAlertDelivery,
  type AlertDelivery,
  type AlertDeliveryOptions,
} from '#server/notify/delivery-worker.ts';
import type { AlertChannel, AlertItem, AlertToEnqueue } from '#server/notify/alert-types.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

/** Public origin the tests configure; links in messages start with it. */
export const TEST_PUBLIC_URL = 'https://shelfwatch.test';

/** A migrated, seeded database, a data folder and ways to make users, searches and alerts. */
export type NotifyFixture = {
  testDb: TestDatabase;
  db: Db;
  dataDir: string;
  /** The real config loader over these variables (plus data dir and public URL). */
  buildConfig: (env?: Record<string, string>) => AppConfig;
  createUser: (
    name: string,
    plan: PlanCode,
    values?: Partial<
      Pick<UserRow, 'phone_number' | 'enable_notifications' | 'is_text_opted_out' | 'email'>
    >,
  ) => Promise<UserRow>;
  createSearch: (
    user: UserRow,
    values?: Partial<Pick<SearchRow, 'send_email_updates' | 'send_text_updates'>>,
  ) => Promise<SearchRow>;
  buildAlert: (
    user: UserRow,
    search: SearchRow,
    channel: AlertChannel,
    key: string,
    /** Overrides of the one pair the alert lists. */
    item?: Partial<AlertItem>,
  ) => AlertToEnqueue;
  /** Starts a worker tuned for tests (fast polling and retries); stopped by `close`. */
  startWorker: (
    config: AppConfig,
    options?: Partial<AlertDeliveryOptions>,
  ) => Promise<AlertDelivery>;
  /** Status and attempts of every outbox row, oldest first. */
  listOutbox: () => Promise<
    {
      id: string;
      idempotency_key: string;
      status: string;
      attempts: number;
      last_error: string | null;
    }[]
  >;
  /** Polls until `predicate` holds (generous deadline: no sleep-and-hope). */
  waitFor: (
    description: string,
    predicate: () => Promise<boolean> | boolean,
    timeoutMs?: number,
  ) => Promise<void>;
  /** Stops every worker started so far. */
  stopWorkers: () => Promise<void>;
  close: () => Promise<void>;
};

/** A silent logger that still keeps lines for assertions. */
export function createTestLogger(): {
  lines: string[];
  info: (line: string) => void;
  warn: (line: string) => void;
  error: (line: string) => void;
} {
  const lines: string[] = [];
  return {
    lines,
    info: (line) => lines.push(line),
    warn: (line) => lines.push(line),
    error: (line) => lines.push(line),
  };
}

/** Sets up the fixture; one per test file. */
export async function createNotifyFixture(): Promise<NotifyFixture> {
  const testDb = await createTestDatabase();
  await seedCatalog(testDb.db);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-notify-'));
  const workers: AlertDelivery[] = [];
  const db = testDb.db;
  return {
    testDb,
    db,
    dataDir,
    buildConfig: (env = {}) =>
      loadConfig({ SHELFWATCH_DATA_DIR: dataDir, PUBLIC_URL: TEST_PUBLIC_URL, ...env }),
    createUser: async (name, plan, values = {}) =>
      await db
        .insertInto('users')
        .values({
          issuer: 'https://idp.test/',
          subject: name,
          email: `${name}@example.com`,
          phone_number: null,
          plan,
          ...values,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    createSearch: async (user, values = {}) =>
      await insertSearch(db, {
        user_id: user.id,
        product_type: 'iphone16pro',
        store_id: 'R095',
        ...values,
      }),
    buildAlert: (user, search, channel, key, item = {}) => ({
      idempotencyKey: `${key}:${channel}`,
      channel,
      userId: user.id,
      searchId: search.id,
      payload: {
        searchId: search.id,
        productName: 'iPhone 16 Pro',
        items: [
          {
            modelName: 'iPhone 16 Pro 256GB Desert Titanium',
            partNumber: 'MYMJ3LL/A',
            storeId: 'R095',
            storeName: 'Fifth Avenue',
            storeCity: 'New York',
            storeState: 'NY',
            storeSlug: 'fifthavenue',
            countryCode: 'US',
            distanceMiles: 2.4,
            pickupQuote: 'Available Today',
            observedAt: '2026-11-22T10:15:00.000Z',
            eventId: null,
            ...item,
          },
        ],
        heldUntil: null,
      },
    }),
    startWorker: async (config, options = {}) => {
      const worker = await startAlertDelivery({
        db,
        config,
        logger: createTestLogger(),
        pollIntervalMs: 100,
        leaseMs: 3_000,
        backoff: { baseMs: 200, maxMs: 1_000 },
        ...options,
      });
      workers.push(worker);
      return worker;
    },
    listOutbox: async () =>
      await db
        .selectFrom('alert_outbox')
        .select(['id', 'idempotency_key', 'status', 'attempts', 'last_error'])
        .orderBy('id')
        .execute(),
    waitFor: async (description, predicate, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!(await predicate())) {
        if (Date.now() > deadline) {
          throw new Error(`Timed out waiting for ${description}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stopWorkers: async () => {
      for (const worker of workers.splice(0)) {
        await worker.stop();
      }
    },
    close: async () => {
      for (const worker of workers.splice(0)) {
        await worker.stop();
      }
      await testDb.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
