import { enqueueAlerts } from '#server/notify/outbox.ts';
import type { AlertToEnqueue } from '#server/notify/types.ts';
import type { Executor } from '#server/db/database.ts';
import { listEventsAfter } from '#server/db/repositories/availability-repository.ts';
import {
  findAlertNames,
  listAlertCandidates,
  listLastAlertedAt,
  recordAlerted,
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

/**
 * Writes the outbox rows a restock calls for, inside the caller's transaction: one per
 * enabled channel of every matching search outside its quiet window. Keys name the search,
 * store, part and history event (plus the channel, since the outbox key is unique across
 * channels), so replaying the same change can never alert twice. Returns rows written.
 */
export async function enqueueRestockAlerts(
  trx: Executor,
  restock: Restock,
  quietWindowMs: number,
): Promise<number> {
  const candidates = await listAlertCandidates(trx, restock);
  if (candidates.length === 0) return 0;
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
  if (names === undefined) return 0;

  const alerts: AlertToEnqueue[] = [];
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
    if (channels.length === 0) continue;
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
    const key = `${candidate.search_id}:${restock.storeId}:${restock.partNumber}:${restock.eventId}`;
    for (const channel of channels) {
      alerts.push({
        idempotencyKey: `${key}:${channel}`,
        channel,
        userId: candidate.user_id,
        searchId: candidate.search_id,
        payload: {
          searchId: candidate.search_id,
          productName: names.product_name,
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
        },
      });
    }
  }
  await recordAlerted(trx, {
    searchIds: alertedSearchIds,
    storeId: restock.storeId,
    partNumber: restock.partNumber,
    at: restock.observedAt,
  });
  return await enqueueAlerts(trx, alerts);
}
