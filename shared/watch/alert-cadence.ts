// Calm volume (issue 42): per search and channel, at most one message within the search's
// cadence, carrying everything that came in meanwhile. The first wave after a calm spell goes
// at once; a wave inside the cadence joins a message released when the cadence has passed
// since the last one. A preferred model at the search's own store cannot wait: it goes at
// once and takes whatever was waiting with it, so the user still gets one message.

/** The cadence a search gets unless the user sets another, in minutes. */
export const DEFAULT_ALERT_CADENCE_MINUTES = 15;

/** Cadences the API accepts, in minutes: 0 sends every wave at once, at most one a day. */
export const ALERT_CADENCE_BOUNDS = { min: 0, max: 1440 } as const;

/** What the rule needs about one search and channel (epoch ms). */
export type CadenceInput = {
  /** When the latest message was released (sent or due); null when never. */
  lastReleaseAt: number | null;
  /** Release time of a message still collecting waves; null when none waits. */
  pendingReleaseAt: number | null;
  now: number;
  cadenceMs: number;
  /** The wave holds a preferred model at the search's own store. */
  isUrgent: boolean;
};

/** Where a wave goes: into the waiting message or a new one, and when that message leaves. */
export type CadenceDecision = { joinsPending: boolean; releaseAt: number };

/** Decides when a wave's message leaves (see the rule above). */
export function decideCadence(input: CadenceInput): CadenceDecision {
  const { now, cadenceMs } = input;
  if (input.pendingReleaseAt !== null && input.pendingReleaseAt > now) {
    return { joinsPending: true, releaseAt: input.isUrgent ? now : input.pendingReleaseAt };
  }
  const isCalm =
    cadenceMs <= 0 || input.lastReleaseAt === null || now - input.lastReleaseAt >= cadenceMs;
  if (input.isUrgent || isCalm) return { joinsPending: false, releaseAt: now };
  return { joinsPending: false, releaseAt: (input.lastReleaseAt ?? now) + cadenceMs };
}
