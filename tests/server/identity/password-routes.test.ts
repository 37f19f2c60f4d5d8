import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_CLIENT_ID } from '#server/config/login-settings.ts';
import {
  createAccountMailer,
  createFinishSetupLink,
  provisionAccount,
} from '#server/accounts/index.ts';
import { createIdpAccount, verifyIdpCredentials } from '#server/identity/idp-accounts.ts';
import { startIdentityProvider, type RunningIdentityProvider } from '#server/identity/index.ts';
import { PASSWORD_RESET_LIMITS } from '#server/identity/password-routes.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { startSmtpSink, type SmtpSink } from '#tests/helpers/smtp-sink.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { TEST_API_AUDIENCE } from '#tests/helpers/tokens.ts';
import { beginAuthorization, postLogin } from './oidc-flow.ts';

const SITE = 'http://localhost:3000';
const EMAIL = 'forgetful@example.com';

function postForm(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

/** The one-time link in a received email's text. */
function readLink(text: string | undefined): string {
  const match = /https?:\/\/\S+set-password\?token=[\w-]+/.exec(text ?? '');
  if (match === null) throw new Error(`No link in: ${text ?? ''}`);
  return match[0];
}

describe('the embedded provider\'s "Forgot password?" and set-password pages', () => {
  let testDb: TestDatabase;
  let sink: SmtpSink;
  let idp: RunningIdentityProvider;
  let issuer: string;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    sink = await startSmtpSink();
    const port = await getFreePort();
    issuer = `http://localhost:${port}/`;
    idp = await startIdentityProvider({
      db: testDb.db,
      issuer,
      port,
      clientId: EMBEDDED_CLIENT_ID,
      apiAudience: TEST_API_AUDIENCE,
      siteOrigins: [SITE],
      logger: { info: () => undefined, warn: (message) => console.warn(message) },
      passwordReset: {
        mailer: createAccountMailer({
          smtpUrl: sink.url,
          from: 'Shelfwatch <a@b.test>',
          dataDir: '',
        }),
        supportEmail: 'help@shelfwatch.test',
      },
    });
    await createIdpAccount(testDb.db, { email: EMAIL, password: 'the old password' });
  });
  afterAll(async () => {
    await idp?.close();
    await sink?.close();
    await testDb?.drop();
  });

  it('links "Forgot password?" from the sign-in page, keeping the interaction to come back to', async () => {
    const pending = await beginAuthorization({
      issuer,
      clientId: EMBEDDED_CLIENT_ID,
      redirectUri: `${SITE}/callback`,
      audience: TEST_API_AUDIENCE,
    });
    const page = await fetch(pending.loginUrl, { headers: { cookie: pending.jar.header() } });
    const html = await page.text();
    expect(html).toContain(`href="/account/forgot-password?uid=${pending.uid}"`);
    const form = await fetch(new URL(`account/forgot-password?uid=${pending.uid}`, issuer));
    const formHtml = await form.text();
    expect(formHtml).toContain('Forgot your password?');
    expect(formHtml).toContain(`href="/interaction/${pending.uid}"`);
  });

  it('answers known and unknown addresses alike and mails a link only to the known one', async () => {
    const before = sink.messages.length;
    const known = await postForm(new URL('account/forgot-password', issuer).toString(), {
      email: EMAIL.toUpperCase(),
    });
    const unknown = await postForm(new URL('account/forgot-password', issuer).toString(), {
      email: 'nobody@example.com',
    });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await known.text()).toBe(await unknown.text());
    const [mail] = (await sink.waitForMessages(before + 1)).slice(before);
    expect(mail.envelopeTo).toEqual([EMAIL]);
    expect(mail.parsed.subject).toBe('Choose a new Shelfwatch password');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.messages.slice(before)).toHaveLength(1);

    const link = readLink(mail.parsed.text);
    const setPage = await fetch(link);
    expect(setPage.status).toBe(200);
    expect(setPage.headers.get('referrer-policy')).toBe('no-referrer');
    const token = new URL(link).searchParams.get('token') ?? '';
    const url = new URL('account/set-password', issuer).toString();

    const mismatch = await postForm(url, { token, password: 'new password 1', confirm: 'other' });
    expect(mismatch.status).toBe(422);
    expect(await mismatch.text()).toContain('The two passwords are not the same.');

    const done = await postForm(url, {
      token,
      password: 'the new password',
      confirm: 'the new password',
    });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Your password is set');
    expect(await verifyIdpCredentials(testDb.db, EMAIL, 'the new password')).toBeDefined();
    expect(await verifyIdpCredentials(testDb.db, EMAIL, 'the old password')).toBeUndefined();

    const again = await fetch(link);
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('This link was already used');
    const reused = await postForm(url, {
      token,
      password: 'third password',
      confirm: 'third password',
    });
    expect(reused.status).toBe(410);
    expect(await verifyIdpCredentials(testDb.db, EMAIL, 'third password')).toBeUndefined();
  });

  it('signs in with the password chosen through a finish-setup link', async () => {
    const { user } = await provisionAccount(
      testDb.db,
      { login: { kind: 'embedded', issuer } },
      {
        email: 'new@example.com',
        plan: 'better',
      },
    );
    const link = await createFinishSetupLink(
      testDb.db,
      { login: { kind: 'embedded', issuer }, publicUrl: SITE },
      user,
    );
    const page = await (await fetch(link.url)).text();
    expect(page).toContain('Choose your password');
    const token = new URL(link.url).searchParams.get('token') ?? '';
    const url = new URL('account/set-password', issuer).toString();
    await postForm(url, { token, password: 'first password', confirm: 'first password' });
    const pending = await beginAuthorization({
      issuer,
      clientId: EMBEDDED_CLIENT_ID,
      redirectUri: `${SITE}/callback`,
      audience: TEST_API_AUDIENCE,
    });
    const login = await postLogin(pending, 'new@example.com', 'first password');
    expect(login.status).toBe(303);
  });

  it('refuses an expired link with a page saying so', async () => {
    const { user } = await provisionAccount(
      testDb.db,
      { login: { kind: 'embedded', issuer } },
      {
        email: 'expired@example.com',
        plan: 'better',
      },
    );
    const link = await createFinishSetupLink(
      testDb.db,
      { login: { kind: 'embedded', issuer }, publicUrl: SITE },
      user,
      { ttlMs: 1 },
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const page = await fetch(link.url);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('This link has expired');
    const garbage = await fetch(new URL('account/set-password?token=nope', issuer));
    expect(await garbage.text()).toContain('This link is not valid');
  });

  // Last: it spends this email's hourly budget.
  it('limits reset requests per email', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= PASSWORD_RESET_LIMITS.perEmailPerHour; attempt += 1) {
      const response = await postForm(new URL('account/forgot-password', issuer).toString(), {
        email: 'target@example.com',
      });
      statuses.push(response.status);
      await response.text();
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
  });
});
