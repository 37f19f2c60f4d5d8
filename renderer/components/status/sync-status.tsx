import Table from 'react-bootstrap/Table';
import type { WatchStatus } from '#shared/api/watch.ts';
import { getCountryDisplayName } from '#shared/catalog/locale.ts';
import { countStores, formatAgo } from './status-format.ts';

// The catalog's two syncs with Apple: the models read from the buy pages, and the stores read
// from Apple's store directory, country by country.

type CatalogSync = NonNullable<WatchStatus['catalog_sync']>;
type DirectorySync = NonNullable<WatchStatus['directory_sync']>[number];

/** "added 2, retired 1" from a change's counts; "no changes" when all are zero. */
function describeCatalogChanges(changes: CatalogSync['changes']): string {
  if (changes === null) return 'no sync has worked yet';
  const labels: [keyof typeof changes.counts, string][] = [
    ['types_added', 'product types added'],
    ['types_retired', 'product types retired'],
    ['parts_added', 'models added'],
    ['parts_retired', 'models retired'],
    ['parts_returned', 'models back on sale'],
    ['parts_changed', 'models renamed'],
  ];
  const parts = labels
    .filter(([key]) => changes.counts[key] > 0)
    .map(([key, label]) => `${changes.counts[key]} ${label}`);
  return parts.length === 0 ? 'no changes' : parts.join(', ');
}

/** The last buy-page sync: when, whether it worked, what it changed. */
export function CatalogSyncStatus({ sync, now }: { sync: CatalogSync | null; now: Date }) {
  return (
    <section aria-labelledby="status-catalog-sync" className="mb-5">
      <h2 id="status-catalog-sync" className="h4">
        Product catalog
      </h2>
      <p className="text-body-secondary">
        The models you can watch come from Apple’s buy pages, read again every day, so new
        configurations appear and discontinued ones are marked without waiting for an update.
      </p>
      {sync === null ? (
        <p data-testid="catalog-sync">
          The catalog has not been synced from Apple’s pages yet: it uses the list shipped with
          Shelfwatch.
        </p>
      ) : (
        <dl className="row mb-0" data-testid="catalog-sync">
          <dt className="col-sm-4">Last sync</dt>
          <dd className="col-sm-8">
            {formatAgo(sync.synced_at, now)}, {sync.is_ok ? 'worked' : 'failed'}
          </dd>
          <dt className="col-sm-4">Last sync that worked</dt>
          <dd className="col-sm-8">{formatAgo(sync.last_success_at, now)}</dd>
          <dt className="col-sm-4">What it changed</dt>
          <dd className="col-sm-8">{describeCatalogChanges(sync.changes)}</dd>
        </dl>
      )}
    </section>
  );
}

/** One country's last directory read, in words. */
export function describeDirectoryRead(entry: DirectorySync): string {
  if (entry.outcome === 'not_listed') {
    return 'Apple has no store directory for this country (it answers “not found”); its stores are learned from stock answers instead, and none is closed.';
  }
  if (entry.outcome === 'failed') {
    return 'The directory could not be read this time; nothing was changed.';
  }
  const parts = [`${countStores(entry.listed)} listed`];
  if (entry.added.length > 0) parts.push(`new: ${entry.added.join(', ')}`);
  if (entry.closed.length > 0) parts.push(`closed: ${entry.closed.join(', ')}`);
  if (entry.reopened.length > 0) parts.push(`reopened: ${entry.reopened.join(', ')}`);
  return parts.join('; ');
}

/** The last store directory read per country. */
export function DirectorySyncStatus({
  entries,
  now,
}: {
  entries: readonly DirectorySync[];
  now: Date;
}) {
  return (
    <section aria-labelledby="status-directory-sync" className="mb-5">
      <h2 id="status-directory-sync" className="h4">
        Store directory
      </h2>
      <p className="text-body-secondary">
        Stores come from Apple’s store directory, read country by country. A store Apple adds
        becomes searchable; a store it stops listing is marked closed: searches already watching it
        keep it, but new searches can’t choose it.
      </p>
      {entries.length === 0 ? (
        <p data-testid="directory-sync">
          The store directory has not been read yet: stores come from the list shipped with
          Shelfwatch.
        </p>
      ) : (
        <Table responsive size="sm" data-testid="directory-sync">
          <thead>
            <tr>
              <th scope="col">Country</th>
              <th scope="col">Last read</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.country_code}>
                <th scope="row">{getCountryDisplayName(entry.country_code)}</th>
                <td>{formatAgo(entry.synced_at, now)}</td>
                <td>
                  {describeDirectoryRead(entry)}
                  {'error' in entry && typeof entry.error === 'string' ? (
                    <div className="small text-body-secondary">{entry.error}</div>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}
