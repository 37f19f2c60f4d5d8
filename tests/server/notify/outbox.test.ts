import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueAlerts, OUTBOX_NOTIFY_CHANNEL } from '#server/notify/outbox.ts';
import { createNotifyFixture, type NotifyFixture } from './fixtures.ts';

describe('enqueueAlerts', () => {
  let fixture: NotifyFixture;
  let listener: pg.Client;
  const notifications: string[] = [];
  beforeAll(async () => {
    fixture = await createNotifyFixture();
    listener = new pg.Client({ connectionString: fixture.testDb.url });
    await listener.connect();
    listener.on('notification', (message) => notifications.push(message.payload ?? ''));
    await listener.query(`LISTEN ${OUTBOX_NOTIFY_CHANNEL}`);
  });
  afterAll(async () => {
    await listener.end();
    await fixture.close();
  });

  it('inserts each idempotency key once, within one call and across calls', async () => {
    const user = await fixture.createUser('amy', 'best');
    const search = await fixture.createSearch(user);
    const email = fixture.buildAlert(user, search, 'email', 'k1');
    const text = fixture.buildAlert(user, search, 'text', 'k1');
    expect(await enqueueAlerts(fixture.db, [email, text, email])).toBe(2);
    expect(await enqueueAlerts(fixture.db, [email])).toBe(0);
    expect(await enqueueAlerts(fixture.db, [])).toBe(0);
    const rows = await fixture.db
      .selectFrom('alert_outbox')
      .selectAll()
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
    expect(rows.map((row) => [row.idempotency_key, row.channel, row.status, row.attempts])).toEqual(
      [
        ['k1:email', 'email', 'pending', 0],
        ['k1:text', 'text', 'pending', 0],
      ],
    );
    expect(rows[0]?.payload).toEqual(email.payload);
  });

  it('wakes workers only when the enqueuing transaction commits', async () => {
    const user = await fixture.createUser('ben', 'best');
    const search = await fixture.createSearch(user);
    notifications.length = 0;
    await fixture.db
      .transaction()
      .execute(async (trx) => {
        await enqueueAlerts(trx, [fixture.buildAlert(user, search, 'email', 'rolled-back')]);
        throw new Error('matching failed later in the transaction');
      })
      .catch(() => undefined);
    expect(
      await fixture.db
        .selectFrom('alert_outbox')
        .select('id')
        .where('idempotency_key', '=', 'rolled-back:email')
        .execute(),
    ).toEqual([]);

    await fixture.db.transaction().execute(async (trx) => {
      await enqueueAlerts(trx, [fixture.buildAlert(user, search, 'email', 'committed')]);
    });
    await fixture.waitFor('the commit notification', () => notifications.length > 0);
    expect(notifications).toEqual(['1']);
  });
});
