// What the request planner plans from (targets) and reads besides them (the answer lists
// learned per seed, the part counts and limits it packs by), and where a request asks. Its own module so that the planner's parts can share
// it without importing one another.

/** What answers taught about one store's location seed. */
export type SeedKnowledge = {
  /** Stores the last answer for this seed listed (in the seed's country). */
  storeIds: readonly string[];
};

/** Everything planning reads besides the targets. */
export type RequestPlanContext = {
  /** Learned answer lists per seed store (the store whose postal code or city is asked). */
  seeds: ReadonlyMap<string, SeedKnowledge>;
  /**
   * Stores an answer for a seed not yet asked is expected to list besides the seed's own
   * store (its known nearest neighbours); without it only the store itself is counted.
   */
  estimateNeighbours?: (storeId: string) => readonly string[];
  /** Parts one product type has in the country (after invalid parts are left out). */
  countParts: (countryCode: string, productId: string) => number;
  /** Most parts in one request, the control part included. */
  partsPerRequest: number;
  /** Slots kept free for the country's control part (0 or 1). */
  reservedParts: (countryCode: string) => number;
};

/** One watched (country, product type, store) and how urgent it is. */
export type PlanTarget = {
  countryCode: string;
  productId: string;
  storeId: string;
  /** A search of the target alerts (a preferred model and a channel on). */
  isAlerting: boolean;
  /** Preferred parts of the target's alerting searches: what an alerting sweep asks. */
  alertParts?: readonly string[];
};

/** Where a request asks: a seed's location, or one store alone. */
export type RequestTarget =
  { kind: 'location'; seedStoreId: string } | { kind: 'store'; storeId: string };
