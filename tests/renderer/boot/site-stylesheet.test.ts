// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  document.body.replaceChildren();
});

/** Imports site-stylesheet.ts afresh: it remembers its one load per page. */
async function importFresh() {
  vi.resetModules();
  return await import('#renderer/boot/site-stylesheet.ts');
}

/** A held-back stylesheet link as the pre-rendered landing page has it. */
function addHeldBackLink(): HTMLLinkElement {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = '/assets/index-test.css';
  link.disabled = true;
  link.dataset.siteStylesheet = '';
  document.body.append(link);
  return link;
}

describe('the site stylesheet', () => {
  it('is there at once on a page that holds none back', async () => {
    const { loadSiteStylesheet } = await importFresh();
    await expect(loadSiteStylesheet()).resolves.toBeUndefined();
  });

  it('turns the held-back link on and resolves once it has loaded, once for every caller', async () => {
    const { loadSiteStylesheet } = await importFresh();
    const link = addHeldBackLink();
    let isLoaded = false;
    const first = loadSiteStylesheet().then(() => (isLoaded = true));
    const second = loadSiteStylesheet();
    expect(link.disabled).toBe(false);
    await Promise.resolve();
    expect(isLoaded).toBe(false);
    link.dispatchEvent(new Event('load'));
    await Promise.all([first, second]);
    expect(isLoaded).toBe(true);
  });

  it('rejects when the download fails, holds the link back again, and tries anew next time', async () => {
    const { loadSiteStylesheet } = await importFresh();
    const link = addHeldBackLink();
    const failed = loadSiteStylesheet();
    link.dispatchEvent(new Event('error'));
    await expect(failed).rejects.toThrow("The site's stylesheet");
    expect(link.disabled).toBe(true);
    const retried = loadSiteStylesheet();
    expect(link.disabled).toBe(false);
    link.dispatchEvent(new Event('load'));
    await expect(retried).resolves.toBeUndefined();
  });
});
