import type { Database } from './schema.ts';
import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationResultSet } from 'kysely/migration';
import * as initial from './migrations/0001-initial.ts';
import * as watchAndAlerts from './migrations/0002-watch-and-alerts.ts';
import * as watchWorkers from './migrations/0003-watch-workers.ts';
import * as billing from './migrations/0004-billing.ts';
import * as accountLifecycle from './migrations/0005-account-lifecycle.ts';
import * as catalogLifecycle from './migrations/0006-catalog-lifecycle.ts';
import * as egressAndSeeds from './migrations/0007-egress-and-seeds.ts';
import * as quietHours from './migrations/0008-quiet-hours.ts';
import * as searchInventory from './migrations/0009-search-inventory.ts';
import * as userChannels from './migrations/0010-user-channels.ts';
import * as searchSummary from './migrations/0011-search-summary.ts';
import * as answerKnowledge from './migrations/0012-answer-knowledge.ts';
import * as storeDirectorySync from './migrations/0013-store-directory-sync.ts';
import * as alertVolume from './migrations/0014-alert-volume.ts';

/** Every migration in order; files are imported statically so bundles and tsx agree. */
const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-watch-and-alerts': watchAndAlerts,
  '0003-watch-workers': watchWorkers,
  '0004-billing': billing,
  '0005-account-lifecycle': accountLifecycle,
  '0006-catalog-lifecycle': catalogLifecycle,
  '0007-egress-and-seeds': egressAndSeeds,
  '0008-quiet-hours': quietHours,
  '0009-search-inventory': searchInventory,
  '0010-user-channels': userChannels,
  '0011-search-summary': searchSummary,
  '0012-answer-knowledge': answerKnowledge,
  '0013-store-directory-sync': storeDirectorySync,
  '0014-alert-volume': alertVolume,
};

/** The names of every migration this program knows, oldest first. */
export const KNOWN_MIGRATIONS: readonly string[] = Object.keys(migrations);

/** Applies pending forward migrations up to and including `name` (`db` may be a transaction). */
export async function migrateUpTo(db: Kysely<Database>, name: string): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const result: MigrationResultSet = await migrator.migrateTo(name);
  if (result.error !== undefined) {
    const failed = result.results?.find((entry) => entry.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed`, {
      cause: result.error,
    });
  }
  return (result.results ?? []).map((entry) => entry.migrationName);
}

/** Applies every pending forward migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  const failed = result.results?.find((entry) => entry.status === 'Error');
  if (result.error !== undefined) {
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed`, {
      cause: result.error,
    });
  }
  return (result.results ?? []).map((entry) => entry.migrationName);
}
