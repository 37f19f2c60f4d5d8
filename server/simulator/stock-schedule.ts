// Seeded, reproducible stock: every (store, part) pair gets its own stock level and phase
// from the seed, and its status in each time bucket is one draw of a hash-based PRNG. The
// same seed and clock therefore always give the same shelves, in every process, without
// any state to keep.

/** What the schedule can say; `ineligible` only ever comes from an override. */
export type ScheduledStatus = 'available' | 'unavailable';

/** Default length of one stock bucket: the schedule can change every five minutes. */
export const DEFAULT_CHANGE_EVERY_SECONDS = 300;

// Most shelves are empty most of the time, as during a launch; a pair is in stock in
// between 8 % and 48 % of its buckets.
const MIN_IN_STOCK_SHARE = 0.08;
const IN_STOCK_SHARE_SPREAD = 0.4;

/** 32-bit FNV-1a of the text, started from the seed and finished with murmur3's mixer. */
export function hashSeeded(seed: number, text: string): number {
  let hash = (0x811c9dc5 ^ Math.trunc(seed)) >>> 0;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b) >>> 0;
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35) >>> 0;
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** A uniform draw in [0, 1) determined by the seed and the key. */
export function drawUnit(seed: number, key: string): number {
  return hashSeeded(seed, key) / 2 ** 32;
}

/**
 * Index of the bucket `nowMs` falls in for this pair. Each pair has its own phase so that
 * shelves do not all change at the same instant.
 */
export function getStockBucket(
  seed: number,
  storeId: string,
  partNumber: string,
  nowMs: number,
  changeEverySeconds: number,
): number {
  const periodMs = Math.max(1, changeEverySeconds) * 1000;
  const phaseMs = Math.floor(drawUnit(seed, `${storeId}|${partNumber}|phase`) * periodMs);
  return Math.floor((nowMs + phaseMs) / periodMs);
}

/** The scheduled status of one part at one store at `nowMs`. */
export function getScheduledStatus(
  seed: number,
  storeId: string,
  partNumber: string,
  nowMs: number,
  changeEverySeconds: number = DEFAULT_CHANGE_EVERY_SECONDS,
): ScheduledStatus {
  const inStockShare =
    MIN_IN_STOCK_SHARE + IN_STOCK_SHARE_SPREAD * drawUnit(seed, `${storeId}|${partNumber}|level`);
  const bucket = getStockBucket(seed, storeId, partNumber, nowMs, changeEverySeconds);
  return drawUnit(seed, `${storeId}|${partNumber}|${bucket}`) < inStockShare
    ? 'available'
    : 'unavailable';
}
