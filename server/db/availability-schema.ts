import type { Generated } from 'kysely';

// What the upstream reported about pickup at stores, one table per kind of report; Database
// (schema.ts) lists them with the other tables.

/** Latest known pickup status of one part at one store. */
export type AvailabilitySnapshotsTable = {
  store_id: string;
  part_number: string;
  status: 'available' | 'unavailable' | 'ineligible' | 'unknown';
  pickup_quote: string | null;
  observed_at: Date;
  changed_at: Date;
};

/** Distance between a store and a neighbour as the upstream last reported it. */
export type StoreNeighboursTable = {
  store_id: string;
  neighbour_store_id: string;
  distance_miles: number;
  observed_at: Date;
};

/** Every observed status change of a part at a store: the restock history. */
export type AvailabilityEventsTable = {
  id: Generated<string>;
  store_id: string;
  part_number: string;
  from_status: string | null;
  to_status: string;
  pickup_quote: string | null;
  observed_at: Date;
};
