import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findDeliveryTargets,
  deliveryTargetKey,
} from '#server/db/repositories/notify-repository.ts';
import { enqueueAlerts } from '#server/notify/outbox.ts';
import { claimDueRows, recordAttemptOutcomes } from '#server/notify/outbox-claims.ts';
import { createOutcomeRecorder } from '#server/notify/outcome-recorder.ts';
import { createCountingDatabase, type CountingDatabase } from '#tests/helpers/query-counter.ts';
import { createNotifyFixture, type NotifyFixture } from './fixtures.ts';

let fixture: NotifyFixture;
let counting: CountingDatabase;
beforeAll(async () => {
  fixture = await createNotifyFixture();
  counting = createCountingDatabase(fixture.testDb.url);
});
afterAll(async () => {
  await counting.destroy();
  await fixture.close();
});

async function enqueueEmails(prefix: string, count: number): Promise<void> {
  const user = await fixture.createUser(prefix, 'better');
  const search = await fixture.createSearch(user);
  await enqueueAlerts(
    fixture.db,
    Array.from({ length: count }, (_, index) =>
      fixture.buildAlert(user, search, 'email', `${prefix}-${index}`),
    ),
  );
}

async function readRows(ids: readonly string[]) {
  return await fixture.db
    .selectFrom('alert_outbox')
    .select(['id', 'status', 'last_error', 'sent_at', 'next_attempt_at', 'locked_until'])
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
}

describe('recording outcomes in batches', () => {
  it('writes every outcome of a batch in one statement, and skips a row whose lease was lost', async () => {
    await enqueueEmails('batch', 4);
    const [sent, suppressed, retried, stolen] = await claimDueRows(fixture.db, 4, 60_000);
    if (stolen === undefined) throw new Error('expected four claimed rows');
    // Another worker re-claimed the last row after its lease ran out: its attempt moved on.
    await fixture.db
      .updateTable('alert_outbox')
      .set({ attempts: stolen.attempt + 1 })
      .where('id', '=', stolen.id)
      .execute();
    const statements = await counting.countDuring(async () => {
      const recorded = await recordAttemptOutcomes(counting.db, [
        { row: sent, outcome: { status: 'sent', note: 'ok' } },
        { row: suppressed, outcome: { status: 'suppressed', reason: 'email_updates_off' } },
        { row: retried, outcome: { status: 'pending', error: 'SMTP: 451', retryInMs: 30_000 } },
        { row: stolen, outcome: { status: 'sent' } },
      ]);
      expect([...recorded].sort()).toEqual([sent.id, suppressed.id, retried.id].map(String).sort());
    });
    expect(statements).toHaveLength(1);
    const rows = new Map(
      (await readRows([sent.id, suppressed.id, retried.id, stolen.id])).map((row) => [row.id, row]),
    );
    expect(rows.get(sent.id)).toMatchObject({
      status: 'sent',
      last_error: 'ok',
      locked_until: null,
    });
    expect(rows.get(sent.id)?.sent_at).toBeInstanceOf(Date);
    expect(rows.get(suppressed.id)).toMatchObject({
      status: 'suppressed',
      last_error: 'email_updates_off',
      sent_at: null,
    });
    const retry = rows.get(retried.id);
    expect(retry).toMatchObject({ status: 'pending', last_error: 'SMTP: 451' });
    expect((retry?.next_attempt_at.getTime() ?? 0) - Date.now()).toBeGreaterThan(20_000);
    expect(rows.get(stolen.id)).toMatchObject({ status: 'sending' });
  });

  it('groups outcomes that settle while a write is under way into the next write', async () => {
    await enqueueEmails('wave', 60);
    const rows = await claimDueRows(fixture.db, 60, 60_000);
    expect(rows).toHaveLength(60);
    const recorder = createOutcomeRecorder(counting.db);
    const statements = await counting.countDuring(async () => {
      const results = await Promise.all(
        rows.map((row) => recorder.record(row, { status: 'sent' })),
      );
      expect(results.every(Boolean)).toBe(true);
    });
    // The first outcome goes at once; the other 59 arrived meanwhile and share the next write.
    expect(statements).toHaveLength(2);
    expect((await readRows(rows.map((row) => row.id))).every((row) => row.status === 'sent')).toBe(
      true,
    );
  });

  it('reads the users and searches of a burst in two statements, never another owner’s search', async () => {
    const owner = await fixture.createUser('owner', 'best');
    const other = await fixture.createUser('other', 'best');
    const search = await fixture.createSearch(owner);
    const rows = [
      { user_id: owner.id, search_id: search.id },
      { user_id: other.id, search_id: search.id },
      { user_id: owner.id, search_id: null },
    ];
    const statements = await counting.countDuring(async () => {
      const targets = await findDeliveryTargets(counting.db, rows);
      expect(targets.get(deliveryTargetKey(rows[0]))?.search?.id).toBe(search.id);
      expect(targets.get(deliveryTargetKey(rows[1]))).toMatchObject({ search: undefined });
      expect(targets.get(deliveryTargetKey(rows[1]))?.user?.id).toBe(other.id);
      expect(targets.get(deliveryTargetKey(rows[2]))?.user?.id).toBe(owner.id);
    });
    expect(statements).toHaveLength(2);
  });
});
