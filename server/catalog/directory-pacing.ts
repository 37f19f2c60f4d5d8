import type { Db } from '#server/db/database.ts';
import {
  findNextTokenAt,
  listEgressAddresses,
  takeEgressToken,
} from '#server/db/repositories/egress-repository.ts';

// Apple counts requests per egress address (about 30 quick ones, then HTTP 541 for ten
// minutes or more), and nothing on record says store-list is exempt. The directory sync asks
// from this machine's direct route, so each of its requests waits for the pause between two
// requests and, when the watcher has declared that address, takes one token of its bucket in
// PostgreSQL: the same budget the pickup requests draw from, so a sync never pushes the
// address over Apple's limit, and it waits while the address cools down after a block.

/** Why a request could not be sent. */
export type PacingRefusal = 'cooling_down' | 'no_budget';

/** Paces a sync's requests; `waitTurn` resolves when the next one may go. */
export type DirectoryPacer = {
  waitTurn: () => Promise<{ isAllowed: true } | { isAllowed: false; reason: PacingRefusal }>;
};

/** How a sync is paced. */
export type DirectoryPacingOptions = {
  db: Db;
  /** The egress address the requests leave from ("direct <host name>"), when the watcher declared it. */
  addressLabel?: string;
  /** Least time between two requests. */
  intervalMs: number;
  /** Longest wait for a token before giving up on the rest of the sync. */
  maxWaitMs: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
};

// Short naps: a pickup request of another process may take the token first.
const MAX_NAP_MS = 5_000;

function sleepFor(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Creates the pacer of one sync. */
export function createDirectoryPacer(options: DirectoryPacingOptions): DirectoryPacer {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? sleepFor;
  let lastRequestAt: number | undefined;
  let labels: string[] | undefined;

  const findLabels = async (): Promise<string[]> => {
    if (labels !== undefined) return labels;
    const label = options.addressLabel;
    const declared =
      label === undefined
        ? []
        : (await listEgressAddresses(options.db)).filter((row) => row.label === label);
    labels = declared.map((row) => row.label);
    return labels;
  };

  return {
    waitTurn: async () => {
      if (lastRequestAt !== undefined) {
        const gap = lastRequestAt + options.intervalMs - now();
        if (gap > 0) await sleep(gap);
      }
      const budgetLabels = await findLabels();
      const deadline = now() + options.maxWaitMs;
      while (budgetLabels.length > 0) {
        const taken = await takeEgressToken(options.db, budgetLabels, new Date(now()));
        if (taken !== undefined) break;
        const nextAt = await findNextTokenAt(options.db, budgetLabels, new Date(now()));
        if (nextAt === undefined || nextAt > deadline) {
          const rows = await listEgressAddresses(options.db);
          const isCooling = rows.some(
            (row) =>
              budgetLabels.includes(row.label) && (row.cool_down_until?.getTime() ?? 0) > now(),
          );
          return { isAllowed: false, reason: isCooling ? 'cooling_down' : 'no_budget' };
        }
        await sleep(Math.min(MAX_NAP_MS, Math.max(50, nextAt - now())));
      }
      lastRequestAt = now();
      return { isAllowed: true };
    },
  };
}
