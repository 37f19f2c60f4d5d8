import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deriveMessageId } from '#server/notify/email-channel.ts';
import { enqueueAlerts } from '#server/notify/outbox.ts';
import { startSmtpSink, type SmtpSink } from '#tests/helpers/smtp-sink.ts';
import { createNotifyFixture, TEST_PUBLIC_URL, type NotifyFixture } from './fixtures.ts';

describe('email alerts over SMTP', () => {
  let fixture: NotifyFixture;
  let sink: SmtpSink;
  beforeAll(async () => {
    fixture = await createNotifyFixture();
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await fixture.close();
    await sink.close();
  });
  beforeEach(() => {
    sink.messages.length = 0;
    sink.setRejectCode(undefined);
  });

  it('sends one email for an alert enqueued twice with the same key', async () => {
    const user = await fixture.createUser('dana', 'better');
    const search = await fixture.createSearch(user);
    const alert = fixture.buildAlert(user, search, 'email', 'twice');
    expect(await fixture.db.transaction().execute((trx) => enqueueAlerts(trx, [alert]))).toBe(1);
    expect(await fixture.db.transaction().execute((trx) => enqueueAlerts(trx, [alert]))).toBe(0);
    const worker = await fixture.startWorker(fixture.buildConfig({ SMTP_URL: sink.url }));
    await sink.waitForMessages(1);
    await fixture.waitFor('the row to be sent', async () =>
      (await fixture.listOutbox()).every((row) => row.status === 'sent'),
    );
    await worker.drain();
    await worker.stop();
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]?.envelopeTo).toEqual(['dana@example.com']);
  });

  it('names model, store, distance and pickup in the user’s time zone, links search and store page, and escapes HTML', async () => {
    const created = await fixture.createUser('erin', 'best');
    const user = await fixture.db
      .updateTable('users')
      .set({ time_zone: 'America/New_York' })
      .where('id', '=', created.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const search = await fixture.createSearch(user);
    const alert = fixture.buildAlert(user, search, 'email', 'content', {
      storeName: 'Fifth <Avenue> & "Co"',
    });
    await enqueueAlerts(fixture.db, [alert]);
    const worker = await fixture.startWorker(
      fixture.buildConfig({ SMTP_URL: sink.url, MAIL_FROM: 'Shelfwatch <alerts@shelfwatch.test>' }),
    );
    const [message] = await sink.waitForMessages(1);
    await worker.stop();
    const mail = message?.parsed;
    expect(mail?.subject).toBe(
      'iPhone 16 Pro 256GB Desert Titanium at Fifth <Avenue> & "Co", 2.4 mi',
    );
    expect(mail?.from?.value).toEqual([{ name: 'Shelfwatch', address: 'alerts@shelfwatch.test' }]);
    const text = mail?.text ?? '';
    expect(text).toContain('iPhone 16 Pro 256GB Desert Titanium (MYMJ3LL/A)');
    expect(text).toContain('Store: Apple Fifth <Avenue> & "Co" (New York, NY)');
    expect(text).toContain('Distance: 2.4 mi from your search’s store');
    expect(text).toContain('Pickup: Available Today');
    // 10:15 UTC on Sunday 22 November 2026 is 05:15 in New York.
    expect(text).toContain('Seen: Sun 22 Nov, 05:15 EST');
    expect(text).toContain('Times are in America/New_York');
    // The catalog has no buy page for this retired type: no buy link rather than a wrong one.
    expect(text).not.toContain('on apple.com:');
    expect(text).toContain(`Your search: ${TEST_PUBLIC_URL}/search/${search.id}`);
    expect(text).toContain('Store page: https://www.apple.com/retail/fifthavenue/');
    const html = typeof mail?.html === 'string' ? mail.html : '';
    expect(html).toContain('Fifth &lt;Avenue&gt; &amp; &quot;Co&quot;');
    expect(html).not.toContain('<Avenue>');
    expect(html).toContain(`href="${TEST_PUBLIC_URL}/search/${search.id}"`);
    expect(html).toContain('href="https://www.apple.com/retail/fifthavenue/"');

    expect(message?.messageId).toBe(
      deriveMessageId(alert.idempotencyKey, 'alerts@shelfwatch.test'),
    );
    const rawHeaders =
      message?.raw
        .toString('utf8')
        .split(/\r?\n\r?\n/)[0]
        ?.replace(/\r?\n[ \t]+/g, ' ') ?? '';
    expect(/^List-Unsubscribe-Post: (.*)$/im.exec(rawHeaders)?.[1]).toBe(
      'List-Unsubscribe=One-Click',
    );
    const unsubscribeHeader = /^List-Unsubscribe: (.*)$/im.exec(rawHeaders)?.[1] ?? '';
    expect(unsubscribeHeader).toMatch(
      new RegExp(
        `^<${TEST_PUBLIC_URL.replaceAll('.', '\\.')}/v2/notifications/unsubscribe\\?token=u1\\.${search.id}\\.[\\w-]+>, <mailto:support@shelfwatch\\.app\\?subject=unsubscribe%20u1\\.`,
      ),
    );
    expect(html).toContain('/v2/notifications/unsubscribe?token=u1.');
  });

  it('delivers every alert exactly once when SMTP is down for a while and then back', async () => {
    const user = await fixture.createUser('fred', 'best');
    const search = await fixture.createSearch(user);
    sink.setRejectCode(451);
    const alerts = Array.from({ length: 6 }, (_, index) =>
      fixture.buildAlert(user, search, 'email', `down-${index}`),
    );
    await fixture.db.transaction().execute((trx) => enqueueAlerts(trx, alerts));
    const worker = await fixture.startWorker(fixture.buildConfig({ SMTP_URL: sink.url }));
    await fixture.waitFor('every row to have failed at least twice', async () => {
      const rows = (await fixture.listOutbox()).filter((row) =>
        row.idempotency_key.startsWith('down-'),
      );
      return rows.every((row) => row.attempts >= 2 && row.status === 'pending');
    });
    expect(sink.messages).toHaveLength(0);
    const pending = (await fixture.listOutbox()).filter((row) =>
      row.idempotency_key.startsWith('down-'),
    );
    expect(pending.every((row) => (row.last_error ?? '').includes('451'))).toBe(true);

    sink.setRejectCode(undefined);
    await sink.waitForMessages(6);
    await fixture.waitFor('every row to be sent', async () =>
      (await fixture.listOutbox())
        .filter((row) => row.idempotency_key.startsWith('down-'))
        .every((row) => row.status === 'sent'),
    );
    await worker.stop();
    expect(sink.messages).toHaveLength(6);
    expect(new Set(sink.messages.map((message) => message.messageId)).size).toBe(6);
  });

  it('fails a row at once on a permanent (5xx) SMTP answer', async () => {
    const user = await fixture.createUser('gina', 'best');
    const search = await fixture.createSearch(user);
    sink.setRejectCode(550);
    await enqueueAlerts(fixture.db, [fixture.buildAlert(user, search, 'email', 'permanent')]);
    const worker = await fixture.startWorker(fixture.buildConfig({ SMTP_URL: sink.url }));
    await fixture.waitFor('the row to fail', async () =>
      (await fixture.listOutbox()).some(
        (row) => row.idempotency_key === 'permanent:email' && row.status === 'failed',
      ),
    );
    await worker.stop();
    const row = (await fixture.listOutbox()).find(
      (candidate) => candidate.idempotency_key === 'permanent:email',
    );
    expect(row).toMatchObject({ attempts: 1, status: 'failed' });
  });

  it('writes .eml files to the data folder when SMTP_URL is not set', async () => {
    const user = await fixture.createUser('hank', 'better');
    const search = await fixture.createSearch(user);
    await enqueueAlerts(fixture.db, [fixture.buildAlert(user, search, 'email', 'file')]);
    const worker = await fixture.startWorker(fixture.buildConfig());
    await fixture.waitFor('the row to be sent', async () =>
      (await fixture.listOutbox()).some(
        (row) => row.idempotency_key === 'file:email' && row.status === 'sent',
      ),
    );
    await worker.stop();
    const row = (await fixture.listOutbox()).find(
      (candidate) => candidate.idempotency_key === 'file:email',
    );
    const folder = path.join(fixture.dataDir, 'outbox', 'email');
    expect(await readdir(folder)).toContain(`alert-${row?.id}.eml`);
    const parsed = await simpleParser(await readFile(path.join(folder, `alert-${row?.id}.eml`)));
    expect(parsed.to).toMatchObject({ text: 'hank@example.com' });
    expect(parsed.subject).toContain(' at Fifth Avenue, 2.4 mi');
    expect(sink.messages).toHaveLength(0);
  });
});
