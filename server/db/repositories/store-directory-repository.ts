import type { Selectable } from 'kysely';
import type { Executor } from '../database.ts';
import type { StoreDirectorySyncsTable } from '../schema.ts';

// The store directory sync's reads and writes: which stores a locale holds, closing the ones
// the directory stopped listing and reopening the ones it lists again, and the last read per
// country for the status page.

/** The last directory read of one country. */
export type StoreDirectorySyncRow = Selectable<StoreDirectorySyncsTable>;

/** A store of a locale as the sync weighs it. */
export type LocaleStoreRow = {
  store_id: string;
  store_name: string;
  closed_on: string | null;
  is_learned: boolean;
};

/** Every store filed under the locale, closed ones too. */
export async function listLocaleStores(db: Executor, locale: string): Promise<LocaleStoreRow[]> {
  return await db
    .selectFrom('stores')
    .select(['store_id', 'store_name', 'closed_on', 'is_learned'])
    .where('country_locale', '=', locale)
    .orderBy('store_id')
    .execute();
}

/** Every store id the catalog knows, whatever its locale. */
export async function listKnownStoreIds(db: Executor): Promise<Set<string>> {
  const rows = await db.selectFrom('stores').select('store_id').execute();
  return new Set(rows.map((row) => row.store_id));
}

/** Marks open stores closed from `today` (YYYY-MM-DD); answers the ids it closed. */
export async function closeStores(
  db: Executor,
  storeIds: readonly string[],
  today: string,
): Promise<string[]> {
  if (storeIds.length === 0) return [];
  const rows = await db
    .updateTable('stores')
    .set({ closed_on: today, updated_at: new Date() })
    .where('store_id', 'in', storeIds)
    .where('closed_on', 'is', null)
    .returning('store_id')
    .execute();
  return rows.map((row) => row.store_id).sort();
}

/** Opens closed stores the directory lists again; answers the ids it reopened. */
export async function reopenStores(db: Executor, storeIds: readonly string[]): Promise<string[]> {
  if (storeIds.length === 0) return [];
  const rows = await db
    .updateTable('stores')
    .set({ closed_on: null, updated_at: new Date() })
    .where('store_id', 'in', storeIds)
    .where('closed_on', 'is not', null)
    .returning('store_id')
    .execute();
  return rows.map((row) => row.store_id).sort();
}

/** Records a country's latest read; a failed read keeps the time of the last good one. */
export async function recordDirectorySync(
  db: Executor,
  row: Omit<StoreDirectorySyncRow, 'last_success_at'>,
): Promise<void> {
  const isGood = row.outcome === 'read';
  await db
    .insertInto('store_directory_syncs')
    .values({ ...row, last_success_at: isGood ? row.synced_at : null })
    .onConflict((conflict) =>
      conflict.column('country_code').doUpdateSet((eb) => ({
        locale_code: eb.ref('excluded.locale_code'),
        synced_at: eb.ref('excluded.synced_at'),
        outcome: eb.ref('excluded.outcome'),
        http_status: eb.ref('excluded.http_status'),
        listed: eb.ref('excluded.listed'),
        added: eb.ref('excluded.added'),
        closed: eb.ref('excluded.closed'),
        reopened: eb.ref('excluded.reopened'),
        error: eb.ref('excluded.error'),
        last_success_at: isGood
          ? eb.ref('excluded.synced_at')
          : eb.ref('store_directory_syncs.last_success_at'),
      })),
    )
    .execute();
}

/** Every country's latest read, by country code. */
export async function listDirectorySyncs(db: Executor): Promise<StoreDirectorySyncRow[]> {
  return await db.selectFrom('store_directory_syncs').selectAll().orderBy('country_code').execute();
}

/** When any country's directory was last read, or undefined before the first read. */
export async function findLatestDirectorySyncAt(db: Executor): Promise<Date | undefined> {
  const row = await db
    .selectFrom('store_directory_syncs')
    .select((eb) => eb.fn.max('synced_at').as('latest'))
    .executeTakeFirst();
  return row?.latest ?? undefined;
}

/**
 * Gives stores filed from the directory (which carries no coordinates) the coordinates and
 * zone an answer lists them with; stores that have coordinates keep theirs.
 */
export async function fillStoreCoordinates(
  db: Executor,
  stores: readonly {
    storeNumber: string;
    latitude: number | null;
    longitude: number | null;
    timeZone: string | null;
  }[],
): Promise<void> {
  // In store order, as the directory sync writes them, so the two never wait on each other.
  const placed = stores
    .filter((store) => store.latitude !== null && store.longitude !== null)
    .sort((a, b) => a.storeNumber.localeCompare(b.storeNumber));
  for (const store of placed) {
    await db
      .updateTable('stores')
      .set((eb) => ({
        latitude: store.latitude,
        longitude: store.longitude,
        time_zone: eb.fn.coalesce('time_zone', eb.val(store.timeZone)),
        updated_at: new Date(),
      }))
      .where('store_id', '=', store.storeNumber)
      .where('latitude', 'is', null)
      .execute();
  }
}
