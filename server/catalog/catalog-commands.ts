import os from 'node:os';
import type { Command } from 'commander';
import { formatDiff } from '#shared/catalog/catalog-diff.ts';
import { loadConfig } from '#server/config/app-config.ts';
import type { Db } from '#server/db/database.ts';
import { seedCatalog } from './catalog-seed.ts';
import { applyCatalogFile, readCatalogFile } from './apply-catalog-file.ts';
import { createDirectoryPacer } from './directory-pacing.ts';
import { describeDirectorySync, syncStoreDirectory } from './directory-sync.ts';
import { syncModelsFromBuyPages } from './sync-models.ts';
import { loadModelSyncSettings } from './sync-settings.ts';

/** Runs a task against the configured database (the CLI's own helper). */
type WithDatabase = <T>(task: (db: Db) => Promise<T>) => Promise<T>;

/** Prints a change the way both commands report it. */
function printChange(lines: readonly string[], isApplied: boolean): void {
  for (const line of lines) console.log(line);
  if (lines.length === 1 && lines[0] === 'No changes.') return;
  console.log(isApplied ? 'Applied.' : 'Dry run: nothing was changed.');
}

/**
 * Adds `catalog import-models FILE`, `catalog sync-models` and `catalog sync-stores` to the
 * `catalog` command.
 */
export function registerCatalogModelCommands(
  catalog: Command,
  deps: { withDatabase: WithDatabase },
): void {
  catalog
    .command('import-models')
    .argument('<file>', 'a catalog file (docs/catalog.md describes the format)')
    .option('--dry-run', 'print the changes without applying them')
    .description(
      'validate a catalog file, print what it adds, retires and changes, and apply it in one transaction',
    )
    .action(async (file: string, options: { dryRun?: boolean }) => {
      // Validated before the database is opened: a bad file changes nothing and names the entry.
      const parsed = await readCatalogFile(file);
      const result = await deps.withDatabase(async (db) => {
        await seedCatalog(db);
        return await applyCatalogFile(db, parsed, {
          kind: 'import',
          origin: file,
          isDryRun: options.dryRun === true,
        });
      });
      printChange(formatDiff(result.summary), result.isApplied);
    });

  catalog
    .command('sync-models')
    .option('--dry-run', 'print the changes without applying them')
    .option('--base-url <url>', 'the store to read (default: UPSTREAM_BASE_URL)')
    .description(
      "read Apple's buy pages for every product type that names one, then add, retire and rename models to match",
    )
    .action(async (options: { dryRun?: boolean; baseUrl?: string }) => {
      const baseUrl = options.baseUrl ?? loadConfig().upstream.baseUrl;
      const settings = loadModelSyncSettings();
      const result = await deps.withDatabase(async (db) => {
        await seedCatalog(db);
        return await syncModelsFromBuyPages(db, {
          baseUrl,
          isDryRun: options.dryRun === true,
          pageIntervalMs: settings.pageIntervalMs,
          trigger: 'command line',
        });
      });
      console.log(`Read ${result.pages.length} buy pages from ${baseUrl}.`);
      for (const entry of result.skipped) console.log(`Skipped ${entry}`);
      for (const entry of result.warnings) console.log(`Note: ${entry}`);
      if (result.pagesRetired.length > 0) {
        console.log(`Buy pages retired, no longer read (${result.pagesRetired.length}):`);
        for (const entry of result.pagesRetired) console.log(`  ${entry}`);
      }
      printChange(formatDiff(result.summary), result.isApplied);
      if (result.problems.length > 0) {
        // The pages that were read still applied; the exit code tells a scheduler to look.
        console.error(`Pages not read (${result.problems.length}); the others applied:`);
        for (const problem of result.problems) console.error(`  ${problem}`);
        process.exitCode = 1;
      }
    });

  catalog
    .command('sync-stores')
    .option('--base-url <url>', 'the store to read (default: UPSTREAM_BASE_URL)')
    .option('--country <codes>', 'only these countries, comma-separated (US,GB)')
    .description(
      "read Apple's store directory for each country's locale, add new stores, close the ones no longer listed and reopen returning ones",
    )
    .action(async (options: { baseUrl?: string; country?: string }) => {
      const baseUrl = options.baseUrl ?? loadConfig().upstream.baseUrl;
      const settings = loadModelSyncSettings();
      const countryCodes = options.country
        ?.split(',')
        .map((code) => code.trim().toUpperCase())
        .filter((code) => code !== '');
      const result = await deps.withDatabase(async (db) => {
        await seedCatalog(db);
        return await syncStoreDirectory(db, {
          baseUrl,
          countryCodes,
          // A watcher of this machine (npm start, a worker) shares its direct route's bucket.
          pacer: createDirectoryPacer({
            db,
            addressLabel: `direct ${os.hostname()}`,
            intervalMs: settings.pageIntervalMs,
            maxWaitMs: 10 * 60_000,
          }),
        });
      });
      console.log(
        `Read the store directory of ${result.countries.length} countries from ${baseUrl}.`,
      );
      for (const line of describeDirectorySync(result)) console.log(line);
      const unknown = (countryCodes ?? []).filter(
        (code) => !result.countries.some((entry) => entry.countryCode === code),
      );
      if (unknown.length > 0) console.error(`Not a country of the catalog: ${unknown.join(', ')}`);
      if (unknown.length > 0 || result.countries.some((entry) => entry.outcome === 'failed')) {
        process.exitCode = 1;
      }
    });
}
