import { getProductFamily } from './families.ts';

// Apple sells Apple Watch as a kit: a case together with a band. Asked about a case alone,
// pickup-message answers empty, a false `ineligible` or an unreliable `available`; only a case
// asked with a band of its own buy page answers right (reference README, "Apple Watch is sold
// as a kit"; ENCHIGO issue #24, PR #25). The catalog does not yet say which band goes with
// which case, so no Apple Watch type can be watched: the pickers say so next to it and the
// API refuses a new search of one. Searches made before stay as they are.

/** What the pickers say next to an Apple Watch type, and the reason the API gives. */
export const WATCH_KIT_NOTE =
  "Apple Watch stock can't be watched yet: Apple only answers for a case together with a band.";

/**
 * Whether a product type is an Apple Watch, sold as a case-and-band kit and so not watchable
 * yet: its catalog family when known (the server's rows), else the one read from its code.
 */
export function isWatchKitType(productId: string, family?: string | null): boolean {
  return (family ?? getProductFamily(productId)) === 'watch';
}
