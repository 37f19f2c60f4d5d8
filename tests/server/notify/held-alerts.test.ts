import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueHeldAlerts } from '#server/notify/outbox.ts';
import type { AlertPayload } from '#server/notify/alert-types.ts';
import { createNotifyFixture, type NotifyFixture } from './fixtures.ts';

const END = new Date('2026-11-26T07:00:00.000Z');

describe('enqueueHeldAlerts', () => {
  let fixture: NotifyFixture;
  beforeAll(async () => {
    fixture = await createNotifyFixture();
  });
  afterAll(async () => fixture.close());

  it('merges a night of waves into one pending summary, and never into one already claimed', async () => {
    const user = await fixture.createUser('hal', 'better');
    const search = await fixture.createSearch(user);
    const held = (wave: string, item: { storeId: string; partNumber: string; at: string }) => {
      const alert = fixture.buildAlert(user, search, 'email', wave, {
        storeId: item.storeId,
        partNumber: item.partNumber,
        observedAt: item.at,
        eventId: wave,
      });
      return {
        ...alert,
        idempotencyKey: `${search.id}:held:${END.toISOString()}:email`,
        fallbackKey: `${alert.idempotencyKey}:held`,
        notBefore: END,
        payload: { ...alert.payload, heldUntil: END.toISOString() },
      };
    };
    const first = held('1', { storeId: 'R032', partNumber: 'P1', at: '2026-11-26T01:00:00Z' });
    const second = held('2', { storeId: 'R032', partNumber: 'P2', at: '2026-11-26T02:00:00Z' });
    expect(await enqueueHeldAlerts(fixture.db, [first])).toBe(1);
    expect(await enqueueHeldAlerts(fixture.db, [second])).toBe(0);
    // Replayed, the same wave neither adds a row nor lists its pair twice.
    expect(await enqueueHeldAlerts(fixture.db, [second])).toBe(0);
    const readRows = async () =>
      (await fixture.db
        .selectFrom('alert_outbox')
        .select(['idempotency_key', 'status', 'next_attempt_at', 'payload'])
        .where('user_id', '=', user.id)
        .orderBy('id')
        .execute()) as unknown as {
        idempotency_key: string;
        status: string;
        next_attempt_at: Date;
        payload: AlertPayload;
      }[];
    const [summary] = await readRows();
    expect(summary?.status).toBe('pending');
    expect(summary?.next_attempt_at.toISOString()).toBe(END.toISOString());
    expect(summary?.payload.items.map((item) => item.partNumber).sort()).toEqual(['P1', 'P2']);

    // Once a worker holds the summary, a late wave becomes a row of its own.
    await fixture.db
      .updateTable('alert_outbox')
      .set({ status: 'sending' })
      .where('idempotency_key', '=', first.idempotencyKey)
      .execute();
    const late = held('3', { storeId: 'R095', partNumber: 'P3', at: '2026-11-26T06:59:00Z' });
    expect(await enqueueHeldAlerts(fixture.db, [late])).toBe(1);
    const rows = await readRows();
    expect(rows.map((row) => row.idempotency_key)).toEqual([
      first.idempotencyKey,
      late.fallbackKey,
    ]);
    expect(rows[0]?.payload.items).toHaveLength(2);
    expect(rows[1]?.payload.items.map((item) => item.partNumber)).toEqual(['P3']);
  });
});
