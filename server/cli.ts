import { Command, InvalidArgumentError } from 'commander';
import { PLAN_CODES, type PlanCode } from '#shared/domain/plans.ts';
import { registerUserCommands, describePlanChanges } from './accounts/user-commands.ts';
import { registerCatalogModelCommands } from './catalog/catalog-commands.ts';
import { setPlanByEmail } from './accounts/index.ts';
import { loadConfig } from './config.ts';
import type { Db } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { registerDbCommands } from './db/backup/commands.ts';
import { importStoreDirectory, seedCatalog } from './services/catalog-service.ts';
import { runServer } from './run-server.ts';
import { openDatabase } from './stack.ts';
import { registerWatchCommands } from './terminal-watch/watch-command.ts';
import { runWorker } from './watch/run-worker.ts';

/** Apple's public store directory, the source of `catalog sync`. */
const APPLE_STORE_DIRECTORY_URL = 'https://www.apple.com/rsp-web/store-list?locale=en_US';

/**
 * Runs `task` against the configured database, migrated unless `isMigrating` is false, then
 * closes it; `task` also gets the connection string (for COPY streams and pg_dump). With the embedded
 * default it joins the cluster a running `npm start` has on the same data folder, or starts
 * one just for the command; which of the two goes to stderr, so stdout stays the answer.
 */
async function withDatabase<T>(
  task: (db: Db, connectionString: string) => Promise<T>,
  options: { isMigrating?: boolean } = {},
): Promise<T> {
  const { db, cluster, source, connectionString } = await openDatabase(loadConfig(), {
    isSharing: true,
  });
  if (source.kind === 'embedded') {
    console.error(
      source.isShared
        ? `Using the running embedded PostgreSQL on port ${source.port}`
        : `Started embedded PostgreSQL on port ${source.port} for this command (stopped again when done)`,
    );
  }
  try {
    if (options.isMigrating !== false) await migrateToLatest(db);
    return await task(db, connectionString);
  } finally {
    await db.destroy();
    await cluster?.stop();
  }
}

function parsePlan(value: string): PlanCode {
  if (!(PLAN_CODES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`plan must be one of ${PLAN_CODES.join(', ')}`);
  }
  return value as PlanCode;
}

/** Builds the `shelfwatch` command line. */
export function buildCli(): Command {
  const program = new Command('shelfwatch').description('Shelfwatch server administration');

  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(async () => {
      const applied = await withDatabase((db) => migrateToLatest(db));
      console.log(
        applied.length === 0 ? 'Database is up to date.' : `Applied: ${applied.join(', ')}`,
      );
    });

  const catalog = program.command('catalog').description('countries, stores and products');
  const runImport = async (source: string): Promise<void> => {
    const report = await withDatabase(async (db) => {
      await seedCatalog(db);
      return await importStoreDirectory(db, source);
    });
    console.log(`Imported ${report.imported} stores.`);
    if (report.countriesAdded.length > 0) {
      console.log(`Added countries: ${report.countriesAdded.join(', ')}`);
    }
    for (const skipped of report.skipped) {
      console.log(`Skipped ${skipped.id ?? '(no id)'}: ${skipped.reason}`);
    }
  };
  catalog
    .command('import-stores')
    .argument('<source>', "a file or http(s) URL in Apple's store-directory format")
    .description("import stores from Apple's store directory format")
    .action(runImport);
  catalog
    .command('sync')
    .description(`refresh stores from ${APPLE_STORE_DIRECTORY_URL}`)
    .action(() => runImport(APPLE_STORE_DIRECTORY_URL));
  registerCatalogModelCommands(catalog, { withDatabase });

  program
    .command('set-plan')
    .argument('<email>', 'the account email')
    .argument('<plan>', `one of ${PLAN_CODES.join(', ')}`, parsePlan)
    .description(
      "change an account's plan (until billing is configured); searches over the new limit are paused",
    )
    .action(async (email: string, plan: PlanCode) => {
      const changes = await withDatabase((db) => setPlanByEmail(db, email, plan));
      if (changes.length === 0) {
        throw new Error(`No account with email ${email} (add one with \`shelfwatch user add\`)`);
      }
      console.log(`Set ${changes.length} account(s) with email ${email} to ${plan}.`);
      for (const line of describePlanChanges(changes)) console.log(line);
    });

  registerUserCommands(program, { parsePlan, withDatabase });
  registerDbCommands(program, { withDatabase });

  program
    .command('serve')
    .description(
      'run the website, API and login without polling or alert delivery (run `shelfwatch worker` processes beside it)',
    )
    .action(() => runServer({ isWorkerIncluded: false }));

  program
    .command('worker')
    .description(
      'poll the upstream and deliver alerts, without the website (run several against one DATABASE_URL)',
    )
    .action(() => runWorker(loadConfig()));

  registerWatchCommands(program);
  return program;
}

buildCli()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
