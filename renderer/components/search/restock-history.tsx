import { Component, lazy, Suspense, useMemo, type ReactNode } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import type { SearchHistory } from '#shared/api/watch.ts';
import { loadChunk } from '#renderer/components/layout/chunk-loading.ts';
import {
  countRestocks,
  formatShortAge,
  groupRestocksByStore,
  selectRecentRestocks,
  shortenModelName,
  summariseRestocks,
  toRestockChartData,
  trimQuoteStore,
} from './restock-history-data.ts';
import { SpinnerScreen } from '#renderer/components/layout/spinner-screen.tsx';

// uPlot is fetched only when a history with restocks is on screen, never with the landing page.
const RestockChart = lazy(async () => {
  const module = await loadChunk(() => import('./restock-chart.tsx'));
  return { default: module.RestockChart };
});

/** Keeps a failed chart download from taking the page down: the table still says it all. */
class ChartBoundary extends Component<{ children: ReactNode }, { hasFailed: boolean }> {
  /** Starts without a failure. */
  state = { hasFailed: false };

  /** Swaps the chart for a note once its code or drawing fails. */
  static getDerivedStateFromError(): { hasFailed: boolean } {
    return { hasFailed: true };
  }

  /** Logs why the chart is missing. */
  componentDidCatch(error: unknown): void {
    console.error('Restock chart failed', error);
  }

  /** The chart, or a short note in its place. */
  render() {
    return this.state.hasFailed ? (
      <p className="small text-body-secondary">
        The chart couldn't be shown; the numbers are below.
      </p>
    ) : (
      this.props.children
    );
  }
}

/** The chart as text for screen readers: one row per day of the period. */
function RestockTable({ history }: { history: SearchHistory }) {
  const data = toRestockChartData(history.daily);
  return (
    <table className="visually-hidden">
      {/* The server counts per UTC day; saying so keeps a late-evening restock from confusing. */}
      <caption>Restocks per day (UTC), last {history.days} days</caption>
      <thead>
        <tr>
          <th scope="col">Day</th>
          <th scope="col">Restocks</th>
        </tr>
      </thead>
      <tbody>
        {history.daily.map((day, index) => (
          <tr key={day.date}>
            <th scope="row">{data.dayLabels[index]}</th>
            <td>{data.restocks[index]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The loaded history: summary, chart with its table, and the latest restocks. */
function HistoryBody({
  history,
  productName,
  now,
}: {
  history: SearchHistory;
  productName: string | undefined;
  now: Date;
}) {
  // TanStack keeps `daily` referentially stable across identical refetches, so the chart
  // is only rebuilt when the numbers change.
  const chartData = useMemo(() => toRestockChartData(history.daily), [history.daily]);
  const recent = selectRecentRestocks(history.events);
  if (countRestocks(history.daily) === 0 && recent.length === 0) {
    return (
      <p className="text-body-secondary mb-0">
        No restocks recorded in the last {history.days} days
      </p>
    );
  }
  const summary = summariseRestocks(history.daily);
  return (
    <>
      <figure className="mb-3" aria-label={`Restock chart: ${summary}`}>
        <figcaption className="small text-body-secondary mb-1">{summary}</figcaption>
        <ChartBoundary>
          <Suspense
            fallback={
              <div className="restock-chart d-flex align-items-center justify-content-center">
                <Spinner animation="border" size="sm" variant="secondary" aria-hidden="true" />
              </div>
            }
          >
            <RestockChart data={chartData} />
          </Suspense>
        </ChartBoundary>
        <RestockTable history={history} />
      </figure>
      {recent.length === 0 ? null : (
        <>
          <h3 className="h6">Recent restocks</h3>
          {/* One heading per store: repeating its name on every row (and again in Apple's
              "Today at Apple …" quote) made each line wrap on a phone. */}
          {groupRestocksByStore(recent).map((group) => (
            <div key={group.storeId}>
              <h4 className="small fw-semibold mb-0 mt-2">{group.storeName}</h4>
              <ul
                className="list-unstyled mb-0 small"
                aria-label={`Recent restocks at ${group.storeName}`}
              >
                {group.events.map((event) => (
                  <li
                    key={event.id}
                    className="d-flex justify-content-between column-gap-2 py-1 border-bottom"
                  >
                    <span title={event.display_name}>
                      {shortenModelName(event.display_name, productName)}
                      <span className="visually-hidden">, </span>
                    </span>
                    <span className="text-body-secondary text-nowrap">
                      <time
                        dateTime={event.observed_at}
                        title={new Date(event.observed_at).toLocaleString()}
                      >
                        {formatShortAge(event.observed_at, now)}
                      </time>
                      {event.pickup_quote === null
                        ? null
                        : ` · ${trimQuoteStore(event.pickup_quote, group.storeName)}`}
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </>
      )}
    </>
  );
}

/** Restock history of a search: daily bars for the period, latest restocks, and its states. */
export function RestockHistory({
  history,
  productName,
  isPending,
  isError,
  now,
}: {
  history: SearchHistory | undefined;
  /** The search's product, which rows then leave out of each model's name. */
  productName?: string;
  isPending: boolean;
  isError: boolean;
  now: Date;
}) {
  return (
    <section className="mt-4" aria-labelledby="history-heading">
      <h2 id="history-heading" className="h5">
        Restock history
      </h2>
      {isPending ? <SpinnerScreen label="Loading restock history..." /> : null}
      {/* A failed refetch keeps showing the last good history; only a first failure says so. */}
      {isError && history === undefined ? (
        <p className="text-danger" role="alert">
          Restock history couldn't be loaded right now. It will refresh automatically.
        </p>
      ) : null}
      {history === undefined ? null : (
        <HistoryBody history={history} productName={productName} now={now} />
      )}
    </section>
  );
}
