import { enqueueHeldAlerts } from '#server/notify/outbox.ts';
import { enqueueWithCadence } from '#server/notify/cadence-hold.ts';
import { holdForQuietHours } from '#server/notify/quiet-hours-hold.ts';
import { sortNearestFirst } from '#server/notify/alert-payload.ts';
import { listChannelsForSearches } from '#server/db/repositories/channel-repository.ts';
import type { AlertChannel, AlertItem, AlertToEnqueue } from '#server/notify/alert-types.ts';
import type { Executor } from '#server/db/database.ts';
import type { UserChannelKind } from '#server/db/schema.ts';
import { listEventsAfter } from '#server/db/repositories/availability-repository.ts';
import {
  findAlertNames,
  listAlertCandidates,
  listLastAlertedAt,
  recordAlerted,
  type AlertCandidateRow,
} from '#server/db/repositories/watch-repository.ts';
import { isAlertAllowed, selectAlertChannels } from '#shared/watch/index.ts';
import type { KnownPickupStatus } from '#shared/upstream/types.ts';

/** A transition to available just recorded in the restock history. */
export type Restock = {
  eventId: string;
  storeId: string;
  partNumber: string;
  pickupQuote: string | null;
  observedAt: Date;
  productId: string;
  countryCode: string;
};

/** What one search's wave collects before it is written: who, on which channels, which pairs. */
type SearchWave = {
  candidate: AlertCandidateRow;
  channels: AlertChannel[];
  /** The user's own channels the search uses (ntfy, Discord, Telegram, webhooks). */
  userChannels: { id: string; kind: UserChannelKind }[];
  productName: string;
  /** Pairs with the event id each came from; the smallest id names the wave. */
  items: (AlertItem & { eventId: string })[];
};

/**
 * Writes the outbox rows a wave of restocks (every transition to available one upstream
 * answer brought) calls for, inside the caller's transaction: for every matching search
 * outside its quiet window per pair, one row per enabled channel listing all of the wave's
 * pairs for that search, nearest first. The key names the search, the wave's first pair
 * (lowest history event: store, part, event) and the channel, so replaying the same change
 * can never alert twice, and a one-pair wave keeps the key it always had. Rows of users in
 * their quiet hours wait for one summary at the window's end (holdForQuietHours); the others
 * go under the search's cadence (enqueueWithCadence: one message per channel per cadence,
 * a preferred model at the search's own store at once). Returns rows written.
 */
export async function enqueueRestockWave(
  trx: Executor,
  restocks: readonly Restock[],
  quietWindowMs: number,
): Promise<number> {
  const waves = new Map<string, SearchWave>();
  for (const restock of restocks) {
    await collectRestock(trx, restock, quietWindowMs, waves);
  }
  const alerts: AlertToEnqueue[] = [];
  for (const wave of waves.values()) {
    const first = wave.items.reduce((min, item) =>
      BigInt(item.eventId) < BigInt(min.eventId) ? item : min,
    );
    const searchId = wave.candidate.search_id;
    const key = `${searchId}:${first.storeId}:${first.partNumber}:${first.eventId}`;
    const payload = {
      searchId,
      productName: wave.productName,
      items: sortNearestFirst(wave.items),
      heldUntil: null,
    };
    for (const channel of wave.channels) {
      alerts.push({
        idempotencyKey: `${key}:${channel}`,
        channel,
        userId: wave.candidate.user_id,
        searchId,
        payload,
      });
    }
    for (const channel of wave.userChannels) {
      alerts.push({
        idempotencyKey: `${key}:${channel.kind}:${channel.id}`,
        channel: channel.kind,
        userChannelId: channel.id,
        userId: wave.candidate.user_id,
        searchId,
        payload,
      });
    }
  }
  // One answer's restocks share its observed time: quiet hours are judged at that moment.
  const observedAt = restocks[0]?.observedAt ?? new Date();
  const { immediate, held } = await holdForQuietHours(trx, alerts, observedAt);
  // Outside quiet hours the search's cadence decides: now, or with the next message.
  return (
    (await enqueueWithCadence(trx, immediate, observedAt)) + (await enqueueHeldAlerts(trx, held))
  );
}

