import { formatGroupKey } from '#shared/watch/planner.ts';
import type { LocalAlert, LocalCheckLog } from '#shared/watch/local/index.ts';

/** How `shelfwatch watch run` prints: readable lines, or one JSON object per line for piping. */
export type LineFormat = 'text' | 'json';

/** "2026-11-23 10:00:01" in UTC, so lines from different machines sort alike. */
function formatTime(at: number): string {
  return new Date(at).toISOString().replace('T', ' ').slice(0, 19);
}

/** One line per upstream check: time, group and result. */
export function formatCheckLine(line: LocalCheckLog, format: LineFormat): string {
  if (format === 'json') {
    return JSON.stringify({
      type: 'check',
      ...line,
      at: new Date(line.at).toISOString(),
      group: formatGroupKey(line.group),
    });
  }
  const changes = line.changes === 1 ? '1 change' : `${line.changes} changes`;
  return `${formatTime(line.at)}  ${formatGroupKey(line.group)}  ${line.result}  ${line.detail}${line.result === 'ok' ? `  (${changes})` : ''}`;
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
