import type { UserChannelKind } from '#server/db/schema.ts';

/** Delivery channels of an alert; each enabled one gets its own outbox row. */
export type AlertChannel = 'email' | 'text' | 'push';

/** An outbox row's channel: a built-in one or a kind of the user's own channels (issue 29). */
export type OutboxChannel = AlertChannel | UserChannelKind;

/** Every channel, in the order templates list them. */
export const ALERT_CHANNELS: readonly AlertChannel[] = ['email', 'text', 'push'];

/** One newly available (model, store) pair of a restock wave. */
export type AlertItem = {
  modelName: string;
  partNumber: string;
  storeId: string;
  storeName: string;
  storeCity: string;
  storeState: string | null;
  storeSlug: string | null;
  countryCode: string;
  /** Miles from the search's own store; 0 (or null) is that store itself. */
  distanceMiles: number | null;
  pickupQuote: string | null;
  /** ISO 8601 time the upstream answer showing the model available was observed. */
  observedAt: string;
  /** The restock-history event behind the pair (merging held waves deduplicates by it). */
  eventId: string | null;
  /**
   * Set at send time when the model was no longer available then: when it went (ISO). Never
   * stored; the message marks the pair "gone at 10:42" rather than sending people for nothing.
   */
  goneAt?: string | null;
};

/**
 * What one message says, stored as the outbox row's JSON: every pair one search's wave (one
 * upstream answer applied, or every wave held through quiet hours) found, nearest first.
 * `items[0]` is the best match; a one-item wave reads as a single-model alert.
 */
export type AlertPayload = {
  searchId: string;
  productName: string;
  items: AlertItem[];
  /** Set when the message is the summary of alerts held through the user's quiet hours. */
  heldUntil: string | null;
  /**
   * Set on a message that collected restocks for the search's cadence (issue 42): the cadence
   * in minutes, so the message can say why it lists several and where to change it.
   */
  cadenceMinutes?: number | null;
};

/**
 * One outbox row to write. The idempotency key names the search, the wave's first pair
 * (store, part, history event) and the channel, so replaying a change can never alert twice.
 */
export type AlertToEnqueue = {
  idempotencyKey: string;
  channel: OutboxChannel;
  /** The user's own channel the row goes to (with a kind of theirs as `channel`). */
  userChannelId?: string;
  userId: string;
  searchId: string;
  payload: AlertPayload;
  /** Not to be sent before this time (quiet hours); default now. */
  notBefore?: Date;
};

/** Terminal and transient states of an outbox row. */
export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'suppressed';