/** The one-restock case of enqueueRestockWave (a wave of one pair). */
export async function enqueueRestockAlerts(
  trx: Executor,
  restock: Restock,
  quietWindowMs: number,
): Promise<number> {
  return await enqueueRestockWave(trx, [restock], quietWindowMs);
}

/**
 * Adds one restock's pair to the wave of every search it alerts (some channel enabled,
 * outside the quiet window for that pair) and records the alert time of the pair.
 */
async function collectRestock(
  trx: Executor,
  restock: Restock,
  quietWindowMs: number,
  waves: Map<string, SearchWave>,
): Promise<void> {
  const candidates = await listAlertCandidates(trx, restock);
  if (candidates.length === 0) return;
  const lastAlerted = await listLastAlertedAt(trx, {
    searchIds: candidates.map((candidate) => candidate.search_id),
    storeId: restock.storeId,
    partNumber: restock.partNumber,
  });
  const earliestAlert = [...lastAlerted.values()].reduce<Date | null>(
    (min, at) => (min === null || at < min ? at : min),
    null,
  );
  const changes =
    earliestAlert === null
      ? []
      : (await listEventsAfter(trx, restock.storeId, restock.partNumber, earliestAlert)).map(
          (event) => ({
            status: event.to_status as KnownPickupStatus,
            at: event.observed_at.getTime(),
          }),
        );
  const names = await findAlertNames(trx, restock);
  if (names === undefined) return;
  const userChannels = await listChannelsForSearches(
    trx,
    candidates.map((candidate) => candidate.search_id),
  );

  const alertedSearchIds: string[] = [];
  for (const candidate of candidates) {
    const channels = selectAlertChannels({
      plan: candidate.plan,
      isNotificationsEnabled: candidate.enable_notifications,
      hasEmail: candidate.has_email,
      hasPhone: candidate.has_phone,
      isTextOptedOut: candidate.is_text_opted_out,
      hasPushSubscription: candidate.has_push_subscription,
      isEmailWanted: candidate.send_email_updates,
      isTextWanted: candidate.send_text_updates,
    });
    const searchChannels = userChannels.get(candidate.search_id) ?? [];
    if (channels.length === 0 && searchChannels.length === 0) continue;
    const lastAlertedAt = lastAlerted.get(candidate.search_id)?.getTime() ?? null;
    const isAllowed = isAlertAllowed({
      lastAlertedAt,
      changesSince:
        lastAlertedAt === null ? [] : changes.filter((change) => change.at > lastAlertedAt),
      now: restock.observedAt.getTime(),
      windowMs: quietWindowMs,
    });
    if (!isAllowed) continue;
    alertedSearchIds.push(candidate.search_id);
    const wave = waves.get(candidate.search_id) ?? {
      candidate,
      channels,
      userChannels: searchChannels,
      productName: names.product_name,
      items: [],
    };
    wave.items.push({
      modelName: names.model_name ?? restock.partNumber,
      partNumber: restock.partNumber,
      storeId: restock.storeId,
      storeName: names.store_name,
      storeCity: names.city,
      storeState: names.state_code,
      storeSlug: names.store_slug,
      countryCode: restock.countryCode,
      distanceMiles: candidate.distance_miles,
      pickupQuote: restock.pickupQuote,
      observedAt: restock.observedAt.toISOString(),
      eventId: restock.eventId,
      goneAt: null,
    });
    waves.set(candidate.search_id, wave);
  }
  await recordAlerted(trx, {
    searchIds: alertedSearchIds,
    storeId: restock.storeId,
    partNumber: restock.partNumber,
    at: restock.observedAt,
  });
}
