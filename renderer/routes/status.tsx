import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import type { OperatorWatchStatus } from '#shared/api/watch.ts';
import { describeRequestError } from '#renderer/api/api-errors.ts';
import { usePageTitle } from '#renderer/components/hooks/use-page-title.ts';
import { useNow } from '#renderer/components/hooks/use-now.ts';
import { CountryEndpoints, CountryFreshness } from '#renderer/components/status/country-status.tsx';
import { OperatorStatus } from '#renderer/components/status/operator-status.tsx';
import {
  DelaySummary,
  FreshnessPromise,
  RefusedParts,
} from '#renderer/components/status/status-summary.tsx';
import { formatWhen } from '#renderer/components/status/status-format.ts';
import {
  CatalogSyncStatus,
  DirectorySyncStatus,
} from '#renderer/components/status/sync-status.tsx';
import { useServiceStatus } from '#renderer/components/status/use-service-status.ts';

/** Shown when /v2/status answered with an error. */
export const STATUS_ERROR_TEXT = 'The service status could not be loaded. Please try again.';

/**
 * /status: what GET /v2/status holds, for people: whether alerts are on time, the freshness
 * the request budget promises, freshness per country with a chart, how each country is asked,
 * the last catalog and store directory syncs, and (only in the operator's view) the addresses
 * and their budget.
 */
export function StatusRoute() {
  usePageTitle('Service status');
  const status = useServiceStatus();
  const now = useNow();

  if (status.isPending) {
    return (
      <div className="text-center py-5" role="status">
        <Spinner animation="border" aria-hidden="true" />
        <p className="mt-2">Loading the service status…</p>
      </div>
    );
  }
  if (status.isError) {
    return (
      <div className="text-center py-5">
        <p className="text-danger" role="alert">
          {describeRequestError(status.error, STATUS_ERROR_TEXT)}
        </p>
        <Button variant="outline-primary" onClick={() => void status.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const data = status.data;
  return (
    <article className="mx-auto" style={{ maxWidth: 900 }}>
      <h1 className="h2">Service status</h1>
      <p className="text-body-secondary">
        How Shelfwatch’s checks of Apple’s stores are going, updated every minute. As of{' '}
        {formatWhen(data.checked_at)}.
      </p>
      <DelaySummary status={data} />
      <FreshnessPromise freshness={data.freshness} now={now} />
      <CountryFreshness countries={data.countries} now={now} />
      <CountryEndpoints countries={data.countries} />
      <RefusedParts parts={data.invalid_parts} />
      <CatalogSyncStatus sync={data.catalog_sync ?? null} now={now} />
      <DirectorySyncStatus entries={data.directory_sync ?? []} now={now} />
      {data.view === 'operator' ? (
        <OperatorStatus status={data satisfies OperatorWatchStatus} now={now} />
      ) : null}
    </article>
  );
}
