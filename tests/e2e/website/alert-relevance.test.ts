import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertAvailabilityEvents,
  upsertNeighbours,
  upsertSnapshots,
} from '#server/db/repositories/availability-repository.ts';
import { enqueueRestockWave } from '#server/watch/match-alerts.ts';
import { PRODUCT_MODEL_SEEDS } from '#shared/catalog/models.ts';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { startSmtpSink, type SmtpSink } from '#tests/helpers/smtp-sink.ts';
import { startTestStack, type TestStack } from '#tests/helpers/stack.ts';
import { chooseOption, ensureWebsiteBuilt, signIn } from './site-helpers.ts';

// Issue 42 in a real browser against the real stack (SMTP to a local sink): a Union Square
// search made in the UI gets the 30-mile default and the 15-minute cadence, shown in the
// settings; the account takes the browser's time zone; a restock wave naming a store 340 miles
// away (Third Street Promenade, Santa Monica) alerts only the nearby one, in an email written in
// the browser's zone with the store's distance and Apple's buy and store pages. The cadence's
// timing is proven on an injected clock in tests/server/notify/alert-volume.test.ts.

const USER = {
  email: 'near@example.com',
  password: 'near means near please',
  plan: 'better' as const,
};
const ZONE = 'America/Los_Angeles';
const HOME = 'R075'; // Union Square
const NEAR = 'R217'; // Chestnut Street, 1.8 miles
const FAR = 'R051'; // Third Street Promenade, Santa Monica, 340 miles

let stack: TestStack;
let sink: SmtpSink;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  await ensureWebsiteBuilt();
  sink = await startSmtpSink();
  stack = await startTestStack({ SMTP_URL: sink.url });
  await stack.createUser(USER);
  browser = await launchBrowser();
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    timezoneId: ZONE,
  });
  page = await context.newPage();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await sink?.close();
});

describe('alert relevance in the browser', { timeout: 90_000 }, () => {
  it('keeps nearby alerts near, in local time, with the distance and a buy link', async () => {
    const [model] = PRODUCT_MODEL_SEEDS.filter(
      (seed) => seed.product_id === 'iphone18pro' && seed.country_code === 'US',
    );
    if (model === undefined) throw new Error('no US iPhone 18 Pro in the seed catalog');

    await signIn(page, stack.baseUrl, USER.email, USER.password);
    await page.getByRole('button', { name: 'Create new search' }).first().click();
    await chooseOption(page, 'Select a product', 'iPhone 18 Pro', /^iPhone 18 Pro$/);
    await chooseOption(
      page,
      'Select a store',
      'Union Square',
      /^Union Square \| San Francisco, CA$/,
    );
    await page.getByRole('button', { name: 'Create search' }).click();
    await page.waitForURL(/\/search\/[0-9a-f-]{36}$/);
    const searchId = page.url().split('/').at(-1) ?? '';

    // The settings show the default distance in the country's unit and the cadence.
    expect(await page.getByLabel('Only stores within (miles)').inputValue()).toBe('30');
    expect(
      await page
        .getByLabel('Alert messages')
        .evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent),
    ).toBe('At most every 15 minutes (default)');
    await page.getByLabel(model.display_name).check();
    const db = stack.stack.db;
    await expect
      .poll(async () =>
        (
          await db
            .selectFrom('search_preferred_models')
            .select('part_number')
            .where('search_id', '=', searchId)
            .execute()
        ).map((row) => row.part_number),
      )
      .toEqual([model.part_number]);

    // The account took the browser's zone on the signed-in home page.
    await expect
      .poll(async () => {
        const row = await db
          .selectFrom('users')
          .select('time_zone')
          .where('email', '=', USER.email)
          .executeTakeFirst();
        return row?.time_zone;
      })
      .toBe(ZONE);

    // One answer: the model restocks at Chestnut Street and at Santa Monica, which an answer
    // from another seed filed as 340 miles from Union Square.
    const observedAt = new Date(Date.UTC(2026, 0, 15, 18, 2, 0)); // 10:02 in San Francisco
    await upsertNeighbours(
      db,
      HOME,
      [
        { neighbour_store_id: NEAR, distance_miles: 1.8 },
        { neighbour_store_id: FAR, distance_miles: 340.3 },
      ],
      observedAt,
    );
    const restocks = [NEAR, FAR].map((storeId) => ({
      store_id: storeId,
      part_number: model.part_number,
      from_status: 'unavailable',
      to_status: 'available',
      pickup_quote: 'Available Wed 21 Jan',
      observed_at: observedAt,
    }));
    await upsertSnapshots(
      db,
      restocks.map((event) => ({
        store_id: event.store_id,
        part_number: event.part_number,
        status: 'available' as const,
        pickup_quote: event.pickup_quote,
        observed_at: observedAt,
      })),
    );
    await db.transaction().execute(async (trx) => {
      const events = await insertAvailabilityEvents(trx, restocks);
      await enqueueRestockWave(
        trx,
        events.map((event) => ({
          eventId: String(event.id),
          storeId: event.store_id,
          partNumber: event.part_number,
          pickupQuote: event.pickup_quote,
          observedAt,
          productId: 'iphone18pro',
          countryCode: 'US',
        })),
        30 * 60_000,
      );
    });

    const [mail] = await sink.waitForMessages(1);
    expect(mail?.envelopeTo).toEqual([USER.email]);
    expect(mail?.parsed.subject).toBe(`${model.display_name} at Chestnut Street, 1.8 mi`);
    const text = mail?.parsed.text ?? '';
    expect(text).not.toContain('Third Street Promenade');
    expect(text).not.toContain('Santa Monica');
    expect(text).toContain('Seen: Thu 15 Jan, 10:02 PST');
    expect(text).toContain('Pickup: Available Wed 21 Jan (not today)');
    expect(text).toContain('Distance: 1.8 mi from your search’s store');
    expect(text).toContain(
      `Buy ${model.display_name} on apple.com: https://www.apple.com/shop/buy-iphone/iphone-18-pro`,
    );
    expect(text).toContain('Store page: https://www.apple.com/retail/chestnutstreet/');
    expect(text).toContain(`/search/${searchId}`);
  });
});
