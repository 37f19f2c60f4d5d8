import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { enqueueAlerts } from '#server/notify/outbox.ts';
import { startTwilioStandIn, type TwilioStandIn } from '#tests/helpers/twilio-stand-in.ts';
import { createNotifyFixture, TEST_PUBLIC_URL, type NotifyFixture } from './fixtures.ts';

const FROM_NUMBER = '+15005550006';

describe('text alerts through the real Twilio client', () => {
  let fixture: NotifyFixture;
  let twilio: TwilioStandIn;
  beforeAll(async () => {
    fixture = await createNotifyFixture();
    twilio = await startTwilioStandIn();
  });
  afterEach(async () => {
    await fixture.stopWorkers();
    twilio.messages.length = 0;
  });
  afterAll(async () => {
    await fixture.close();
    await twilio.close();
  });

  const twilioConfig = (): ReturnType<NotifyFixture['buildConfig']> =>
    fixture.buildConfig({
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM_NUMBER: FROM_NUMBER,
      TWILIO_API_BASE_URL: twilio.baseUrl,
    });

  async function waitForRow(
    key: string,
    status: string,
  ): Promise<{ status: string; attempts: number; last_error: string | null }> {
    let found: { status: string; attempts: number; last_error: string | null } | undefined;
    await fixture.waitFor(`${key} to be ${status}`, async () => {
      found = (await fixture.listOutbox()).find(
        (row) => row.idempotency_key === key && row.status === status,
      );
      return found !== undefined;
    });
    return found ?? { status: '', attempts: 0, last_error: null };
  }

  it('sends one text to a Premium user with the model, store and search link', async () => {
    const user = await fixture.createUser('ivy', 'best', { phone_number: '+14155550101' });
    const search = await fixture.createSearch(user, { send_text_updates: true });
    const alert = fixture.buildAlert(user, search, 'text', 'premium');
    await enqueueAlerts(fixture.db, [alert, alert]);
    await fixture.startWorker(twilioConfig());
    const row = await waitForRow('premium:text', 'sent');
    expect(twilio.messages).toHaveLength(1);
    const [message] = twilio.messages;
    expect(message).toMatchObject({
      to: '+14155550101',
      from: FROM_NUMBER,
      accountSid: twilio.accountSid,
    });
    expect(message?.body).toContain(
      'iPhone 16 Pro 256GB Desert Titanium at Fifth Avenue, 2.4 mi. Available Today. Seen 10:15.',
    );
    expect(message?.body).toContain(`${TEST_PUBLIC_URL}/search/${search.id}`);
    expect(message?.body).toContain('Reply STOP to opt out.');
    expect(row.last_error).toBe(`twilio ${message?.sid}`);
  });

  it('suppresses texts for plans without them, opted-out numbers, missing numbers and the switched-off flag', async () => {
    const better = await fixture.createUser('jay', 'better', { phone_number: '+14155550102' });
    const optedOut = await fixture.createUser('kim', 'best', {
      phone_number: '+14155550103',
      is_text_opted_out: true,
    });
    const noPhone = await fixture.createUser('lou', 'best');
    const flagOff = await fixture.createUser('max', 'best', { phone_number: '+14155550104' });
    await enqueueAlerts(fixture.db, [
      fixture.buildAlert(
        better,
        await fixture.createSearch(better, { send_text_updates: true }),
        'text',
        'better',
      ),
      fixture.buildAlert(
        optedOut,
        await fixture.createSearch(optedOut, { send_text_updates: true }),
        'text',
        'opted-out',
      ),
      fixture.buildAlert(
        noPhone,
        await fixture.createSearch(noPhone, { send_text_updates: true }),
        'text',
        'no-phone',
      ),
      fixture.buildAlert(
        flagOff,
        await fixture.createSearch(flagOff, { send_text_updates: false }),
        'text',
        'flag-off',
      ),
    ]);
    await fixture.startWorker(twilioConfig());
    expect((await waitForRow('better:text', 'suppressed')).last_error).toBe('plan_excludes_text');
    expect((await waitForRow('opted-out:text', 'suppressed')).last_error).toBe('text_opted_out');
    expect((await waitForRow('no-phone:text', 'suppressed')).last_error).toBe('no_phone_number');
    expect((await waitForRow('flag-off:text', 'suppressed')).last_error).toBe('text_updates_off');
    expect(twilio.messages).toHaveLength(0);
  });

  it('retries a Twilio 503 and records the opt-out Twilio reports with error 21610', async () => {
    const flaky = await fixture.createUser('ned', 'best', { phone_number: '+14155550105' });
    const stopped = await fixture.createUser('ola', 'best', { phone_number: '+14155550106' });
    twilio.failNext({ status: 503, code: 20503, message: 'Service unavailable' });
    await enqueueAlerts(fixture.db, [
      fixture.buildAlert(
        flaky,
        await fixture.createSearch(flaky, { send_text_updates: true }),
        'text',
        'flaky',
      ),
    ]);
    await fixture.startWorker(twilioConfig());
    expect((await waitForRow('flaky:text', 'sent')).attempts).toBe(2);
    expect(twilio.messages).toHaveLength(1);

    twilio.failNext({
      status: 400,
      code: 21610,
      message: 'Attempt to send to unsubscribed recipient',
    });
    await enqueueAlerts(fixture.db, [
      fixture.buildAlert(
        stopped,
        await fixture.createSearch(stopped, { send_text_updates: true }),
        'text',
        'stopped',
      ),
    ]);
    expect((await waitForRow('stopped:text', 'suppressed')).last_error).toBe('text_opted_out');
    const user = await fixture.db
      .selectFrom('users')
      .select('is_text_opted_out')
      .where('id', '=', stopped.id)
      .executeTakeFirstOrThrow();
    expect(user.is_text_opted_out).toBe(true);
  });

  it('writes the text to the data folder when Twilio is not configured', async () => {
    const user = await fixture.createUser('pat', 'best', { phone_number: '+14155550107' });
    await enqueueAlerts(fixture.db, [
      fixture.buildAlert(
        user,
        await fixture.createSearch(user, { send_text_updates: true }),
        'text',
        'file',
      ),
    ]);
    await fixture.startWorker(fixture.buildConfig());
    await waitForRow('file:text', 'sent');
    const row = (await fixture.listOutbox()).find(
      (candidate) => candidate.idempotency_key === 'file:text',
    );
    const written = JSON.parse(
      await readFile(path.join(fixture.dataDir, 'outbox', 'text', `alert-${row?.id}.json`), 'utf8'),
    ) as { to: string; body: string };
    expect(written.to).toBe('+14155550107');
    expect(written.body).toContain('Reply STOP to opt out.');
  });
});
