import { KNOWN_MIGRATIONS } from '#server/db/migrate.ts';
import { BackupFileError } from './format.ts';

/** A restore that would overwrite accounts or searches without `--force`. */
export class RestoreRefusedError extends Error {
  constructor() {
    super(
      'The database already holds accounts or searches, which a restore replaces. ' +
        'Run again with --force to replace everything in it with the backup.',
    );
  }
}

/**
 * Refuses a backup whose schema this program cannot rebuild: a migration it does not know
 * (the backup comes from a newer Shelfwatch) or a migration list that is not its own order.
 */
export function checkMigrationsKnown(backup: {
  migrations: string[];
  productVersion?: string;
}): void {
  const unknown = backup.migrations.filter((name) => !KNOWN_MIGRATIONS.includes(name));
  if (unknown.length > 0) {
    throw new BackupFileError(
      `the backup comes from a newer Shelfwatch${backup.productVersion === undefined ? '' : ` (${backup.productVersion})`}: ` +
        `its database is at migration ${unknown.join(', ')}, which this version does not know. ` +
        'Restore it with that version or a later one.',
    );
  }
  if (backup.migrations.some((name, index) => KNOWN_MIGRATIONS[index] !== name)) {
    throw new BackupFileError(
      `its migration list (${backup.migrations.join(', ')}) does not follow this version's order`,
    );
  }
}
