import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

const rootDir = path.resolve(import.meta.dirname, '..', '..', '..');

/**
 * Builds the SPA into dist/renderer when it isn't there: the stack serves that folder. An
 * existing build is reused (rebuilding would empty the folder under other running tests).
 */
export async function ensureWebsiteBuilt(): Promise<void> {
  const siteDir = path.join(rootDir, 'dist', 'renderer');
  // landing.html: a build from before the landing page was pre-rendered is out of date.
  if (
    existsSync(path.join(siteDir, 'index.html')) &&
    existsSync(path.join(siteDir, 'landing.html'))
  ) {
    return;
  }
  const { build } = await import('vite');
  await build({ configFile: path.join(rootDir, 'vite.config.ts'), logLevel: 'warn' });
}

/** Signs in through the embedded provider's login page, starting from the site's Login. */
export async function signIn(
  page: Page,
  baseUrl: string,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${baseUrl}/force_login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${baseUrl}/`);
  await page.getByRole('button', { name: 'Account' }).waitFor();
}

/** Logs out through the Account menu and waits to be back, signed out, at the site. */
export async function signOut(page: Page, baseUrl: string): Promise<void> {
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL(`${baseUrl}/`);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Login' })
    .waitFor();
}

/**
 * Picks an option of a react-select with the keyboard: type to filter, arrow down to the
 * wanted option (typing "iPhone 18 Pro" lists "iPhone 18 Pro Max" first), then Enter.
 */
export async function chooseOption(
  page: Page,
  label: string,
  typed: string,
  optionText: string | RegExp,
): Promise<void> {
  await page.getByLabel(label).fill(typed);
  await page.getByRole('option', { name: optionText }).first().waitFor();
  const texts = await page.getByRole('option').allTextContents();
  const index = texts.findIndex((text) =>
    typeof optionText === 'string' ? text.includes(optionText) : optionText.test(text),
  );
  for (let step = 0; step < index; step += 1) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}
