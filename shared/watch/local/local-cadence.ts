import type { LocalSearch } from '#shared/desktop/local-search.ts';
import { decideCadence, DEFAULT_ALERT_CADENCE_MINUTES } from '#shared/watch/alert-cadence.ts';
import type { LocalAlert } from './observe.ts';
import { snapshotKey, type LocalCadence, type LocalWatchState } from './state.ts';

// Calm volume for the local loop's notifications (issue 42), with the server's rule
// (decideCadence): per search at most one notification within its cadence, carrying every
// wave (the alerts one answer raised) that came in meanwhile. A wave with a preferred model at
// the search's own store goes at once and takes what was waiting with it. What waits is kept
// in the loop's saved state, so a quit or a crash does not lose it, and when it leaves, what
// is no longer on the shelf (by the latest answers) or no longer preferred is left out.

/** One notification to show: a search's alerts released together, oldest first. */
export type AlertBatch = { searchId: string; alerts: LocalAlert[] };

const MINUTE_MS = 60_000;

/** The cadence of a local search in ms: its own, else the default (15 minutes). */
export function resolveCadenceMs(search: Pick<LocalSearch, 'alert_cadence_minutes'>): number {
  return (search.alert_cadence_minutes ?? DEFAULT_ALERT_CADENCE_MINUTES) * MINUTE_MS;
}

/** Passes the alerts of one answer through their searches' cadences; answers what to show now. */
export function gateAlerts(
  state: LocalWatchState,
  searches: readonly LocalSearch[],
  alerts: readonly LocalAlert[],
  now: number,
): AlertBatch[] {
  const batches: AlertBatch[] = [];
  for (const search of searches) {
    const wave = alerts.filter((alert) => alert.searchId === search.id);
    if (wave.length > 0) batches.push(...admitAlertWave(state, search, wave, now));
  }
  return batches;
}

/**
 * Passes one search's wave through its cadence: a held notification already due leaves first,
 * then the wave goes now (with what waited, when it is urgent) or joins the held one.
 */
export function admitAlertWave(
  state: LocalWatchState,
  search: LocalSearch,
  wave: readonly LocalAlert[],
  now: number,
): AlertBatch[] {
  const batches: AlertBatch[] = [];
  const due = releaseIfDue(state, search, now);
  if (due !== null) batches.push(due);
  const entry = (state.cadence[search.id] ??= {
    last_release_at: null,
    pending_release_at: null,
    held: [],
  });
  const decision = decideCadence({
    lastReleaseAt: entry.last_release_at,
    pendingReleaseAt: entry.pending_release_at,
    now,
    cadenceMs: resolveCadenceMs(search),
    // Every alert is of a preferred model: one at the search's own store cannot wait.
    isUrgent: wave.some((alert) => alert.storeId === search.store_id),
  });
  // As the server: the latest release is the one just decided, sent or due.
  entry.last_release_at = decision.releaseAt;
  const carried = decision.joinsPending ? [...entry.held, ...wave] : [...wave];
  if (decision.releaseAt > now) {
    entry.held = carried;
    entry.pending_release_at = decision.releaseAt;
    return batches;
  }
  entry.held = [];
  entry.pending_release_at = null;
  const batch = keepShowable(state, search, carried);
  if (batch.length > 0) batches.push({ searchId: search.id, alerts: batch });
  return batches;
}

/**
 * Releases every held notification that is due. A search no longer watched loses what it
 * held (and its memory): nobody asked about it any more.
 */
export function releaseDueAlerts(
  state: LocalWatchState,
  searches: readonly LocalSearch[],
  now: number,
): AlertBatch[] {
  const byId = new Map(searches.map((search) => [search.id, search]));
  const batches: AlertBatch[] = [];
  for (const searchId of Object.keys(state.cadence)) {
    const search = byId.get(searchId);
    if (search === undefined) {
      delete state.cadence[searchId];
      continue;
    }
    const batch = releaseIfDue(state, search, now);
    if (batch !== null) batches.push(batch);
  }
  return batches;
}

/** The earliest time a held notification is due, or null when none waits. */
export function findNextRelease(state: LocalWatchState): number | null {
  const times = Object.values(state.cadence)
    .map((entry) => entry.pending_release_at)
    .filter((at): at is number => at !== null);
  return times.length === 0 ? null : Math.min(...times);
}

/** Empties a search's held notification if it is due; answers it unless nothing is left. */
function releaseIfDue(state: LocalWatchState, search: LocalSearch, now: number): AlertBatch | null {
  const entry: LocalCadence | undefined = state.cadence[search.id];
  if (entry === undefined || entry.pending_release_at === null) return null;
  if (entry.pending_release_at > now) return null;
  const held = entry.held;
  entry.held = [];
  entry.pending_release_at = null;
  const alerts = keepShowable(state, search, held);
  return alerts.length === 0 ? null : { searchId: search.id, alerts };
}

/**
 * The alerts still worth a word: one per store and model (the latest), still available by the
 * latest answer, and of a model the search still prefers.
 */
function keepShowable(
  state: LocalWatchState,
  search: LocalSearch,
  alerts: readonly LocalAlert[],
): LocalAlert[] {
  const preferred = new Set(search.preferred_parts);
  const latest = new Map<string, LocalAlert>();
  for (const alert of alerts) latest.set(snapshotKey(alert.storeId, alert.partNumber), alert);
  return [...latest.entries()]
    .filter(
      ([key, alert]) =>
        preferred.has(alert.partNumber) && state.snapshots[key]?.status === 'available',
    )
    .map(([, alert]) => alert);
}
