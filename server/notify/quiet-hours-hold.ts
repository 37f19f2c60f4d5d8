import type { Executor } from '#server/db/database.ts';
import { listEnabledQuietHours } from '#server/db/repositories/quiet-hours-repository.ts';
import { findQuietHoursEnd } from '#shared/domain/quiet-hours.ts';
import { isAtSearchStore } from './alert-payload.ts';
import type { AlertToEnqueue } from './alert-types.ts';

/** A wave's row held until its quiet hours end (see enqueueHeldAlerts). */
export type HeldAlert = AlertToEnqueue & { notBefore: Date; fallbackKey: string };

/**
 * Splits a wave's rows by their users' quiet hours at `observedAt`. Outside quiet hours a row
 * goes now. Inside, its pairs wait for the summary row of that search and channel released at
 * the window's end, keyed `<search>:held:<end ISO>:<channel part of the wave key>` so every
 * wave of one night lands in one message; a user who chose "always for preferred models at my
 * store" gets the pairs at a search's own store now, in a row under the wave's own key.
 */
export async function holdForQuietHours(
  trx: Executor,
  alerts: readonly AlertToEnqueue[],
  observedAt: Date,
): Promise<{ immediate: AlertToEnqueue[]; held: HeldAlert[] }> {
  const hoursByUser = await listEnabledQuietHours(
    trx,
    alerts.map((alert) => alert.userId),
  );
  const immediate: AlertToEnqueue[] = [];
  const held: HeldAlert[] = [];
  for (const alert of alerts) {
    const hours = hoursByUser.get(alert.userId);
    const end =
      hours === undefined
        ? null
        : findQuietHoursEnd(
            {
              start: hours.quiet_hours_start,
              end: hours.quiet_hours_end,
              timeZone: hours.quiet_hours_time_zone,
            },
            observedAt,
          );
    if (hours === undefined || end === null) {
      immediate.push(alert);
      continue;
    }
    const isExempt = (item: AlertToEnqueue['payload']['items'][number]): boolean =>
      hours.quiet_hours_preferred_at_store && isAtSearchStore(item);
    const now = alert.payload.items.filter(isExempt);
    const later = alert.payload.items.filter((item) => !isExempt(item));
    if (now.length > 0) {
      immediate.push({ ...alert, payload: { ...alert.payload, items: now } });
    }
    if (later.length > 0) {
      // Wave keys are "<search>:<store>:<part>:<event>:<channel...>"; ids hold no colons.
      const channelPart = alert.idempotencyKey.split(':').slice(4).join(':');
      held.push({
        ...alert,
        idempotencyKey: `${alert.searchId}:held:${end.toISOString()}:${channelPart}`,
        fallbackKey: `${alert.idempotencyKey}:held`,
        notBefore: end,
        payload: { ...alert.payload, items: later, heldUntil: end.toISOString() },
      });
    }
  }
  return { immediate, held };
}
