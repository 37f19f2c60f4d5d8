import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type {
  AvailabilityEventsTable,
  AvailabilitySnapshotsTable,
  StoreNeighboursTable,
} from './availability-schema.ts';
import type {
  PollTargetsTable,
  UpstreamHostsTable,
  EgressAddressesTable,
  LocationSeedsTable,
  CountryEndpointsTable,
  InvalidPartsTable,
  UpstreamRetiredPartsTable,
  UpstreamRequestsTable,
  WatchWorkersTable,
  WatchFreshnessTable,
} from './watch-schema.ts';

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
  is_text_opted_out: Generated<boolean>;
  /** The Stripe customer paying for this account; null without billing or before checkout. */
  stripe_customer_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Quiet hours (issue 29): alerts in the window wait for one summary at its end. */
  quiet_hours_enabled: Generated<boolean>;
  /** Wall-clock "HH:MM" (24 h) in quiet_hours_time_zone. */
  quiet_hours_start: Generated<string>;
  quiet_hours_end: Generated<string>;
  /** IANA zone name, e.g. "America/New_York". */
  quiet_hours_time_zone: Generated<string>;
  /** Preferred models at a search's own store alert at once, quiet hours or not. */
  quiet_hours_preferred_at_store: Generated<boolean>;
  /** IANA zone alert times are written in; null until the browser first reports one (UTC). */
  time_zone: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
};

/** A login of the embedded identity provider (not used with Auth0). */
export type IdpAccountsTable = {
  id: Generated<string>;
  email: string;
  /** Null until the person chooses a password (accounts made by checkout or `user add`). */
  password_hash: string | null;
  email_verified: Generated<boolean>;
  created_at: CreatedAt;
};

/** A one-time link of the embedded login (finish setup, forgot password), kept as a SHA-256 digest. */
export type AccountTokensTable = {
  token_hash: string;
  purpose: 'finish-setup' | 'reset-password';
  idp_account_id: string;
  expires_at: Date;
  used_at: Date | null;
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
  /** IANA zone, known for stores filed from an answer's `retailStore`; null otherwise. */
  time_zone: ColumnType<string | null, string | null | undefined, string | null>;
  /** YYYY-MM-DD since which the directory no longer lists it; null while open. */
  closed_on: ColumnType<string | null, string | null | undefined, string | null>;
  /** Filed from a pickup answer, not the directory: its absence there closes nothing. */
  is_learned: ColumnType<boolean, boolean | undefined, boolean>;
  updated_at: UpdatedAt;
};

/** The last read of one country's store directory (`rsp-web/store-list`). */
export type StoreDirectorySyncsTable = {
  country_code: string;
  locale_code: string;
  synced_at: Date;
  /** `read` (applied), `not_listed` (HTTP 404: skipped) or `failed`. */
  outcome: string;
  http_status: number | null;
  listed: number;
  added: string[];
  closed: string[];
  reopened: string[];
  error: string | null;
  last_success_at: Date | null;
};

/** A product type a search can watch (all models of it are asked for in one request). */
export type ProductTypesTable = {
  product_id: string;
  product_name: string;
  family: string;
  sort_order: number;
  /** YYYY-MM-DD, when known. */
  launched_on: ColumnType<string | null, string | null | undefined, string | null>;
  /** YYYY-MM-DD from which it is sold nowhere; null while sold. */
  retired_on: ColumnType<string | null, string | null | undefined, string | null>;
  /** Path of its buy page under a country's store, read by `catalog sync-models`. */
  buy_page: ColumnType<string | null, string | null | undefined, string | null>;
};

/** A sellable model of a product type in one country. */
export type ProductModelsTable = {
  product_id: string;
  country_code: string;
  part_number: string;
  display_name: string;
  /** Where the part number was seen. */
  source: ColumnType<string, string | undefined, string>;
  /** YYYY-MM-DD from which it is no longer sold in this country; null while sold. */
  retired_on: ColumnType<string | null, string | null | undefined, string | null>;
};

/** One catalog change: the bundled file's seed, an import or a buy-page sync, with its outcome. */
export type CatalogChangesTable = {
  id: Generated<string>;
  kind: 'seed' | 'import' | 'sync';
  /** The file, URL base or release the change came from. */
  origin: string;
  /** SHA-256 of the applied file (seed and import), to skip a bundled file already applied. */
  content_hash: string | null;
  is_ok: boolean;
  /** The counts and entries of the change (CatalogDiffSummary). */
  summary: ColumnType<unknown, string, string>;
  error: string | null;
  created_at: CreatedAt;
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
  /** At most one alert message per channel within this many minutes (0: every wave at once). */
  alert_cadence_minutes: Generated<number>;
  /** Set while the plan allows fewer searches than the user has: kept, not polled, not alerted. */
  paused_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /**
   * Covered stores with something the search shows available now: the search_inventory rows'
   * distinct stores, recounted by their writers (search-inventory-repository.ts).
   */
  stores_with_inventory: Generated<number>;
  /** The search's part numbers in search_preferred_models, sorted; written with them. */
  preferred_parts: Generated<string[]>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
};

/** A model the owner of a search wants to be alerted about. */
export type SearchPreferredModelsTable = {
  search_id: string;
  part_number: string;
};

/**
 * A (covered store, shown model) pair a search shows available now, kept by the writers of
 * snapshots, neighbours, searches and models (search-inventory-repository.ts).
 */
