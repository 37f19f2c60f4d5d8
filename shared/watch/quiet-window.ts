import type { KnownPickupStatus } from '#shared/upstream/types.ts';

// The quiet window keeps flapping stock from alerting again and again. After an alert for a
// (search, store, part), another one is sent only when the part was continuously not
// available, after that alert, for longer than the window: a sell-out and a real restock.
// A shorter dip (stock flapping, a cart released) stays quiet however often it repeats.
// `unknown` is never recorded as a change, so failed checks cannot open the window either.

/** A recorded change of a part's known status at a store (epoch ms). */
export type StatusChange = { status: KnownPickupStatus; at: number };

/** What the rule needs: the last alert, the changes since, and the window. */
export type QuietWindowInput = {
  /** When this search was last alerted about the part at the store; null when never. */
  lastAlertedAt: number | null;
  /** Changes after the last alert, including the transition to available being judged. */
  changesSince: readonly StatusChange[];
  /** Time of the transition to available being judged. */
  now: number;
  windowMs: number;
};

/** True when a transition to available may alert this search again (see the rule above). */
export function isAlertAllowed(input: QuietWindowInput): boolean {
  if (input.lastAlertedAt === null) return true;
  const changes = input.changesSince
    .filter((change) => change.at > input.lastAlertedAt! && change.at <= input.now)
    .sort((a, b) => a.at - b.at);
  // The alert was raised on availability, so the timeline after it starts available.
  let unavailableSince: number | null = null;
  for (const change of changes) {
    if (change.status === 'available') {
      if (unavailableSince !== null && change.at - unavailableSince > input.windowMs) return true;
      unavailableSince = null;
    } else if (unavailableSince === null) {
      unavailableSince = change.at;
    }
  }
  return unavailableSince !== null && input.now - unavailableSince > input.windowMs;
}
