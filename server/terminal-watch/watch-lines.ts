import type { LocalAlert, LocalCheckLog } from '#shared/watch/local/index.ts';

/** How `shelfwatch watch run` prints: readable lines, or one JSON object per line for piping. */
export type LineFormat = 'text' | 'json';

/** "2026-11-23 10:00:01" in UTC, so lines from different machines sort alike. */
function formatTime(at: number): string {
  return new Date(at).toISOString().replace('T', ' ').slice(0, 19);
}

/** What a request asked for: "US iphone16pro+macbookair near 10153 (R095)", or "check". */
function describeRequest(line: LocalCheckLog): string {
  if (line.countryCode === null) return 'check';
  const products = line.productIds.length === 0 ? '' : ` ${line.productIds.join('+')}`;
  return `${line.countryCode}${products}${line.where === null ? '' : ` ${line.where}`}`;
}

/** One line per planned request (one HTTP request, or more to find a refused part): what, where, result. */
export function formatCheckLine(line: LocalCheckLog, format: LineFormat): string {
  if (format === 'json') {
    return JSON.stringify({ type: 'check', ...line, at: new Date(line.at).toISOString() });
  }
  const changes = line.changes === 1 ? '1 change' : `${line.changes} changes`;
  const requests = line.requests > 1 ? `, ${line.requests} requests` : '';
  return `${formatTime(line.at)}  ${describeRequest(line)}  ${line.result}  ${line.detail}${line.result === 'ok' ? `  (${changes}${requests})` : ''}`;
}

/** One line per alert: what is in stock, where, and for which search. */
export function formatAlertLine(alert: LocalAlert, format: LineFormat): string {
  if (format === 'json') {
    return JSON.stringify({
      type: 'alert',
      at: new Date(alert.observedAt).toISOString(),
      ...alert,
    });
  }
  const distance =
    alert.distanceMiles === null || alert.distanceMiles === 0 ? '' : ` (${alert.distanceMiles} mi)`;
  return `${formatTime(alert.observedAt)}  IN STOCK  ${alert.displayName} at ${alert.storeName}${distance}  [search ${alert.searchId.slice(0, 8)}]`;
}
