/** Delivery channels of an alert; each enabled one gets its own outbox row. */
export type AlertChannel = 'email' | 'text' | 'push';

/** Every channel, in the order templates list them. */
export const ALERT_CHANNELS: readonly AlertChannel[] = ['email', 'text', 'push'];

/** What an alert says: the model that became available and where (stored as the row's JSON). */
export type AlertPayload = {
  searchId: string;
  productName: string;
  modelName: string;
  partNumber: string;
  storeId: string;
  storeName: string;
  storeCity: string;
  storeState: string | null;
  storeSlug: string | null;
  countryCode: string;
  distanceMiles: number | null;
  pickupQuote: string | null;
  /** ISO 8601 time the upstream answer showing the model available was observed. */
  observedAt: string;
};

/** One outbox row to write; the idempotency key (search, store, part, change, channel) makes it unique. */
export type AlertToEnqueue = {
  idempotencyKey: string;
  channel: AlertChannel;
  userId: string;
  searchId: string;
  payload: AlertPayload;
};

/** Terminal and transient states of an outbox row. */
export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'suppressed';
