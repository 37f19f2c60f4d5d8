import os from 'node:os';
import { Agent, ProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';
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

/** How this process reaches the upstream. */
export type EgressSettings = {
  /** HTTP(S) proxy URLs, each one more address. */
  proxies: readonly string[];
  /** Also ask directly (one more address). */
  isDirect: boolean;
  /** Offer HTTP/2 (undici's allowH2) where the server speaks it. */
  allowH2: boolean;
  /** Name of the direct route; by default the machine's host name, shared by its processes. */
  directLabel?: string;
};

/** The label a proxy URL is shown by: its host and port, never its credentials or path. */
export function labelProxy(proxyUrl: string): string {
  const url = new URL(proxyUrl);
  return `proxy ${url.host}`;
}

/** Wraps undici's fetch with a dispatcher as the client's FetchLike. */
export function createDispatcherFetch(dispatcher: Dispatcher): FetchLike {
  return async (url, init) => await undiciFetch(url, { ...init, dispatcher });
}

/** Builds this process's addresses: the direct route (unless turned off) and each proxy. */
export function createEgressAddresses(settings: EgressSettings): EgressAddress[] {
  const addresses: EgressAddress[] = [];
  if (settings.isDirect) {
    const agent = new Agent({ allowH2: settings.allowH2 });
    addresses.push({
      label: settings.directLabel ?? `direct ${os.hostname()}`,
      kind: 'direct',
      fetch: createDispatcherFetch(agent),
      close: () => agent.close(),
    });
  }
  for (const proxy of settings.proxies) {
    const agent = new ProxyAgent({ uri: proxy, allowH2: settings.allowH2 });
    addresses.push({
      label: labelProxy(proxy),
      kind: 'proxy',
      fetch: createDispatcherFetch(agent),
      close: () => agent.close(),
    });
  }
  return addresses;
}

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
