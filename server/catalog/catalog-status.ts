import type { CatalogSyncStatus } from '#shared/api/catalog.ts';
import type { CatalogDiffSummary } from '#shared/catalog/catalog-diff.ts';
import type { Executor } from '#server/db/database.ts';
import { findLatestCatalogChange } from '#server/db/repositories/catalog-changes-repository.ts';

// Lists on the status page are cut at this many names; the counts stay whole.
const LISTED_NAMES = 20;

function readList(
  summary: unknown,
  key: keyof CatalogDiffSummary | 'problems' | 'pagesRetired',
): string[] {
  const value =
    typeof summary === 'object' && summary !== null
      ? (summary as Record<string, unknown>)[key]
      : undefined;
  return Array.isArray(value)
    ? value.filter((entry): entry is string => typeof entry === 'string')
    : [];
}

/** The status page's view of the buy-page sync: the last run, and what the last good one changed. */
export async function readCatalogSyncStatus(db: Executor): Promise<CatalogSyncStatus | null> {
  const last = await findLatestCatalogChange(db, 'sync');
  if (last === undefined) return null;
  const success = last.is_ok ? last : await findLatestCatalogChange(db, 'sync', { isOkOnly: true });
  const lists = {
    types_added: readList(success?.summary, 'typesAdded'),
    types_retired: readList(success?.summary, 'typesRetired'),
    parts_added: readList(success?.summary, 'partsAdded'),
    parts_retired: readList(success?.summary, 'partsRetired'),
    parts_returned: readList(success?.summary, 'partsReturned'),
    parts_changed: readList(success?.summary, 'partsChanged'),
  };
  return {
    synced_at: last.created_at.toISOString(),
    is_ok: last.is_ok,
    origin: last.origin,
    error: last.error,
    page_problems: readList(last.summary, 'problems').slice(0, LISTED_NAMES),
    pages_retired: readList(last.summary, 'pagesRetired').slice(0, LISTED_NAMES),
    last_success_at: success?.created_at.toISOString() ?? null,
    changes:
      success === undefined
        ? null
        : {
            types_added: lists.types_added.slice(0, LISTED_NAMES),
            types_retired: lists.types_retired.slice(0, LISTED_NAMES),
            parts_added: lists.parts_added.slice(0, LISTED_NAMES),
            parts_retired: lists.parts_retired.slice(0, LISTED_NAMES),
            parts_returned: lists.parts_returned.slice(0, LISTED_NAMES),
            parts_changed: lists.parts_changed.slice(0, LISTED_NAMES),
            counts: {
              types_added: lists.types_added.length,
              types_retired: lists.types_retired.length,
              parts_added: lists.parts_added.length,
              parts_retired: lists.parts_retired.length,
              parts_returned: lists.parts_returned.length,
              parts_changed: lists.parts_changed.length,
            },
          },
  };
}
