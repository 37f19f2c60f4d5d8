import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlanChange } from '#server/accounts/index.ts';
import { findUsersByEmail } from '#server/db/repositories/users-repository.ts';
import { createUserSearch } from '#server/searches/searches-service.ts';
import { verifyIdpCredentials } from '#server/identity/idp-accounts.ts';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { startSmtpSink, type SmtpSink } from '#tests/helpers/smtp-sink.ts';
import { startTestStack, type TestStack } from '#tests/helpers/stack.ts';
import { expectNoSeriousAxeViolations } from './axe-check.ts';
import { ensureWebsiteBuilt, signIn } from './site-helpers.ts';

const FORGETFUL = {
  email: 'forgetful@example.com',
  password: 'the old password',
  plan: 'better' as const,
};
const LEAVING = {
  email: 'leaving@example.com',
  password: 'a leaving password',
  plan: 'better' as const,
};
const DOWNGRADED = {
  email: 'downgraded@example.com',
  password: 'a downgraded password',
  plan: 'best' as const,
};
const STAYING = {
  email: 'staying@example.com',
  password: 'a staying password',
  plan: 'better' as const,
};

let stack: TestStack;
let sink: SmtpSink;
let browser: Browser;

beforeAll(async () => {
  await ensureWebsiteBuilt();
  sink = await startSmtpSink();
  stack = await startTestStack({ SMTP_URL: sink.url });
  for (const person of [FORGETFUL, LEAVING, STAYING, DOWNGRADED]) await stack.createUser(person);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await sink?.close();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  return await context.newPage();
}

describe('accounts on the website', { timeout: 90_000 }, () => {
  it('"Forgot password?" mails a one-time link whose new password signs in', async () => {
    const page = await newPage();
    await page.goto(`${stack.baseUrl}/force_login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Shelfwatch' }).waitFor();
    await page.getByLabel('Email address').fill(FORGETFUL.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText('Check your email').waitFor();

    const [mail] = await sink.waitForMessages(1, 15_000);
    expect(mail.envelopeTo).toEqual([FORGETFUL.email]);
    const link = /https?:\/\/\S+set-password\?token=[\w-]+/.exec(mail.parsed.text ?? '')?.[0];
    expect(link?.startsWith(stack.issuer)).toBe(true);

    await page.goto(link ?? '');
    await page.getByText('Choose a new password').first().waitFor();
    await page.getByLabel('New password', { exact: true }).fill('a brand new password');
    await page.getByLabel('New password again').fill('a brand new password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password is set').waitFor();
    await page.getByRole('link', { name: 'Sign in to Shelfwatch' }).click();

    await signIn(page, stack.baseUrl, FORGETFUL.email, 'a brand new password');
    expect(
      await verifyIdpCredentials(stack.stack.db, FORGETFUL.email, FORGETFUL.password),
    ).toBeUndefined();

    // The link worked once.
    await page.goto(link ?? '');
    await page.getByText('This link was already used').waitFor();
    await page.context().close();
  });

  it('"Delete my account" asks, deletes that account only and logs out', async () => {
    const page = await newPage();
    await signIn(page, stack.baseUrl, LEAVING.email, LEAVING.password);
    await page.goto(`${stack.baseUrl}/account`);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByText('It cannot be undone.').waitFor();
    await expectNoSeriousAxeViolations(page);
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL(`${stack.baseUrl}/`);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Login' })
      .waitFor();

    expect(await findUsersByEmail(stack.stack.db, LEAVING.email)).toHaveLength(0);
    expect(
      await verifyIdpCredentials(stack.stack.db, LEAVING.email, LEAVING.password),
    ).toBeUndefined();
    expect(await findUsersByEmail(stack.stack.db, STAYING.email)).toHaveLength(1);
    expect(
      await verifyIdpCredentials(stack.stack.db, STAYING.email, STAYING.password),
    ).toBeDefined();
    await page.context().close();
  });

  it('shows searches over a downgraded plan as "Paused" with how to resume them', async () => {
    const [user] = await findUsersByEmail(stack.stack.db, DOWNGRADED.email);
    for (const storeId of ['R095', 'R075', 'R217', 'R033', 'R029', 'R231']) {
      await createUserSearch(stack.stack.db, user, {
        product_type: 'iphone16pro',
        store_id: storeId,
      });
    }
    await applyPlanChange(stack.stack.db, user.id, 'better');
    const page = await newPage();
    await signIn(page, stack.baseUrl, DOWNGRADED.email, DOWNGRADED.password);
    const notice = page.getByTestId('paused-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toBe(
      'Paused: your plan allows 5 searches. Upgrade to resume.',
    );
    expect(await page.locator('.search-card').count()).toBe(6);
    expect(await page.locator('.search-card', { hasText: 'Paused' }).count()).toBe(1);
    await expectNoSeriousAxeViolations(page);
    await page.context().close();
  });
});
