import path from 'node:path';
import type { Command } from 'commander';
import type { Db } from '#server/db/database.ts';
import {
  backupDatabase,
  formatBackupSummary,
  formatRestoreSummary,
  restoreDatabase,
} from './index.ts';

/** What the `db` commands need from the CLI: its database opener (embedded or DATABASE_URL). */
export type DbCommandContext = {
  withDatabase: <T>(
    task: (db: Db, connectionString: string) => Promise<T>,
    options?: { isMigrating?: boolean },
  ) => Promise<T>;
};

const note = (line: string): void => console.error(line);

/** Adds `db backup FILE` and `db restore FILE [--force]` to the command line. */
export function registerDbCommands(program: Command, context: DbCommandContext): void {
  const db = program.command('db').description('back the database up and restore it');
  db.command('backup')
    .argument('<file>', 'the backup file to write (replaced if it exists)')
    .description(
      'write accounts, searches, history, queued alerts and keys to FILE, consistent while Shelfwatch runs (pg_dump when a recent enough one is found)',
    )
    .action(async (file: string) => {
      // A backup only reads: it neither migrates nor otherwise changes the database.
      const summary = await context.withDatabase(
        (_db, connectionString) => backupDatabase(connectionString, path.resolve(file), { note }),
        { isMigrating: false },
      );
      for (const line of formatBackupSummary(summary)) console.log(line);
    });
  db.command('restore')
    .argument('<file>', 'a file written by `db backup`')
    .option('--force', 'replace the accounts and searches the database already holds')
    .description(
      "replace the database's contents with FILE, all or nothing (refused if it holds accounts or searches, unless --force)",
    )
    .action(async (file: string, options: { force?: boolean }) => {
      // The restore migrates by itself: first to the file's level, then to the latest.
      const summary = await context.withDatabase(
        (_db, connectionString) =>
          restoreDatabase(connectionString, path.resolve(file), {
            isForced: options.force === true,
            note,
          }),
        { isMigrating: false },
      );
      for (const line of formatRestoreSummary(summary)) console.log(line);
      note(
        'Restart any Shelfwatch running on this database (npm start, serve, worker): it keeps the keys it read at start-up.',
      );
    });
}