export type SearchInventoryTable = {
  search_id: string;
  store_id: string;
  part_number: string;
};

/** When a search was last alerted about a part at a store (the quiet window). */
export type SearchAlertStateTable = {
  search_id: string;
  store_id: string;
  part_number: string;
  last_alerted_at: Date;
};

/**
 * Per search and channel (`email`, `text`, `push` or `<kind>:<channel id>`): when its latest
 * message was released, and the outbox row collecting waves until the cadence allows the next.
 */
export type SearchAlertCadenceTable = {
  search_id: string;
  channel_key: string;
  last_release_at: Date | null;
  pending_key: string | null;
  pending_release_at: Date | null;
};

/** An alert to deliver on one channel; the idempotency key makes it unique. */
export type AlertOutboxTable = {
  id: Generated<string>;
  idempotency_key: string;
  channel: 'email' | 'text' | 'push' | UserChannelKind;
  user_id: string;
  search_id: string | null;
  /** The user's own channel (ntfy, Discord, Telegram, webhook) a row goes to; else null. */
  user_channel_id: ColumnType<string | null, string | null | undefined, string | null>;
  payload: ColumnType<Record<string, unknown>, string, string>;
  status: Generated<'pending' | 'sending' | 'sent' | 'failed' | 'suppressed'>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  locked_until: Date | null;
  last_error: string | null;
  created_at: CreatedAt;
  sent_at: Date | null;
};

/** Kinds of the channels users add themselves (issue 29). */
export type UserChannelKind = 'ntfy' | 'discord' | 'telegram' | 'webhook';

/** A user's own alert channel; `secret` is never answered after creation. */
export type UserChannelsTable = {
  id: Generated<string>;
  user_id: string;
  kind: UserChannelKind;
  label: string;
  settings: ColumnType<Record<string, unknown>, string, string>;
  secret: ColumnType<Record<string, unknown>, string, string>;
  consecutive_failures: Generated<number>;
  last_failure: string | null;
  last_failure_at: Date | null;
  last_success_at: Date | null;
  paused_at: Date | null;
  pause_reason: string | null;
  created_at: CreatedAt;
};

/** A search that does not use one of its owner's channels. */
export type SearchChannelExclusionsTable = { search_id: string; channel_id: string };

/** A browser's web push subscription. */
export type PushSubscriptionsTable = {
  id: Generated<string>;
  user_id: string;
  endpoint: string;
  keys: ColumnType<Record<string, string>, string, string>;
  created_at: CreatedAt;
};

/** A Stripe webhook event already handled: a replay of its id has no second effect. */
export type BillingEventsTable = {
  id: string;
  type: string;
  created: Date;
  received_at: CreatedAt;
};

/** A Stripe subscription as the newest event about it described it. */
export type BillingSubscriptionsTable = {
  id: string;
  customer_id: string;
  status: string;
  price_id: string | null;
  lookup_key: string | null;
  /** The plan its price's lookup key stands for; null for a price outside the plan table. */
  plan: PlanCode | null;
  current_period_end: Date | null;
  last_payment_failed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  event_created: Date;
  updated_at: UpdatedAt;
};

/** A Checkout session already answered by post_checkout (a session id is usable once). */
export type BillingCheckoutsTable = {
  session_id: string;
  user_id: string | null;
  claimed_at: CreatedAt;
};

export type {
  PollTargetsTable,
  UpstreamHostsTable,
  EgressAddressesTable,
  LocationSeedsTable,
  CountryEndpointsTable,
  InvalidPartsTable,
  UpstreamRetiredPartsTable,
  UpstreamRequestsTable,
  WatchWorkersTable,
  WatchFreshnessTable,
} from './watch-schema.ts';

/** All tables, as kysely sees them. */
export type Database = {
  users: UsersTable;
  idp_accounts: IdpAccountsTable;
  account_tokens: AccountTokensTable;
  idp_payloads: IdpPayloadsTable;
  app_secrets: AppSecretsTable;
  countries: CountriesTable;
  stores: StoresTable;
  store_directory_syncs: StoreDirectorySyncsTable;
  product_types: ProductTypesTable;
  product_models: ProductModelsTable;
  catalog_changes: CatalogChangesTable;
  searches: SearchesTable;
  search_preferred_models: SearchPreferredModelsTable;
  availability_snapshots: AvailabilitySnapshotsTable;
  store_neighbours: StoreNeighboursTable;
  search_inventory: SearchInventoryTable;
  availability_events: AvailabilityEventsTable;
  poll_targets: PollTargetsTable;
  upstream_hosts: UpstreamHostsTable;
  upstream_requests: UpstreamRequestsTable;
  egress_addresses: EgressAddressesTable;
  location_seeds: LocationSeedsTable;
  country_endpoints: CountryEndpointsTable;
  invalid_parts: InvalidPartsTable;
  upstream_retired_parts: UpstreamRetiredPartsTable;
  search_alert_state: SearchAlertStateTable;
  search_alert_cadence: SearchAlertCadenceTable;
  alert_outbox: AlertOutboxTable;
  push_subscriptions: PushSubscriptionsTable;
  user_channels: UserChannelsTable;
  search_channel_exclusions: SearchChannelExclusionsTable;
  watch_workers: WatchWorkersTable;
  watch_freshness: WatchFreshnessTable;
  billing_events: BillingEventsTable;
  billing_subscriptions: BillingSubscriptionsTable;
  billing_checkouts: BillingCheckoutsTable;
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
