import type { RestockEvent, SearchHistory } from '#shared/api/watch.ts';

/** The chart's series: one bar per day, x as the day's index so uPlot never shifts UTC days into local time. */
export type RestockChartData = {
  /** 0..n-1, the x values uPlot plots. */
  indexes: number[];
  /** Restocks per day, oldest first. */
  restocks: number[];
  /** Short axis labels ("Mon"), one per day. */
  tickLabels: string[];
  /** Full labels for the text alternative ("Mon, Jun 3"). */
  dayLabels: string[];
};

// The server counts per UTC day: label them in UTC too, or a day could read as its neighbour.
const DAY_LABEL = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const TICK_LABEL = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' });

/** Parses "YYYY-MM-DD" as that UTC midnight; null when unreadable. */
function parseUtcDay(date: string): Date | null {
  const parsed = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

/** Maps the history's `daily` counts (oldest first) to the chart's series and labels. */
export function toRestockChartData(daily: SearchHistory['daily']): RestockChartData {
  return {
    indexes: daily.map((_, index) => index),
    restocks: daily.map((day) => Math.max(0, day.restocks)),
    tickLabels: daily.map((day) => {
      const parsed = parseUtcDay(day.date);
      return parsed === null ? day.date : TICK_LABEL.format(parsed);
    }),
    dayLabels: daily.map((day) => {
      const parsed = parseUtcDay(day.date);
      return parsed === null ? day.date : DAY_LABEL.format(parsed);
    }),
  };
}

/** Total restocks of the period. */
export function countRestocks(daily: SearchHistory['daily']): number {
  return daily.reduce((total, day) => total + Math.max(0, day.restocks), 0);
}

/** One-line summary for screen readers and the caption: total, and the busiest day when one stands out. */
export function summariseRestocks(daily: SearchHistory['daily']): string {
  const total = countRestocks(daily);
  const period = `the last ${daily.length} ${daily.length === 1 ? 'day' : 'days'}`;
  if (total === 0) {
    return `No restocks recorded in ${period}`;
  }
  const summary = `${total} ${total === 1 ? 'restock' : 'restocks'} in ${period}`;
  const data = toRestockChartData(daily);
  const most = Math.max(...data.restocks);
  const busiest = data.restocks.filter((count) => count === most);
  // With a tie, naming one day as "most" would mislead; the table has every day anyway.
  if (busiest.length > 1) {
    return summary;
  }
  return `${summary}, most on ${data.dayLabels[data.restocks.indexOf(most)]} (${most})`;
}

/** How many recent restocks the list shows. */
export const RECENT_RESTOCK_LIMIT = 5;

/** The newest changes *to* available (the history also lists sell-outs), newest first. */
export function selectRecentRestocks(
  events: readonly RestockEvent[],
  limit: number = RECENT_RESTOCK_LIMIT,
): RestockEvent[] {
  return events
    .filter((event) => event.to_status === 'available')
    .sort((a, b) => Date.parse(b.observed_at) - Date.parse(a.observed_at))
    .slice(0, limit);
}

/** Recent restocks of one store, newest first. */
export type StoreRestocks = { storeId: string; storeName: string; events: RestockEvent[] };

/**
 * Recent restocks grouped by store so each store is named once: stores in the order of their
 * newest restock, events keeping their order.
 */
export function groupRestocksByStore(events: readonly RestockEvent[]): StoreRestocks[] {
  const groups = new Map<string, StoreRestocks>();
  for (const event of events) {
    const group = groups.get(event.store_id) ?? {
      storeId: event.store_id,
      storeName: event.store_name,
      events: [],
    };
    group.events.push(event);
    groups.set(event.store_id, group);
  }
  return [...groups.values()];
}

/**
 * A pickup quote without the store it names ("Today at Apple Short Hills" -> "Today"), for
 * rows listed under that store's heading. Other quotes are kept as they came.
 */
export function trimQuoteStore(quote: string, storeName: string): string {
  const suffix = new RegExp(`\\s+at\\s+(?:Apple\\s+)?${escapeRegExp(storeName)}\\.?$`, 'i');
  const trimmed = quote.replace(suffix, '').trim();
  return trimmed === '' ? quote : trimmed;
}

function escapeRegExp(text: string): string {
  return text.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A model's name without the search's product name ("iPhone 16 Pro 256GB Black Titanium" ->
 * "256GB Black Titanium") for rows under a header that already names the product. Only a
 * remainder starting with a number (capacity, size, generation) is taken, so "iPhone 16 Pro
 * Max …" is never shortened to "Max …".
 */
export function shortenModelName(displayName: string, productName: string | undefined): string {
  if (productName === undefined || !displayName.startsWith(`${productName} `)) return displayName;
  const rest = displayName.slice(productName.length + 1);
  return /^\d/.test(rest) ? rest : displayName;
}

/** Whole-number ticks of the restock axis: from 0 to a top at or above the busiest day. */
export const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] as const;

/**
 * The count axis's ticks: the smallest step giving at most four intervals, at least two, so
 * the axis always shows three or more labels and its top label sits at or above the highest bar.
 */
export function computeCountTicks(maxCount: number): number[] {
  const max = Math.max(1, Math.ceil(maxCount));
  const step =
    COUNT_STEPS.find((candidate) => Math.ceil(max / candidate) <= 4) ??
    COUNT_STEPS[COUNT_STEPS.length - 1] *
      Math.ceil(max / (4 * COUNT_STEPS[COUNT_STEPS.length - 1]));
  const intervals = Math.max(2, Math.ceil(max / step));
  return Array.from({ length: intervals + 1 }, (_, index) => index * step);
}

/** Compact age for list rows: "just now", "12 min ago", "2 h ago", "3 d ago". */
export function formatShortAge(iso: string, now: Date): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) {
    return 'at an unknown time';
  }
  // A clock slightly ahead of the server's reads as just now rather than "in 1 min".
  const minutes = Math.max(0, Math.floor((now.getTime() - at) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

/** "5 minutes ago" (no prefix), for "Last checked ..." and "as of ..."; null when unknown. */
export function formatAge(iso: string | null, now: Date): string | null {
  if (iso === null) return null;
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return null;
  const minutes = Math.max(0, Math.floor((now.getTime() - at) / 60_000));
  if (minutes < 1) return 'less than a minute ago';
  if (minutes < 60) return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} ${hours === 1 ? 'hour' : 'hours'} ago`;
  const days = Math.floor(hours / 24);
  return `${days} ${days === 1 ? 'day' : 'days'} ago`;
}

/** The later of two ISO times (either may be missing or unreadable); null when neither reads. */
export function latestTime(
  a: string | null | undefined,
  b: string | null | undefined,
): string | null {
  const times = [a, b].filter(
    (time): time is string => typeof time === 'string' && !Number.isNaN(Date.parse(time)),
  );
  if (times.length === 0) return null;
  return times.reduce((latest, time) => (Date.parse(time) > Date.parse(latest) ? time : latest));
}
