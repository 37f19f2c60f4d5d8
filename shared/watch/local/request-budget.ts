import { z } from 'zod';
import {
  checkPacing,
  countTokensAt,
  createFullBucket,
  holdBucket,
  isBucketAtRest,
  reserveRequest,
  type PacedBucket,
  type RequestPacing,
} from '#shared/upstream/index.ts';

// One machine is one address at Apple, whichever local watcher asks: the macOS app and any
// `shelfwatch watch` runs draw from one budget, which their host keeps in a file under a lock
// (injected: shared/ touches no file). Together they never send more than the burst, keep a
// gap between two requests, and a restart finds what the last run spent: each request is
// written down before it is sent, so even a quit in the middle of a check is counted.

/**
 * The local watchers' pacing. Reports put Apple's block at 15 to 30 quick requests from one
 * address (jhdavis789 sees 541 after about 15 and waits 3 s between requests; ENCHIGO sees
 * about 30: ../shared/reference/apple/README.md, "Bursts" and "Budget per address"), and the
 * user's own browsing or a second Mac on the network count too: a burst of 8 leaves room.
 */
export const LOCAL_PACING = { ratePerMinute: 1, burst: 8, minGapSeconds: 3 } as const;

/** Apple counts an address's requests over about 10 minutes (public reports). */
export const REQUEST_WINDOW_MS = 10 * 60_000;

/** Where the host keeps the machine's budget, shared by every local watcher on it. */
export type BudgetStore = {
  /**
   * Reads what is stored (undefined when nothing is), lets `change` answer what to store
   * instead, and writes it, with every other watcher of the machine held off meanwhile.
   */
  update: <T>(change: (stored: unknown) => { stored: unknown; result: T }) => Promise<T>;
};

/** What taking one request from the budget came to. */
export type BudgetOutcome =
  { kind: 'taken'; at: number } | { kind: 'no_budget' } | { kind: 'cooling_down'; until: number };

/** The machine's budget at one address. */
export type RequestBudget = {
  /** Takes one request: waits out the gap after the latest one, or answers why it may not go. */
  take: () => Promise<BudgetOutcome>;
  /** Every watcher of the machine holds back until `until`: a block is the address's. */
  coolDown: (until: number) => Promise<void>;
  /** Counts requests sent before the budget was shared (a state saved by an earlier version). */
  recordSent: (times: readonly number[]) => Promise<void>;
};

const addressSchema = z.object({
  tokens: z.number(),
  refilled_at: z.number(),
  last_request_at: z.number().nullable(),
  cool_down_until: z.number().nullable(),
});

const budgetFileSchema = z.object({
  version: z.literal(1),
  /** Per upstream origin: the simulator of a developer's machine is not Apple's budget. */
  addresses: z.record(z.string(), addressSchema),
});

type StoredAddress = z.infer<typeof addressSchema>;
type BudgetFile = z.infer<typeof budgetFileSchema>;

/** Reads a stored budget; anything unreadable starts afresh (the worst it costs is one burst). */
function parseBudgetFile(stored: unknown): BudgetFile {
  const parsed = budgetFileSchema.safeParse(stored);
  return parsed.success ? parsed.data : { version: 1, addresses: {} };
}

function toBucket(saved: StoredAddress): PacedBucket {
  return {
    tokens: saved.tokens,
    refilledAt: saved.refilled_at,
    lastRequestAt: saved.last_request_at,
  };
}

/** The address's cool-down end while it lasts, else null. */
function readCoolDown(saved: StoredAddress, now: number): number | null {
  return saved.cool_down_until !== null && saved.cool_down_until > now
    ? saved.cool_down_until
    : null;
}

function toStored(bucket: PacedBucket, coolDownUntil: number | null): StoredAddress {
  return {
    tokens: bucket.tokens,
    refilled_at: bucket.refilledAt,
    last_request_at: bucket.lastRequestAt,
    cool_down_until: coolDownUntil,
  };
}

/** Creates the budget of one upstream origin over the host's store. */
export function createRequestBudget(deps: {
  store: BudgetStore;
  /** The upstream base URL; its origin names the address in the store. */
  baseUrl: string;
  pacing: RequestPacing;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}): RequestBudget {
  const { store, pacing } = deps;
  checkPacing(pacing);
  const address = new URL(deps.baseUrl).origin;

  /** Runs `change` on this address's bucket; addresses full again are dropped from the file. */
  const updateAddress = <T>(
    change: (
      bucket: PacedBucket,
      coolDownUntil: number | null,
      now: number,
    ) => {
      bucket: PacedBucket;
      coolDownUntil: number | null;
      result: T;
    },
  ): Promise<T> =>
    store.update((stored) => {
      const file = parseBudgetFile(stored);
      const now = deps.now();
      const saved = file.addresses[address];
      const changed = change(
        saved === undefined ? createFullBucket(pacing, now) : toBucket(saved),
        saved === undefined ? null : readCoolDown(saved, now),
        now,
      );
      const addresses: BudgetFile['addresses'] = {};
      for (const [key, value] of Object.entries(file.addresses)) {
        const isKept =
          readCoolDown(value, now) !== null || !isBucketAtRest(toBucket(value), pacing, now);
        if (key !== address && isKept) addresses[key] = value;
      }
      addresses[address] = toStored(changed.bucket, changed.coolDownUntil);
      return { stored: { version: 1, addresses }, result: changed.result };
    });

  return {
    take: async () => {
      const outcome = await updateAddress<BudgetOutcome>((bucket, coolDownUntil, now) => {
        if (coolDownUntil !== null) {
          return { bucket, coolDownUntil, result: { kind: 'cooling_down', until: coolDownUntil } };
        }
        const reserved = reserveRequest(bucket, pacing, now);
        if (reserved === null) return { bucket, coolDownUntil, result: { kind: 'no_budget' } };
        return {
          bucket: reserved.bucket,
          coolDownUntil,
          result: { kind: 'taken', at: reserved.at },
        };
      });
      // The request is written down before it goes: a quit while waiting still counts it.
      if (outcome.kind === 'taken') {
        const waitMs = outcome.at - deps.now();
        if (waitMs > 0) await deps.sleep(waitMs);
      }
      return outcome;
    },
    coolDown: async (until) => {
      await updateAddress((bucket, coolDownUntil) => ({
        bucket: holdBucket(bucket, pacing, until),
        coolDownUntil: Math.max(coolDownUntil ?? until, until),
        result: undefined,
      }));
    },
    recordSent: async (times) => {
      await updateAddress((bucket, coolDownUntil, now) => {
        const recent = times.filter((at) => at <= now && now - at < REQUEST_WINDOW_MS);
        if (recent.length === 0) return { bucket, coolDownUntil, result: undefined };
        // As the loop counted them before: each request of Apple's window is a token spent.
        const last = Math.max(bucket.lastRequestAt ?? 0, ...recent);
        const tokens = Math.max(0, countTokensAt(bucket, pacing, now) - recent.length);
        return {
          bucket: { tokens, refilledAt: Math.max(now, bucket.refilledAt), lastRequestAt: last },
          coolDownUntil,
          result: undefined,
        };
      });
    },
  };
}
