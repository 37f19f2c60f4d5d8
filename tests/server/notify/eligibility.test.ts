import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enqueueAlerts } from '#server/notify/outbox.ts';
import { startSmtpSink, type SmtpSink } from '#tests/helpers/smtp-sink.ts';
import { createNotifyFixture, type NotifyFixture } from './fixtures.ts';

describe('send-time checks of the account switch, search flags and plan', () => {
  let fixture: NotifyFixture;
  let sink: SmtpSink;
  beforeAll(async () => {
    fixture = await createNotifyFixture();
    sink = await startSmtpSink();
  });
  afterEach(async () => fixture.stopWorkers());
  afterAll(async () => {
    await fixture.close();
    await sink.close();
  });

  it('suppresses email the settings no longer allow, with the reason, and sends the rest', async () => {
    const allowed = await fixture.createUser('sam', 'better');
    const switchedOff = await fixture.createUser('tia', 'best', { enable_notifications: false });
    const freePlan = await fixture.createUser('uma', 'good');
    const noEmail = await fixture.createUser('val', 'best', { email: null });
    const flagOff = await fixture.createUser('wes', 'best');
    const deleted = await fixture.createUser('xia', 'best');
    const deletedSearch = await fixture.createSearch(deleted);
    await enqueueAlerts(fixture.db, [
      fixture.buildAlert(allowed, await fixture.createSearch(allowed), 'email', 'allowed'),
      fixture.buildAlert(
        switchedOff,
        await fixture.createSearch(switchedOff),
        'email',
        'switched-off',
      ),
      fixture.buildAlert(freePlan, await fixture.createSearch(freePlan), 'email', 'free-plan'),
      fixture.buildAlert(noEmail, await fixture.createSearch(noEmail), 'email', 'no-email'),
      fixture.buildAlert(
        flagOff,
        await fixture.createSearch(flagOff, { send_email_updates: false }),
        'email',
        'flag-off',
      ),
      fixture.buildAlert(deleted, deletedSearch, 'email', 'deleted'),
    ]);
    // Deleted after enqueueing: the row survives (search_id set null) and must not be sent.
    await fixture.db.deleteFrom('searches').where('id', '=', deletedSearch.id).execute();
    await fixture.startWorker(fixture.buildConfig({ SMTP_URL: sink.url }));
    await fixture.waitFor('every row to settle', async () =>
      (await fixture.listOutbox()).every((row) => ['sent', 'suppressed'].includes(row.status)),
    );
    const outcome = Object.fromEntries(
      (await fixture.listOutbox()).map((row) => [
        row.idempotency_key,
        `${row.status} ${row.last_error ?? ''}`.trim(),
      ]),
    );
    expect(outcome).toEqual({
      'allowed:email': 'sent',
      'switched-off:email': 'suppressed notifications_disabled',
      'free-plan:email': 'suppressed plan_excludes_email',
      'no-email:email': 'suppressed no_email_address',
      'flag-off:email': 'suppressed email_updates_off',
      'deleted:email': 'suppressed search_deleted',
    });
    expect(sink.messages.map((message) => message.envelopeTo)).toEqual([['sam@example.com']]);
  });
});
