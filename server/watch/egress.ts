import type { Db } from '#server/db/database.ts';
import {
  declareEgressAddresses,
  findNextTokenAt,
  listEgressAddresses,
  takeEgressToken,
} from '#server/db/repositories/egress-repository.ts';
import type { FetchLike } from '#shared/upstream/index.ts';

// Apple counts requests per egress address: about 30 quick ones, then HTTP 541 for 10 minutes
// or more (public reports in docs/architecture.md). Every address (the direct route and each
// proxy) therefore has one token bucket in PostgreSQL that every process using it draws from.

/** One way out to the upstream, with its own budget at Apple. */
export type EgressAddress = {
  /** Shown on the status page and in logs: never a credential. */
  label: string;
  kind: 'direct' | 'proxy';
  fetch: FetchLike;
  close: () => Promise<void>;
};

/** The shared pacing of a process's addresses. */
export type EgressPool = {
  addresses: readonly EgressAddress[];
  ratePerMinute: number;
  burst: number;
  /** Cool-down after a first block, doubled per block in a row up to `maxCoolDownMs`. */
  baseCoolDownMs: number;
  maxCoolDownMs: number;
};

/** Declares the pool's addresses in the database (a new one starts with a full bucket). */
export async function declareEgressPool(db: Db, pool: EgressPool, now: number): Promise<void> {
  await declareEgressAddresses(
    db,
    pool.addresses.map((address) => ({
      label: address.label,
      kind: address.kind,
      ratePerMinute: pool.ratePerMinute,
      burst: pool.burst,
    })),
    new Date(now),
  );
}

/**
 * Waits for a token on any address of the pool, checking `isStillWanted` between waits so a
 * request an answer made pointless is dropped before it spends anything. Answers the address,
 * or why none was taken: every address cooling down, no token within `maxWaitMs`, or the
 * request is no longer wanted.
 */
export async function acquireEgress(
  deps: {
    db: Db;
    now: () => number;
    sleep: (ms: number) => Promise<void>;
    signal?: AbortSignal;
  },
  pool: EgressPool,
  options: { maxWaitMs: number; isStillWanted: () => Promise<boolean> },
): Promise<{ address: EgressAddress } | { skipped: 'cooling_down' | 'no_budget' | 'not_wanted' }> {
  const labels = pool.addresses.map((address) => address.label);
  const deadline = deps.now() + options.maxWaitMs;
  for (;;) {
    // A stopping worker spends nothing more: the next cycle plans the request again.
    if (deps.signal?.aborted === true) return { skipped: 'not_wanted' };
    if (!(await options.isStillWanted())) return { skipped: 'not_wanted' };
    const label = await takeEgressToken(deps.db, labels, new Date(deps.now()));
    const address = pool.addresses.find((candidate) => candidate.label === label);
    if (address !== undefined) return { address };
    const nextAt = await findNextTokenAt(deps.db, labels, new Date(deps.now()));
    if (nextAt === undefined || nextAt > deadline) {
      const at = deps.now();
      const rows = (await listEgressAddresses(deps.db)).filter((row) => labels.includes(row.label));
      const isEveryCooling =
        rows.length > 0 && rows.every((row) => (row.cool_down_until?.getTime() ?? 0) > at);
      return { skipped: isEveryCooling ? 'cooling_down' : 'no_budget' };
    }
    // Short naps: another process may take the token first, or an answer may cover us.
    await deps.sleep(Math.min(5_000, Math.max(50, nextAt - deps.now() + 20)));
  }
}
