// Apple's per-address block as public reports describe it: about 30 requests from one
// egress address succeed, then every request answers HTTP 541 for 10 minutes or more, and
// "retrying keeps the block tripped". The count follows the caller's address only; cookies
// and headers (X-Forwarded-For included) change nothing.

/** What the budget decided for one request. */
export type Admission = { isAllowed: true } | { isAllowed: false; hasJustTripped: boolean };

/** Counters for one caller address. */
export type AddressCounts = {
  /** Pickup requests received from this address, however they were answered. */
  requests: number;
  /** Requests still inside the sliding window (those that count toward the next block). */
  requestsInWindow: number;
  /** Every HTTP 541 sent to this address: its block, an injected 541 fault, a dead endpoint. */
  answered541: number;
  /** 541 answers sent because this address was blocked. */
  blockedAnswers: number;
  /** How many times the block tripped. */
  blocks: number;
  /** When the block ends (epoch ms, by the simulator's clock), or null when not blocked. */
  blockedUntil: number | null;
};

/** Per-address request accounting and the block. */
export type AddressBudget = {
  /** Counts one pickup request from `address` and says whether it may be answered. */
  admit(address: string): Admission;
  /** Notes a 541 sent to `address`, whatever the reason. */
  count541(address: string): void;
  /** Counters of every address seen since the last reset. */
  listAddresses(): Map<string, AddressCounts>;
  /** Lifts every block and forgets all counts; returns how many blocks were in force. */
  reset(): number;
};

type AddressEntry = {
  requests: number;
  answered541: number;
  blockedAnswers: number;
  blocks: number;
  blockedUntil: number | null;
  /** Arrival times inside the window, oldest first; never more than the limit plus one. */
  recent: number[];
};

/** The caller's address as the block keys it: IPv4-mapped IPv6 ("::ffff:127.0.0.2") as IPv4. */
export function normalizeCallerAddress(remoteAddress: string | undefined): string {
  if (remoteAddress === undefined || remoteAddress === '') return 'unknown';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(remoteAddress);
  return mapped?.[1] ?? remoteAddress.toLowerCase();
}

/**
 * Creates the budget. `blockAfterRequests` 0 turns the block off (requests are still
 * counted). A request that arrives while its address is blocked restarts the block, so a
 * client that keeps retrying stays blocked until it has been quiet for `blockSeconds`.
 */
export function createAddressBudget(options: {
  now: () => number;
  blockAfterRequests: number;
  blockWindowSeconds: number;
  blockSeconds: number;
}): AddressBudget {
  const { now, blockAfterRequests } = options;
  const windowMs = options.blockWindowSeconds * 1000;
  const blockMs = options.blockSeconds * 1000;
  const entries = new Map<string, AddressEntry>();

  const getEntry = (address: string): AddressEntry => {
    let entry = entries.get(address);
    if (entry === undefined) {
      entry = {
        requests: 0,
        answered541: 0,
        blockedAnswers: 0,
        blocks: 0,
        blockedUntil: null,
        recent: [],
      };
      entries.set(address, entry);
    }
    return entry;
  };
  const isBlockedAt = (entry: AddressEntry, at: number): boolean =>
    entry.blockedUntil !== null && at < entry.blockedUntil;
  const pruneWindow = (entry: AddressEntry, at: number): void => {
    while (entry.recent.length > 0 && (entry.recent[0] ?? at) <= at - windowMs)
      entry.recent.shift();
  };

  return {
    admit: (address) => {
      const at = now();
      const entry = getEntry(address);
      entry.requests += 1;
      if (blockAfterRequests === 0) return { isAllowed: true };
      if (isBlockedAt(entry, at)) {
        entry.blockedUntil = at + blockMs;
        entry.blockedAnswers += 1;
        return { isAllowed: false, hasJustTripped: false };
      }
      if (entry.blockedUntil !== null) {
        // The block ran out: the address starts over with a whole budget.
        entry.blockedUntil = null;
        entry.recent = [];
      }
      pruneWindow(entry, at);
      entry.recent.push(at);
      if (entry.recent.length <= blockAfterRequests) return { isAllowed: true };
      entry.blocks += 1;
      entry.blockedUntil = at + blockMs;
      entry.blockedAnswers += 1;
      entry.recent = [];
      return { isAllowed: false, hasJustTripped: true };
    },
    count541: (address) => {
      getEntry(address).answered541 += 1;
    },
    listAddresses: () => {
      const at = now();
      const listed = new Map<string, AddressCounts>();
      for (const [address, entry] of entries) {
        pruneWindow(entry, at);
        listed.set(address, {
          requests: entry.requests,
          requestsInWindow: entry.recent.length,
          answered541: entry.answered541,
          blockedAnswers: entry.blockedAnswers,
          blocks: entry.blocks,
          blockedUntil: isBlockedAt(entry, at) ? entry.blockedUntil : null,
        });
      }
      return listed;
    },
    reset: () => {
      const at = now();
      const lifted = [...entries.values()].filter((entry) => isBlockedAt(entry, at)).length;
      entries.clear();
      return lifted;
    },
  };
}
