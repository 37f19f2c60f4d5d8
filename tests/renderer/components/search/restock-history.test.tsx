// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RestockHistory } from '#renderer/components/search/restock-history.tsx';
import {
  computeCountTicks,
  formatAge,
  formatShortAge,
  groupRestocksByStore,
  latestTime,
  selectRecentRestocks,
  shortenModelName,
  summariseRestocks,
  toRestockChartData,
  trimQuoteStore,
  type RestockChartData,
} from '#renderer/components/search/restock-history-data.ts';
import { emptyHistory, makeDaily, makeRestockEvent } from '#tests/renderer/fixtures.ts';

// uPlot draws on a canvas, which jsdom lacks: the panel is tested with a stand-in that shows
// the series it was given (the mapping itself is tested directly below).
const chartBehaviour = vi.hoisted(() => ({ shouldThrow: false }));
vi.mock('#renderer/components/search/restock-chart.tsx', () => ({
  RestockChart: ({ data }: { data: RestockChartData }) => {
    if (chartBehaviour.shouldThrow) throw new Error('canvas unavailable');
    return <div data-testid="restock-chart">{data.restocks.join(',')}</div>;
  },
}));

afterEach(() => {
  cleanup();
  chartBehaviour.shouldThrow = false;
  vi.restoreAllMocks();
});

const NOW = new Date('2025-06-08T12:00:00Z');
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000).toISOString();

describe('restock chart data', () => {
  it('maps daily counts to day indexes, counts and UTC day labels, oldest first', () => {
    const data = toRestockChartData(makeDaily([0, 2, 0, 1, 0, 0, 3]));
    expect(data.indexes).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(data.restocks).toEqual([0, 2, 0, 1, 0, 0, 3]);
    expect(data.tickLabels).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    expect(data.dayLabels[0]).toBe('Mon, Jun 2');
    expect(data.dayLabels[6]).toBe('Sun, Jun 8');
  });

  it('keeps an unreadable date as it came and never plots negative counts', () => {
    const data = toRestockChartData([{ date: 'not-a-day', restocks: -1 }]);
    expect(data.dayLabels).toEqual(['not-a-day']);
    expect(data.restocks).toEqual([0]);
  });

  it('summarises the total and the busiest day', () => {
    expect(summariseRestocks(makeDaily([0, 2, 0, 1, 0, 0, 3]))).toBe(
      '6 restocks in the last 7 days, most on Sun, Jun 8 (3)',
    );
    expect(summariseRestocks(makeDaily([0, 0, 1, 0, 0, 0, 0]))).toBe(
      '1 restock in the last 7 days, most on Wed, Jun 4 (1)',
    );
    expect(summariseRestocks(makeDaily([0, 1, 0, 0, 0, 0, 1]))).toBe(
      '2 restocks in the last 7 days',
    );
    expect(summariseRestocks(makeDaily())).toBe('No restocks recorded in the last 7 days');
  });

  it('ends the count axis on a labelled tick at or above the highest bar, with three or more labels', () => {
    expect(computeCountTicks(62)).toEqual([0, 20, 40, 60, 80]);
    expect(computeCountTicks(50)).toEqual([0, 20, 40, 60]);
    expect(computeCountTicks(0)).toEqual([0, 1, 2]);
    expect(computeCountTicks(1)).toEqual([0, 1, 2]);
    expect(computeCountTicks(3)).toEqual([0, 1, 2, 3]);
    expect(computeCountTicks(5)).toEqual([0, 2, 4, 6]);
    expect(computeCountTicks(25_000)).toEqual([0, 10_000, 20_000, 30_000]);
    for (let max = 0; max <= 3000; max += 7) {
      const ticks = computeCountTicks(max);
      expect(ticks.length).toBeGreaterThan(2);
      expect(ticks.length).toBeLessThanOrEqual(5);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
      expect(ticks.every((tick) => Number.isInteger(tick))).toBe(true);
    }
  });

  it('groups recent restocks by store in the order of their newest restock', () => {
    const events = [
      makeRestockEvent({ id: 'a', store_id: 'R1', store_name: 'Short Hills' }),
      makeRestockEvent({ id: 'b', store_id: 'R2', store_name: 'Garden State Plaza' }),
      makeRestockEvent({ id: 'c', store_id: 'R1', store_name: 'Short Hills' }),
    ];
    expect(
      groupRestocksByStore(events).map((group) => [
        group.storeName,
        group.events.map((event) => event.id),
      ]),
    ).toEqual([
      ['Short Hills', ['a', 'c']],
      ['Garden State Plaza', ['b']],
    ]);
  });

  it('drops the product name from model names, never leaving a bare "Max"', () => {
    expect(shortenModelName('iPhone 16 Pro 256GB Black Titanium', 'iPhone 16 Pro')).toBe(
      '256GB Black Titanium',
    );
    expect(shortenModelName('iPhone 16 Pro Max 256GB Black Titanium', 'iPhone 16 Pro')).toBe(
      'iPhone 16 Pro Max 256GB Black Titanium',
    );
    expect(shortenModelName('AirPods Max Blue', 'AirPods')).toBe('AirPods Max Blue');
    expect(shortenModelName('iPhone 16 Pro 256GB', undefined)).toBe('iPhone 16 Pro 256GB');
  });

  it("drops the store's name from a pickup quote listed under it", () => {
    expect(trimQuoteStore('Today at Apple Short Hills', 'Short Hills')).toBe('Today');
    expect(trimQuoteStore('Tomorrow at Fifth Avenue.', 'Fifth Avenue')).toBe('Tomorrow');
    expect(trimQuoteStore('Available today', 'Short Hills')).toBe('Available today');
    expect(trimQuoteStore('Today at Apple Short Hills', 'Union Square')).toBe(
      'Today at Apple Short Hills',
    );
    expect(trimQuoteStore('Today at Apple (R1)+', '(R1)+')).toBe('Today');
  });

  it('lists only changes to available, newest first, at most five', () => {
    const events = [
      makeRestockEvent({ id: 'a', observed_at: hoursAgo(5) }),
      makeRestockEvent({ id: 'sold-out', to_status: 'unavailable', observed_at: hoursAgo(1) }),
      makeRestockEvent({ id: 'b', observed_at: hoursAgo(2) }),
      ...['c', 'd', 'e', 'f'].map((id, index) =>
        makeRestockEvent({ id, observed_at: hoursAgo(10 + index) }),
      ),
    ];
    expect(selectRecentRestocks(events).map((event) => event.id)).toEqual([
      'b',
      'a',
      'c',
      'd',
      'e',
    ]);
  });

  it('formats ages compactly for the list and in words for the check time', () => {
    expect(formatShortAge(hoursAgo(0), NOW)).toBe('just now');
    expect(formatShortAge(hoursAgo(0.5), NOW)).toBe('30 min ago');
    expect(formatShortAge(hoursAgo(2), NOW)).toBe('2 h ago');
    expect(formatShortAge(hoursAgo(50), NOW)).toBe('2 d ago');
    expect(formatShortAge(hoursAgo(-1), NOW)).toBe('just now');
    expect(formatAge(hoursAgo(1 / 60), NOW)).toBe('1 minute ago');
    expect(formatAge(hoursAgo(3), NOW)).toBe('3 hours ago');
    expect(formatAge(null, NOW)).toBeNull();
    expect(latestTime(hoursAgo(3), hoursAgo(1))).toBe(hoursAgo(1));
    expect(latestTime('garbage', undefined)).toBeNull();
  });
});

