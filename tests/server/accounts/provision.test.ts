import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkAccountToken,
  createAccountMailer,
  createFinishSetupLink,
  provisionAccount,
  sendFinishSetupEmail,
  setPasswordWithToken,
  type AccountSettings,
} from '#server/accounts/index.ts';
import { findUsersByEmail } from '#server/db/repositories/users-repository.ts';
import { findIdpAccount, verifyIdpCredentials } from '#server/identity/idp-accounts.ts';
import { startSmtpSink, type SmtpSink } from '#tests/helpers/smtp-sink.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

const ISSUER = 'http://localhost:4999/';
const HOUR = 60 * 60 * 1000;

describe('provisioning accounts at the embedded provider', () => {
  let testDb: TestDatabase;
  let sink: SmtpSink;
  let settings: AccountSettings;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    sink = await startSmtpSink();
    settings = {
      publicUrl: 'http://localhost:3999',
      login: { kind: 'embedded', issuer: ISSUER },
      mailer: createAccountMailer({
        smtpUrl: sink.url,
        from: 'Shelfwatch <a@b.test>',
        dataDir: '',
      }),
      supportEmail: 'help@shelfwatch.test',
    };
  });
  afterAll(async () => {
    await sink.close();
    await testDb.drop();
  });

  it('creates a login without a usable password and a user of the embedded issuer on the plan', async () => {
    const { user, isNew } = await provisionAccount(testDb.db, settings, {
      email: ' New.Person@Example.com ',
      plan: 'better',
    });
    expect(isNew).toBe(true);
    expect(user).toMatchObject({ issuer: ISSUER, email: 'new.person@example.com', plan: 'better' });
    const login = await findIdpAccount(testDb.db, { email: 'new.person@example.com' });
    expect(login?.id).toBe(user.subject);
    const row = await testDb.db
      .selectFrom('idp_accounts')
      .select('password_hash')
      .where('id', '=', user.subject)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();
    expect(await verifyIdpCredentials(testDb.db, 'new.person@example.com', '')).toBeUndefined();
  });

  it('answers the existing user of an email unchanged', async () => {
    const first = await provisionAccount(testDb.db, settings, {
      email: 'twice@example.com',
      plan: 'best',
    });
    const second = await provisionAccount(testDb.db, settings, {
      email: 'TWICE@example.com',
      plan: 'better',
    });
    expect(second.isNew).toBe(false);
    expect(second.user.id).toBe(first.user.id);
    expect(second.user.plan).toBe('best');
    expect(await findUsersByEmail(testDb.db, 'twice@example.com')).toHaveLength(1);
  });

  it('records a Stripe customer on an account without one and never replaces it', async () => {
    const { user } = await provisionAccount(testDb.db, settings, {
      email: 'payer@example.com',
      plan: 'better',
      stripeCustomerId: 'cus_first',
    });
    expect(user.stripe_customer_id).toBe('cus_first');
    const again = await provisionAccount(testDb.db, settings, {
      email: 'payer@example.com',
      plan: 'better',
      stripeCustomerId: 'cus_second',
    });
    expect(again.user.stripe_customer_id).toBe('cus_first');
    const plain = await provisionAccount(testDb.db, settings, {
      email: 'plain@example.com',
      plan: 'good',
    });
    const linked = await provisionAccount(testDb.db, settings, {
      email: 'plain@example.com',
      plan: 'good',
      stripeCustomerId: 'cus_later',
    });
    expect(plain.user.stripe_customer_id).toBeNull();
    expect(linked).toMatchObject({ isNew: false, user: { stripe_customer_id: 'cus_later' } });
  });

  it('provisions inside the caller transaction, which may roll it back', async () => {
    await expect(
      testDb.db.transaction().execute(async (trx) => {
        await provisionAccount(
          testDb.db,
          settings,
          { email: 'rolled@example.com', plan: 'best' },
          trx,
        );
        throw new Error('checkout failed');
      }),
    ).rejects.toThrow('checkout failed');
    expect(await findUsersByEmail(testDb.db, 'rolled@example.com')).toHaveLength(0);
    expect(await findIdpAccount(testDb.db, { email: 'rolled@example.com' })).toBeUndefined();
  });

  it('refuses what is not an email address', async () => {
    await expect(
      provisionAccount(testDb.db, settings, { email: 'not-an-email', plan: 'good' }),
    ).rejects.toMatchObject({ reason: 'invalid-email' });
  });

  it('mails a finish-setup link that sets the password once and then refuses', async () => {
    const { user } = await provisionAccount(testDb.db, settings, {
      email: 'setup@example.com',
      plan: 'better',
    });
    const link = await createFinishSetupLink(testDb.db, settings, user);
    expect(link.url.startsWith(`${ISSUER}account/set-password?token=`)).toBe(true);
    expect(link.expiresAt.getTime() - Date.now()).toBeGreaterThan(23 * HOUR);
    await sendFinishSetupEmail(settings, { email: 'setup@example.com', link });
    const [mail] = await sink.waitForMessages(1);
    expect(mail.envelopeTo).toEqual(['setup@example.com']);
    expect(mail.parsed.subject).toBe('Finish setting up your Shelfwatch account');
    expect(mail.parsed.text).toContain(link.url);
    expect(mail.parsed.html).toContain(link.url.replaceAll('&', '&amp;'));

    const token = new URL(link.url).searchParams.get('token') ?? '';
    const stored = await testDb.db.selectFrom('account_tokens').select('token_hash').execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(token);

    expect(await setPasswordWithToken(testDb.db, token, 'correct horse')).toMatchObject({
      isUsable: true,
    });
    expect(
      await verifyIdpCredentials(testDb.db, 'setup@example.com', 'correct horse'),
    ).toMatchObject({ id: user.subject, isEmailVerified: true });
    expect(await setPasswordWithToken(testDb.db, token, 'another password')).toEqual({
      isUsable: false,
      reason: 'used',
    });
    expect(
      await verifyIdpCredentials(testDb.db, 'setup@example.com', 'another password'),
    ).toBeUndefined();
  });

  it('refuses an expired link and keeps a refused password from spending the token', async () => {
    const { user } = await provisionAccount(testDb.db, settings, {
      email: 'late@example.com',
      plan: 'better',
    });
    const link = await createFinishSetupLink(testDb.db, settings, user, { ttlMs: HOUR });
    const token = new URL(link.url).searchParams.get('token') ?? '';
    await expect(setPasswordWithToken(testDb.db, token, 'short')).rejects.toMatchObject({
      reason: 'password-too-short',
    });
    expect(await checkAccountToken(testDb.db, token)).toMatchObject({ isUsable: true });
    const later = new Date(Date.now() + 2 * HOUR);
    expect(await checkAccountToken(testDb.db, token, later)).toEqual({
      isUsable: false,
      reason: 'expired',
    });
    expect(await setPasswordWithToken(testDb.db, token, 'long enough now', later)).toEqual({
      isUsable: false,
      reason: 'expired',
    });
    expect(await checkAccountToken(testDb.db, 'made-up')).toEqual({
      isUsable: false,
      reason: 'unknown',
    });
  });
});
