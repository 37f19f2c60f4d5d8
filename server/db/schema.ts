import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

/** Plan codes; prices and limits live in shared/domain/plans.ts. */
export type PlanCode = 'good' | 'better' | 'best';

/** A person using the product, keyed by their identity provider's issuer and subject. */
export type UsersTable = {
  id: Generated<string>;
  issuer: string;
  subject: string;
  email: string | null;
  phone_number: string | null;
  enable_notifications: Generated<boolean>;
  plan: Generated<PlanCode>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
};

/** A login of the embedded identity provider (not used with Auth0). */
export type IdpAccountsTable = {
  id: Generated<string>;
  email: string;
  password_hash: string;
  email_verified: Generated<boolean>;
  created_at: CreatedAt;
};

/** oidc-provider's models (sessions, grants, codes, tokens), one row per id and kind. */
export type IdpPayloadsTable = {
  id: string;
  kind: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: Date | null;
  consumed_at: Date | null;
};

/** Generated secrets kept across restarts (signing keys, cookie keys, VAPID keys). */
export type AppSecretsTable = {
  name: string;
  value: ColumnType<unknown, string, string>;
  created_at: CreatedAt;
};

/** A country Apple sells in, with its store-directory locale. */
export type CountriesTable = {
  country_code: string;
  locale_code: string;
  display_name: string;
};

/** An Apple retail store (fields of Apple's store directory). */
export type StoresTable = {
  store_id: string;
  store_name: string;
  country_locale: string;
  city: string;
  state_code: string | null;
  state_name: string | null;
  address1: string;
  address2: string | null;
  postal_code: string | null;
  telephone: string | null;
  store_slug: string | null;
  latitude: number | null;
  longitude: number | null;
  updated_at: UpdatedAt;
};

/** A product type a search can watch (all models of it are asked for in one request). */
export type ProductTypesTable = {
  product_id: string;
  product_name: string;
  family: string;
  sort_order: number;
};

/** A sellable model of a product type in one country. */
export type ProductModelsTable = {
  product_id: string;
  country_code: string;
  part_number: string;
  display_name: string;
};

/** A saved search: one product type at one store, with alert settings. */
export type SearchesTable = {
  id: Generated<string>;
  user_id: string;
  product_type: string;
  store_id: string;
  include_nearby_store_results: Generated<boolean>;
  show_results_only_for_preferred_models: Generated<boolean>;
  send_text_updates: Generated<boolean>;
  send_email_updates: Generated<boolean>;
  max_distance_miles: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
};

/** A model the owner of a search wants to be alerted about. */
export type SearchPreferredModelsTable = {
  search_id: string;
  part_number: string;
};

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

/** All tables, as kysely sees them. */
export type Database = {
  users: UsersTable;
  idp_accounts: IdpAccountsTable;
  idp_payloads: IdpPayloadsTable;
  app_secrets: AppSecretsTable;
  countries: CountriesTable;
  stores: StoresTable;
  product_types: ProductTypesTable;
  product_models: ProductModelsTable;
  searches: SearchesTable;
  search_preferred_models: SearchPreferredModelsTable;
  availability_snapshots: AvailabilitySnapshotsTable;
  store_neighbours: StoreNeighboursTable;
};

/** A user row as read. */
export type UserRow = Selectable<UsersTable>;
/** A search row as read. */
export type SearchRow = Selectable<SearchesTable>;
/** A store row as read. */
export type StoreRow = Selectable<StoresTable>;
/** Fields accepted when inserting a store. */
export type NewStore = Insertable<StoresTable>;
/** Fields accepted when updating a search. */
export type SearchUpdate = Updateable<SearchesTable>;
