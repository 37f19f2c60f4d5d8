import { Command, InvalidArgumentError } from 'commander';
import { PLAN_CODES, type PlanCode } from '#shared/domain/plans.ts';
import type { Db } from './db/database.ts';

// Start-up speed: this file imports only commander and the plan codes. Each command loads its
// code when it runs (`await import(...)` in its action), and a command group defined in its own
// module (user, db, watch) is loaded only when it is the command given; otherwise a stand-in with
// the same name and description fills the command list. `shelfwatch --help` then answers without
// loading the server (Fastify, PostgreSQL, the login provider), which took over a second.

/** Apple's public store directory, the source of `catalog sync`. */
const APPLE_STORE_DIRECTORY_URL = 'https://www.apple.com/rsp-web/store-list?locale=en_US';

/** What the command groups borrow from the command line's set-up. */
export type CliContext = {
  parsePlan: (value: string) => PlanCode;
  withDatabase: <T>(
    task: (db: Db, connectionString: string) => Promise<T>,
    options?: { isMigrating?: boolean },
  ) => Promise<T>;
};

/** A top-level command whose definitions live in their own module, loaded when it runs. */
export type LazyCommandGroup = {
  name: string;
  /** Shown in `shelfwatch --help`; must match the description the module gives the command. */
  description: string;
  register: (program: Command, context: CliContext) => Promise<void>;
};

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
  const [{ loadConfig }, { openDatabase }, { migrateToLatest }] = await Promise.all([
    import('./config/app-config.ts'),
    import('./db/open-database.ts'),
    import('./db/migrate.ts'),
  ]);
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

/** The command groups kept in their own modules, in the order `--help` lists them. */
const LAZY_COMMAND_GROUPS: readonly LazyCommandGroup[] = [
  {
    name: 'user',
    description: 'accounts (without a sign-up page)',
    register: async (program, context) =>
      (await import('./accounts/user-commands.ts')).registerUserCommands(program, context),
  },
  {
    name: 'db',
    description: 'back the database up and restore it',
    register: async (program, context) =>
      (await import('./backup/backup-commands.ts')).registerDbCommands(program, context),
  },
  {
    name: 'doctor',
    description:
      'ask Apple once through every egress address and compare the answers with the captured shape (exit 1 on drift or block)',
    // The doctor is a stand-alone feature; the watcher's egress addresses are handed to it here.
    register: async (program) => {
      const [{ registerDoctorCommand }, { createEgressAddresses }] = await Promise.all([
        import('./doctor/doctor-command.ts'),
        import('./watch/egress-agents.ts'),
      ]);
      registerDoctorCommand(program, { createEgressAddresses });
    },
  },
  {
    name: 'watch',
    description: 'watch stores from this terminal, without an account or a server',
    register: async (program) =>
      (await import('./terminal-watch/watch-command.ts')).registerWatchCommands(program),
  },
];

/** The command named on a command line (`help user` names `user`), if any. */
function findCommandName(args: readonly string[]): string | undefined {
  const words = args.filter((arg) => !arg.startsWith('-'));
  return words[0] === 'help' ? words[1] : words[0];
}

/**
 * Adds a group: the real commands when `isLoaded`, else a stand-in with its name and
 * description (enough for the top-level command list).
 */
async function addGroup(
  program: Command,
  group: LazyCommandGroup,
  context: CliContext,
  isLoaded: boolean,
): Promise<void> {
  if (isLoaded) {
    await group.register(program, context);
  } else {
    program.command(group.name).description(group.description);
  }
}

/**
 * Builds the `shelfwatch` command line for `args` (the words after the program name): the
 * group `args` names is loaded with its commands, the others are listed only.
 */
async function buildCli(args: readonly string[]): Promise<Command> {
  const program = new Command('shelfwatch').description('Shelfwatch server administration');
  const context: CliContext = { parsePlan, withDatabase };
  const named = findCommandName(args);
  const groups = new Map(LAZY_COMMAND_GROUPS.map((group) => [group.name, group]));
  const addNamedGroup = async (name: string): Promise<void> => {
    const group = groups.get(name);
    if (group !== undefined) await addGroup(program, group, context, named === name);
  };

  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(async () => {
      const { migrateToLatest } = await import('./db/migrate.ts');
      const applied = await withDatabase((db) => migrateToLatest(db));
      console.log(
        applied.length === 0 ? 'Database is up to date.' : `Applied: ${applied.join(', ')}`,
      );
    });

  const catalog = program.command('catalog').description('countries, stores and products');
  const runImport = async (source: string): Promise<void> => {
    const { importStoreDirectory, seedCatalog } = await import('./catalog/catalog-seed.ts');
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
  if (named === 'catalog') {
    const { registerCatalogModelCommands } = await import('./catalog/catalog-commands.ts');
    registerCatalogModelCommands(catalog, context);
  }

  program
    .command('set-plan')
    .argument('<email>', 'the account email')
    .argument('<plan>', `one of ${PLAN_CODES.join(', ')}`, parsePlan)
    .description(
      "change an account's plan (until billing is configured); searches over the new limit are paused",
    )
    .action(async (email: string, plan: PlanCode) => {
      const [{ setPlanByEmail }, { describePlanChanges }] = await Promise.all([
        import('./accounts/index.ts'),
        import('./accounts/user-commands.ts'),
      ]);
      const changes = await withDatabase((db) => setPlanByEmail(db, email, plan));
      if (changes.length === 0) {
        throw new Error(`No account with email ${email} (add one with \`shelfwatch user add\`)`);
      }
      console.log(`Set ${changes.length} account(s) with email ${email} to ${plan}.`);
      for (const line of describePlanChanges(changes)) console.log(line);
    });

  await addNamedGroup('user');
  await addNamedGroup('db');

  program
    .command('serve')
    .description(
      'run the website, API and login without polling or alert delivery (run `shelfwatch worker` processes beside it)',
    )
    .action(async () => {
      const { runServer } = await import('./run-server.ts');
      await runServer({ isWorkerIncluded: false });
    });

  program
    .command('worker')
    .description(
      'poll the upstream and deliver alerts, without the website (run several against one DATABASE_URL)',
    )
    .action(async () => {
      const [{ loadConfig }, { runWorker }] = await Promise.all([
        import('./config/app-config.ts'),
        import('./run-worker.ts'),
      ]);
      await runWorker(loadConfig());
    });

  await addNamedGroup('doctor');
  await addNamedGroup('watch');
  return program;
}

/** Runs the command line of this process. */
async function runCli(): Promise<void> {
  const args = process.argv.slice(2);
  const program = await buildCli(args);
  await program.parseAsync(args, { from: 'user' });
}

runCli().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
