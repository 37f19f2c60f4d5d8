import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { AppConfig } from '#server/config/app-config.ts';
import type { Database } from '#server/db/schema.ts';
import { findRunningPostmaster } from '#server/db/embedded-postgres.ts';
import { openDatabase } from '#server/db/open-database.ts';
import { listEgressAddresses } from '#server/db/repositories/egress-repository.ts';

// The addresses' block state as the watchers share it (`egress_addresses`), read when the
// database can be reached without side effects: DATABASE_URL, or an embedded cluster that
// already runs. The doctor never starts a cluster, migrates or writes: it reports.

/** One address's row, as the doctor shows it. */
export type EgressRowView = {
  coolDownUntil: Date | null;
  consecutiveBlocks: number;
  lastBlockAt: Date | null;
  lastSuccessAt: Date | null;
  lastFailureKind: string | null;
};

/** Every address's row by label, or why the database was not read. */
export type EgressState =
  | { isReachable: true; rows: ReadonlyMap<string, EgressRowView> }
  | { isReachable: false; reason: string };

const CONNECT_TIMEOUT_MS = 5_000;

/** Reads `egress_addresses`; never throws (an unreachable database is part of the report). */
export async function readEgressState(config: AppConfig): Promise<EgressState> {
  try {
    if (config.databaseUrl !== undefined) {
      return await readWith(openUrlDatabase(config.databaseUrl), async () => undefined);
    }
    const directory = path.join(config.dataDir, 'postgres');
    if ((await findRunningPostmaster(directory)) === undefined) {
      return {
        isReachable: false,
        reason: `no DATABASE_URL and no embedded PostgreSQL running in ${config.dataDir}`,
      };
    }
    const opened = await openDatabase(config, { isSharing: true, warn: () => undefined });
    return await readWith(opened.db, async () => await opened.cluster?.stop());
  } catch (error) {
    return { isReachable: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

// A pool of its own with a connect timeout: an unreachable DATABASE_URL must not hold the
// doctor for the operating system's TCP timeout.
function openUrlDatabase(connectionString: string): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString,
    max: 1,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  pool.on('error', () => undefined);
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

async function readWith(db: Kysely<Database>, release: () => Promise<void>): Promise<EgressState> {
  try {
    const rows = await listEgressAddresses(db);
    return {
      isReachable: true,
      rows: new Map(
        rows.map((row) => [
          row.label,
          {
            coolDownUntil: row.cool_down_until,
            consecutiveBlocks: row.consecutive_blocks,
            lastBlockAt: row.last_block_at,
            lastSuccessAt: row.last_success_at,
            lastFailureKind: row.last_failure_kind,
          },
        ]),
      ),
    };
  } finally {
    await db.destroy();
    await release();
  }
}
