import type { EndpointShape, KnownPickupStatus } from '#shared/upstream/index.ts';
import { getScheduledStatus } from './stock-schedule.ts';

// The simulator's mutable state: stock overrides from the control API, the injected fault
// and request counters. Time always comes from the injected clock so tests never sleep.

/** The ways the simulator can make every pickup request fail. */
export const FAULT_KINDS = ['541', '503', 'html', 'slow', 'malformed'] as const;

/** One injectable failure mode. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** A fault in force from `startedAt` until `endsAt` (epoch ms, by the injected clock). */
export type ActiveFault = {
  kind: FaultKind;
  startedAt: number;
  endsAt: number;
  /** Sent as Retry-After on 541/503 answers when set; Apple itself sends none. */
  retryAfterSeconds: number | undefined;
};

/** One stock override set through the control API. */
export type StockOverride = { storeId: string; partNumber: string; status: KnownPickupStatus };

/** Pickup requests received, in total and per endpoint shape. */
export type RequestCounts = { total: number } & Record<EndpointShape, number>;

/** State shared by the pickup and control routes. */
export type SimulatorState = {
  seed: number;
  changeEverySeconds: number;
  now: () => number;
  /**
   * The override if there is one, else `ineligible` for a part the catalog marks retired (as
   * Apple answers a retired part at every store), else the seeded schedule.
   */
  getStatus(
    storeId: string,
    partNumber: string,
    options?: { isRetired?: boolean },
  ): KnownPickupStatus;
  setOverride(storeId: string, partNumber: string, status: KnownPickupStatus): void;
  /** Drops every override; returns how many there were. */
  clearOverrides(): number;
  listOverrides(): StockOverride[];
  setFault(kind: FaultKind, seconds: number, retryAfterSeconds?: number): ActiveFault;
  /** Ends the fault now; returns whether one was in force. */
  clearFault(): boolean;
  /** The fault in force now, if any; an expired one is forgotten. */
  getActiveFault(): ActiveFault | undefined;
  countRequest(shape: EndpointShape): void;
  getRequestCounts(): RequestCounts;
};

/** Creates empty state: no overrides, no fault, no requests yet. */
export function createSimulatorState(options: {
  seed: number;
  changeEverySeconds: number;
  now: () => number;
}): SimulatorState {
  const overrides = new Map<string, StockOverride>();
  let fault: ActiveFault | undefined;
  const counts: RequestCounts = { total: 0, 'fulfillment-messages': 0, 'pickup-message': 0 };
  const { seed, changeEverySeconds, now } = options;

  return {
    seed,
    changeEverySeconds,
    now,
    getStatus: (storeId, partNumber, options = {}) =>
      overrides.get(`${storeId}|${partNumber}`)?.status ??
      (options.isRetired === true
        ? 'ineligible'
        : getScheduledStatus(seed, storeId, partNumber, now(), changeEverySeconds)),
    setOverride: (storeId, partNumber, status) => {
      overrides.set(`${storeId}|${partNumber}`, { storeId, partNumber, status });
    },
    clearOverrides: () => {
      const count = overrides.size;
      overrides.clear();
      return count;
    },
    listOverrides: () => [...overrides.values()],
    setFault: (kind, seconds, retryAfterSeconds) => {
      const startedAt = now();
      fault = { kind, startedAt, endsAt: startedAt + seconds * 1000, retryAfterSeconds };
      return fault;
    },
    clearFault: () => {
      const wasActive = fault !== undefined && now() < fault.endsAt;
      fault = undefined;
      return wasActive;
    },
    getActiveFault: () => {
      if (fault !== undefined && now() >= fault.endsAt) fault = undefined;
      return fault;
    },
    countRequest: (shape) => {
      counts.total += 1;
      counts[shape] += 1;
    },
    getRequestCounts: () => ({ ...counts }),
  };
}
