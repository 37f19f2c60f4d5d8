import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { StripeConnection } from '#server/billing/index.ts';
import { loadConfig } from '#server/config/app-config.ts';
import { upsertSnapshots } from '#server/db/repositories/availability-repository.ts';
import {
  findOrCreateUserByIdentity,
  updateUserPlan,
} from '#server/db/repositories/users-repository.ts';
import type { PlanCode } from '#server/db/schema.ts';
import { createIdpAccount } from '#server/identity/index.ts';
import { startStack, type RunningStack } from '#server/stack.ts';
import { getFreePort } from './free-port.ts';
import { createTestDatabase } from './test-database.ts';

/** The whole product as `npm start` runs it, on free ports and a database of its own. */
export type TestStack = {
  baseUrl: string;
  issuer: string;
  stack: RunningStack;
  /** Creates a login on the embedded provider and its user row on `plan`. */
  createUser: (input: { email: string; password: string; plan: PlanCode }) => Promise<void>;
  /** Records a pickup status as if the watcher had observed it now. */
  setAvailability: (
    storeId: string,
    partNumber: string,
    status: 'available' | 'unavailable',
  ) => Promise<void>;
  stop: () => Promise<void>;
};

/** Starts tried before a port taken meanwhile fails the test. */
const MAX_START_ATTEMPTS = 3;

/** Whether a start failed because a port it was given is in use. */
function isAddressInUse(error: unknown): boolean {
  return error instanceof Error && (error as Error & { code?: unknown }).code === 'EADDRINUSE';
}

/**
 * Starts the stack; extra environment variables override the test defaults, and
 * `stripeConnection` points its Stripe client (with STRIPE_* set) at a stand-in.
 */
export async function startTestStack(
  environment: Record<string, string> = {},
  options: { stripeConnection?: StripeConnection } = {},
): Promise<TestStack> {
  // The stack migrates the database itself, as `npm start` does.
  const testDb = await createTestDatabase({ isMigrated: false });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-stack-'));
  const startOnFreePorts = async (attempt: number): Promise<RunningStack> => {
    const config = loadConfig({
      PORT: String(await getFreePort()),
      IDP_PORT: String(await getFreePort()),
      SIMULATOR_PORT: String(await getFreePort()),
      DATABASE_URL: testDb.url,
      SHELFWATCH_DATA_DIR: dataDir,
      SHELFWATCH_DISABLE_DEMO: 'true',
      WATCH_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      ...environment,
    });
    try {
      return await startStack(config, undefined, {
        isWorkerIncluded: true,
        stripeConnection: options.stripeConnection,
      });
    } catch (error) {
      // A free port can be taken between asking for it and listening on it (another test
      // file's connection, on a busy machine): new ports then, as a person would retry.
      if (attempt < MAX_START_ATTEMPTS && isAddressInUse(error)) {
        return await startOnFreePorts(attempt + 1);
      }
      await testDb.drop();
      await rm(dataDir, { recursive: true, force: true });
      throw error;
    }
  };
  const started = await startOnFreePorts(1);
  return {
    baseUrl: started.siteUrl,
    issuer: started.issuer,
    stack: started,
    createUser: async ({ email, password, plan }) => {
      const account = await createIdpAccount(started.db, {
        email,
        password,
        isEmailVerified: true,
      });
      const user = await findOrCreateUserByIdentity(started.db, {
        issuer: started.issuer,
        subject: account.id,
        email,
      });
      await updateUserPlan(started.db, user.id, plan);
    },
    setAvailability: async (storeId, partNumber, status) => {
      await upsertSnapshots(started.db, [
        {
          store_id: storeId,
          part_number: partNumber,
          status,
          pickup_quote: status === 'available' ? 'Available today' : null,
          observed_at: new Date(),
        },
      ]);
    },
    stop: async () => {
      await started.stop();
      await testDb.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