describe('restock history panel', () => {
  it('shows a spinner while loading', () => {
    render(<RestockHistory history={undefined} isPending isError={false} now={NOW} />);
    expect(screen.getByRole('status').textContent).toContain('Loading restock history...');
  });

  it('says so when the history could not be loaded', () => {
    render(<RestockHistory history={undefined} isPending={false} isError now={NOW} />);
    expect(screen.getByRole('alert').textContent).toContain("Restock history couldn't be loaded");
  });

  it('keeps the last good history when a refetch fails', () => {
    render(<RestockHistory history={emptyHistory} isPending={false} isError now={NOW} />);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('No restocks recorded in the last 7 days')).toBeTruthy();
  });

  it('shows the empty state without a chart when nothing restocked', () => {
    render(<RestockHistory history={emptyHistory} isPending={false} isError={false} now={NOW} />);
    expect(screen.getByText('No restocks recorded in the last 7 days')).toBeTruthy();
    expect(screen.queryByTestId('restock-chart')).toBeNull();
  });

  it('draws the chart with a text table and lists recent restocks', async () => {
    const history = {
      ...emptyHistory,
      daily: makeDaily([0, 0, 0, 0, 0, 1, 1]),
      events: [
        makeRestockEvent({
          id: '2',
          display_name: 'iPhone 16 Pro 256GB Black Titanium',
          store_id: 'R095',
          store_name: 'Fifth Avenue',
          observed_at: hoursAgo(2),
        }),
        makeRestockEvent({ id: '1', to_status: 'unavailable', observed_at: hoursAgo(3) }),
        makeRestockEvent({ id: '0', pickup_quote: null, observed_at: hoursAgo(26) }),
      ],
    };
    render(
      <RestockHistory
        history={history}
        productName="iPhone 16 Pro"
        isPending={false}
        isError={false}
        now={NOW}
      />,
    );
    expect((await screen.findByTestId('restock-chart')).textContent).toBe('0,0,0,0,0,1,1');
    const figure = screen.getByRole('figure');
    expect(figure.getAttribute('aria-label')).toBe('Restock chart: 2 restocks in the last 7 days');
    const table = within(figure).getByRole('table', { name: /Restocks per day \(UTC\)/ });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(8);
    expect(rows[7].textContent).toBe('Sun, Jun 81');
    // Each store is named once, in a heading over its rows.
    expect(
      screen.getAllByRole('heading', { level: 4 }).map((heading) => heading.textContent),
    ).toEqual(['Fifth Avenue', 'Union Square']);
    const fifth = within(
      screen.getByRole('list', { name: 'Recent restocks at Fifth Avenue' }),
    ).getAllByRole('listitem');
    expect(fifth.map((item) => item.textContent)).toEqual([
      '256GB Black Titanium, 2 h ago · Available today',
    ]);
    expect(fifth[0].querySelector('time')?.getAttribute('dateTime')).toBe(hoursAgo(2));
    const union = within(
      screen.getByRole('list', { name: 'Recent restocks at Union Square' }),
    ).getAllByRole('listitem');
    expect(union.map((item) => item.textContent)).toEqual(['128GB Black Titanium, 1 d ago']);
  });

  it('keeps the table and list when the chart itself fails', async () => {
    chartBehaviour.shouldThrow = true;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const history = {
      ...emptyHistory,
      daily: makeDaily([0, 0, 0, 0, 0, 0, 1]),
      events: [makeRestockEvent({ observed_at: hoursAgo(1) })],
    };
    render(<RestockHistory history={history} isPending={false} isError={false} now={NOW} />);
    expect(await screen.findByText(/The chart couldn't be shown/)).toBeTruthy();
    expect(screen.getByRole('table')).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Recent restocks at Union Square' })).toBeTruthy();
  });
});
