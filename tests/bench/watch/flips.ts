// Flips: a model an alerting search prefers turns available at its store in the simulator,
// and the benchmark times the email to that search's owner at a real SMTP server. Every shelf
// is empty until flipped, and each (store, part) pair is flipped once per run.
import type { Db } from '#server/db/database.ts';
import type { RunningUpstreamSimulator } from '#server/simulator/index.ts';
import type { SmtpSink } from '#tests/helpers/smtp-sink.ts';
import type { SeededSearch } from './seed.ts';

/** One planned flip and the search whose email times it. */
export type Probe = { searchId: string; email: string; storeId: string; part: string };

/** A flip as it went: when it happened, and when its email arrived (if it did). */
export type FlipResult = Probe & {
  flippedAt: number;
  receivedAt: number | undefined;
  /** When the answer that saw the change queued the email (alert_outbox.created_at). */
  queuedAt: number | undefined;
};

/**
 * Picks `perConfiguration` probes for each configuration, one per search and no (store,
 * part) pair or search in `used` (which it extends): searches drawn at random, so crowded product
 * types get most flips.
 */
export function chooseProbes(
  searches: readonly SeededSearch[],
  perConfiguration: number,
  configurations: number,
  random: () => number,
  used: Set<string>,
): Probe[][] {
  const candidates = searches.filter((search) => search.isAlerting);
  const shuffled = [...candidates];
  for (let index = shuffled.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [shuffled[index], shuffled[other]] = [shuffled[other], shuffled[index]];
  }
  const probes: Probe[] = [];
  const wanted = perConfiguration * configurations;
  for (const search of shuffled) {
    if (used.has(`search:${search.id}`)) continue;
    for (const part of search.preferredParts) {
      const pair = `${search.combo.storeId}|${part}`;
      if (used.has(pair) || probes.length >= wanted) continue;
      used.add(pair);
      used.add(`search:${search.id}`);
      probes.push({
        searchId: search.id,
        email: search.email,
        storeId: search.combo.storeId,
        part,
      });
      break;
    }
    if (probes.length >= wanted) break;
  }
  return Array.from({ length: configurations }, (_, index) =>
    probes.slice(index * perConfiguration, (index + 1) * perConfiguration),
  );
}

/**
 * Stamps each message the sink accepts with the time the benchmark first saw it, per search
 * (the alert header's idempotency key starts with the search id; one restock wave is one
 * email, whatever it lists).
 */
export function startArrivalClock(smtp: SmtpSink): {
  /** Arrival times per search id, as seen so far, in order. */
  read: () => ReadonlyMap<string, number[]>;
  count: () => number;
  stop: () => ReadonlyMap<string, number[]>;
} {
  const arrivals = new Map<string, number[]>();
  let seen = 0;
  const scan = (): void => {
    const now = Date.now();
    for (; seen < smtp.messages.length; seen += 1) {
      const header = smtp.messages[seen].parsed.headers.get('x-shelfwatch-alert');
      if (typeof header !== 'string') continue;
      const [searchId] = header.split(':');
      arrivals.set(searchId, [...(arrivals.get(searchId) ?? []), now]);
    }
  };
  const timer = setInterval(scan, 5);
  return {
    read: () => arrivals,
    stop: () => {
      clearInterval(timer);
      scan();
      return arrivals;
    },
    count: () => seen,
  };
}

/** The first arrival for a probe's search at or after its flip. */
export function findArrival(
  arrivals: ReadonlyMap<string, number[]>,
  probe: Probe,
  flippedAt: number,
): number | undefined {
  return arrivals.get(probe.searchId)?.find((at) => at >= flippedAt);
}

/** Flips the probes at random moments spread over `spreadMs`; resolves after the last one. */
export async function runFlips(
  simulator: RunningUpstreamSimulator,
  probes: readonly Probe[],
  spreadMs: number,
  random: () => number,
): Promise<{ probe: Probe; flippedAt: number }[]> {
  const started = Date.now();
  const plan = probes
    .map((probe) => ({ probe, offset: random() * spreadMs }))
    .sort((a, b) => a.offset - b.offset);
  const flipped: { probe: Probe; flippedAt: number }[] = [];
  for (const { probe, offset } of plan) {
    const wait = started + offset - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    simulator.setStatus(probe.storeId, probe.part, 'available');
    flipped.push({ probe, flippedAt: Date.now() });
  }
  return flipped;
}

/** Joins flips with their emails' arrival and their outbox rows' creation. */
export async function collectFlipResults(
  db: Db,
  flipped: readonly { probe: Probe; flippedAt: number }[],
  arrivals: ReadonlyMap<string, number[]>,
): Promise<FlipResult[]> {
  const results: FlipResult[] = [];
  for (const { probe, flippedAt } of flipped) {
    const row = await db
      .selectFrom('alert_outbox')
      .select('created_at')
      .where('search_id', '=', probe.searchId)
      .where('channel', '=', 'email')
      .where('created_at', '>=', new Date(flippedAt))
      .orderBy('created_at')
      .executeTakeFirst();
    results.push({
      ...probe,
      flippedAt,
      receivedAt: findArrival(arrivals, probe, flippedAt),
      queuedAt: row?.created_at.getTime(),
    });
  }
  return results;
}
