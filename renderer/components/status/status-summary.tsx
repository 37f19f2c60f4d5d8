import Alert from 'react-bootstrap/Alert';
import type { WatchStatus } from '#shared/api/watch.ts';
import { getCountryDisplayName } from '#shared/catalog/locale.ts';
import { formatAgo, formatWhen } from './status-format.ts';

// The top of the status page: whether alerts are on time, what freshness the request budget
// promises, and the models Apple refused to answer for.

/** On time or delayed, in one sentence a visitor can act on. */
export function DelaySummary({ status }: { status: WatchStatus }) {
  return status.is_delayed ? (
    <Alert variant="warning" data-testid="delay-summary">
      <strong>Alerts may be delayed.</strong> Apple is refusing or failing some checks right now, or
      some stores are overdue. Nothing is marked sold out because of it; alerts catch up once checks
      work again.
    </Alert>
  ) : (
    <Alert variant="success" data-testid="delay-summary">
      <strong>Alerts are on time.</strong> Checks are working and every store is within the
      freshness below.
    </Alert>
  );
}

/** The promise of the request budget, with its figures explained. */
export function FreshnessPromise({
  freshness,
  now,
}: {
  freshness: WatchStatus['freshness'];
  now: Date;
}) {
  return (
    <section aria-labelledby="status-promise" className="mb-5">
      <h2 id="status-promise" className="h4">
        How fresh checks are
      </h2>
      <p className="text-body-secondary">
        Apple lets each network address ask only about once a minute, so Shelfwatch plans its
        requests: searches that would send an alert are checked first, everything else within the
        longer time.
      </p>
      {freshness === null ? (
        <p data-testid="freshness-promise">
          No checks have been planned yet: the watcher has not started.
        </p>
      ) : (
        <dl className="row mb-0" data-testid="freshness-promise">
          <dt className="col-sm-4">Promise</dt>
          <dd className="col-sm-8">{freshness.promise}</dd>
          <dt className="col-sm-4">Groups that can alert</dt>
          <dd className="col-sm-8">
            {freshness.alerting_groups} (stores with a search that alerts, checked first)
          </dd>
          <dt className="col-sm-4">Other groups</dt>
          <dd className="col-sm-8">
            {freshness.page_only_groups} (shown on search pages, checked as the budget allows)
          </dd>
          <dt className="col-sm-4">Overdue groups</dt>
          <dd className="col-sm-8">
            {freshness.overdue_groups} (checked longer ago than promised; each delays alerts)
          </dd>
          <dt className="col-sm-4">Last planned</dt>
          <dd className="col-sm-8">
            {formatAgo(freshness.last_planned_at, now)}
            {freshness.is_planner_stalled
              ? ': planning has stopped, no watcher seems to be running'
              : ''}
          </dd>
        </dl>
      )}
    </section>
  );
}

/** Models Apple refused, left out of requests for a while. */
export function RefusedParts({ parts }: { parts: WatchStatus['invalid_parts'] }) {
  if (parts.length === 0) return null;
  return (
    <section aria-labelledby="status-refused" className="mb-5">
      <h2 id="status-refused" className="h4">
        Models Apple refused
      </h2>
      <p className="text-body-secondary">
        Apple sometimes answers that a model does not exist in a country. Such a model is left out
        of requests for a while, so it cannot spoil the answers for the others, and is tried again
        later.
      </p>
      <ul>
        {parts.map((part) => (
          <li key={`${part.country_code}:${part.part_number}`}>
            {part.display_name} ({part.part_number}, {getCountryDisplayName(part.country_code)}
            ): {part.reason}; tried again {formatWhen(part.retry_after)}
          </li>
        ))}
      </ul>
    </section>
  );
}
