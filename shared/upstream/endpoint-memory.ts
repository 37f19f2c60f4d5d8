// Which endpoint shape a country answers on. Since 2026 fulfillment-messages answers HTTP 541
// to every request while pickup-message answers (public reports, docs/architecture.md), so
// pickup-message is asked first. A 541 alone cannot tell a dead endpoint from a blocked
// address, so the rule is: after a 541 on the shape in use, the next request of that country
// (made only once the address may ask again: a 541 is never retried at once) tries the other
// shape. If it answers, the country switches and says why; if it also answers 541, the
// address was blocked and the country stays. The other shape is asked at most hourly either
// way: while fulfillment-messages is dead, every such probe costs the address a cool-down.

import { getOtherShape } from './urls.ts';
import type { EndpointShape } from './types.ts';

/** How often the preferred shape is tried again while a country runs on the other. */
export const DEAD_SHAPE_PROBE_MS = 60 * 60_000;

/** What is remembered per country. */
export type EndpointMemory = {
  shape: EndpointShape;
  reason: string;
  switchedAt: number;
  /** The shape in use answered 541: the next request tries the other one. */
  suspectShape: EndpointShape | null;
  suspectSince: number | null;
  /** When the shape not in use was last asked. */
  otherProbedAt: number | null;
};

/** The memory of a country nothing happened to yet. */
export function createEndpointMemory(preferred: EndpointShape, now: number): EndpointMemory {
  return {
    shape: preferred,
    reason: `${preferred} is asked first (the default)`,
    switchedAt: now,
    suspectShape: null,
    suspectSince: null,
    otherProbedAt: null,
  };
}

/** The shape the next request of the country asks, and whether it is a probe of the other. */
export function chooseEndpointShape(
  memory: EndpointMemory,
  preferred: EndpointShape,
  now: number,
): { shape: EndpointShape; isProbe: boolean } {
  const isOtherDue =
    memory.otherProbedAt === null || now - memory.otherProbedAt >= DEAD_SHAPE_PROBE_MS;
  const isSuspect = memory.suspectShape === memory.shape;
  if (isOtherDue && (isSuspect || memory.shape !== preferred)) {
    return { shape: getOtherShape(memory.shape), isProbe: true };
  }
  return { shape: memory.shape, isProbe: false };
}

/** Updates the memory after a readable answer on `asked`. */
export function rememberAnswer(
  memory: EndpointMemory,
  asked: EndpointShape,
  now: number,
): EndpointMemory {
  if (asked === memory.shape) return { ...memory, suspectShape: null, suspectSince: null };
  const when = new Date(memory.suspectSince ?? now).toISOString();
  return {
    shape: asked,
    reason:
      memory.suspectShape === memory.shape
        ? `${memory.shape} answered HTTP 541 at ${when} while ${asked} answered`
        : `${asked} answers again (tried while ${memory.shape} was in use)`,
    switchedAt: now,
    suspectShape: null,
    suspectSince: null,
    otherProbedAt: now,
  };
}

/**
 * Updates the memory after a block (HTTP 541, 503, 429 or a challenge page) on `asked`. When
 * another egress address got answers from the shape in use moments ago, the 541 is that
 * address's block, not a dead endpoint, and nothing is suspected.
 */
export function rememberBlock(
  memory: EndpointMemory,
  asked: EndpointShape,
  httpStatus: number | undefined,
  now: number,
  isOtherAddressAnswering = false,
): EndpointMemory {
  if (asked !== memory.shape) {
    // The other shape was blocked too: the address is blocked, not the endpoint.
    return { ...memory, suspectShape: null, suspectSince: null, otherProbedAt: now };
  }
  if (httpStatus !== 541 || isOtherAddressAnswering) return memory;
  return { ...memory, suspectShape: memory.shape, suspectSince: memory.suspectSince ?? now };
}
