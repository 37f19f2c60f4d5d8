import { parseWatchState, type LocalWatchState } from '#shared/watch/local/index.ts';

// After failed checks the loop holds the failing targets back (doubling waits) and, after a
// block, the whole machine. `watch run --once` from cron must tell that apart from a check
// that ran: it exits with BACKING_OFF_EXIT_CODE and says until when. The back-off belongs to
// the upstream that failed, so pointing the watcher at another one starts afresh.

/** Exit status of `watch run --once` when nothing was asked because checks are backing off. */
export const BACKING_OFF_EXIT_CODE = 3;

/**
 * The state with every failure-driven wait cleared: targets due now, no cool-down. For a run
 * against another upstream than the one whose failures set those waits.
 */
export function clearBackOff(stored: unknown, now: number): LocalWatchState {
  const state = parseWatchState(stored);
  for (const target of Object.values(state.targets)) {
    if (target.consecutive_failures === 0) continue;
    target.consecutive_failures = 0;
    target.next_due_at = Math.min(target.next_due_at, now);
  }
  state.address.cool_down_until = null;
  state.address.consecutive_blocks = 0;
  return state;
}

/**
 * When the watcher asks again: the end of the machine's cool-down, else the earliest time a
 * target backing off after failures is due. Null when nothing is held back.
 */
export function findBackOffEnd(stored: unknown, now: number): number | null {
  const state = parseWatchState(stored);
  const coolDown = state.address.cool_down_until;
  if (coolDown !== null && coolDown > now) return coolDown;
  const waits = Object.values(state.targets)
    .filter((target) => target.consecutive_failures > 0 && target.next_due_at > now)
    .map((target) => target.next_due_at);
  return waits.length === 0 ? null : Math.min(...waits);
}

/** "14:05:09 CET", or with the date when it is not today: the user's own clock. */
export function formatLocalTime(at: number, now: number, locale?: string): string {
  const isToday = new Date(at).toDateString() === new Date(now).toDateString();
  return new Intl.DateTimeFormat(locale, {
    ...(isToday ? {} : { year: 'numeric', month: 'short', day: 'numeric' }),
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
  }).format(at);
}

/** The line `run --once` prints when it asked nothing because checks are backing off. */
export function describeBackOff(until: number, now: number, format: 'text' | 'json'): string {
  if (format === 'json') {
    return JSON.stringify({ type: 'backing_off', until: new Date(until).toISOString() });
  }
  return `Backing off after failed checks until ${formatLocalTime(until, now)}: nothing was asked. Run again after that, or pass a corrected --upstream (a new upstream starts afresh).`;
}
