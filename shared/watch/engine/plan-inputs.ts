import { chooseControlPart } from '#shared/upstream/answer-checks.ts';
import type { RequestPlanContext } from '#shared/watch/request-planner.ts';

// What the planner reads besides its targets, chosen the same way by every host: where a seed
// asks, which part controls a country's answers, and the context the request planner packs by.

/** A seed's location: the store's postal code, or its city where the country has none. */
export function chooseSeedLocation(postalCode: string | null, city: string): string {
  const code = postalCode?.trim() ?? '';
  return code === '' ? city : code;
}

/** The part seen available at the most stores of a country lately, and how many answered. */
export type BusiestPart = { partNumber: string; stores: number; observedStores: number };

/**
 * Each country's control part this cycle (configured, else its broad busiest part), if any:
 * never a part Apple retired there, and none while the chosen one is held out as refused.
 */
export function chooseCountryControls(
  countries: readonly string[],
  sources: {
    configured: (countryCode: string) => string | undefined;
    busiest: (countryCode: string) => BusiestPart | undefined;
    isHeldOut: (countryCode: string, partNumber: string) => boolean;
    isRetired: (countryCode: string, partNumber: string) => boolean;
  },
): Map<string, string> {
  const controls = new Map<string, string>();
  for (const country of countries) {
    const control = chooseControlPart({
      configured: sources.configured(country),
      busiest: sources.busiest(country),
      isRetired: (partNumber) => sources.isRetired(country, partNumber),
    });
    if (control !== null && !sources.isHeldOut(country, control)) controls.set(country, control);
  }
  return controls;
}

/** The request planner's context: learned seeds, expected neighbours, parts per type. */
export function createPlanContext(options: {
  seeds: RequestPlanContext['seeds'];
  estimateNeighbours: RequestPlanContext['estimateNeighbours'];
  countParts: RequestPlanContext['countParts'];
  partsPerRequest: number;
  controlByCountry: ReadonlyMap<string, string>;
}): RequestPlanContext {
  return {
    seeds: options.seeds,
    estimateNeighbours: options.estimateNeighbours,
    countParts: options.countParts,
    partsPerRequest: options.partsPerRequest,
    // The control part takes one place in every request of its country.
    reservedParts: (countryCode) => (options.controlByCountry.has(countryCode) ? 1 : 0),
  };
}
