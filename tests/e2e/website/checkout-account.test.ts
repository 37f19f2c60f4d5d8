import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUsersByEmail } from '#server/db/repositories/users-repository.ts';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { startSmtpSink, type SmtpSink } from '#tests/helpers/smtp-sink.ts';
import { startTestStack, type TestStack } from '#tests/helpers/stack.ts';
import { startStripeStandIn, type StripeStandIn } from '#tests/helpers/stripe-stand-in.ts';
import { ensureWebsiteBuilt, signIn } from './site-helpers.ts';

const WEBHOOK_SECRET = 'whsec_e2e_checkout_secret';
const BUYER_EMAIL = 'first.buyer@example.com';
const PASSWORD = 'a password chosen after checkout';

/** The finish-setup link in a received email's text. */
function readSetPasswordLink(text: string | undefined): string {
  const match = /https?:\/\/\S+set-password\?token=[\w-]+/.exec(text ?? '');
  if (match === null) throw new Error(`No finish-setup link in: ${text ?? ''}`);
  return match[0];
}

describe('buying a plan without an account, end to end', { timeout: 120_000 }, () => {
  let stripe: StripeStandIn;
  let smtp: SmtpSink;
  let stack: TestStack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    await ensureWebsiteBuilt();
    stripe = await startStripeStandIn();
    stripe.addPlanPrices();
    smtp = await startSmtpSink();
    stack = await startTestStack(
      {
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        SMTP_URL: smtp.url,
      },
      { stripeConnection: stripe.connection },
    );
    stripe.setWebhook({ url: `${stack.baseUrl}/v2/billing/webhook`, secret: WEBHOOK_SECRET });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await smtp?.close();
    await stripe?.close();
  });

  it('pays at Checkout, gets ACCOUNT_CREATED and the email, sets a password and signs in on Premium', async () => {
    await page.goto(`${stack.baseUrl}/plans`);
    const getPremium = page.getByRole('button', { name: 'Get Premium' });
    await getPremium.waitFor();
    expect(await getPremium.isEnabled()).toBe(true);
    expect(await page.getByText('Online checkout is not available right now.').count()).toBe(0);
    await getPremium.click();

    // The stand-in's hosted Checkout page: paying sends the signed events, then returns.
    await page.waitForURL((url) => url.href.startsWith(`${stripe.url}/c/pay/cs_test_`));
    await page.getByLabel('Email').fill(BUYER_EMAIL);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((url) => url.pathname === '/checkout_complete');
    await page
      .getByRole('heading', { name: 'Finish setting up your Shelfwatch account' })
      .waitFor();
    expect(await page.getByText(BUYER_EMAIL).count()).toBe(1);

    const [user] = await findUsersByEmail(stack.stack.db, BUYER_EMAIL);
    expect(user).toMatchObject({ plan: 'best', issuer: stack.issuer });
    expect(user?.stripe_customer_id).toMatch(/^cus_/);
    const events = await stack.stack.db.selectFrom('billing_events').select('type').execute();
    expect(events.map((event) => event.type).sort()).toEqual([
      'checkout.session.completed',
      'customer.subscription.created',
    ]);

    const [mail] = await smtp.waitForMessages(1);
    expect(mail?.envelopeTo).toEqual([BUYER_EMAIL]);
    await page.goto(readSetPasswordLink(mail?.parsed.text));
    await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('New password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.waitForLoadState('load');

    await signIn(page, stack.baseUrl, BUYER_EMAIL, PASSWORD);
    await page.getByRole('heading', { name: 'My Searches' }).waitFor();
    await page.getByText('Add a search!').waitFor();
  });
});
