import type { CatalogTypeRow } from '#shared/catalog/catalog-diff.ts';
import type { BuyPageOutcome, BuyPageVisit } from './buy-page-fetch.ts';

// Apple retires a buy page by redirecting it to a page without product data (the iPhone 17 Pro
// page answers 301 to the iPhone overview on every storefront since 2026-09-11; reference
// README, "A retired buy page redirects"). A page that redirects in every country it was read
// in this sync is retired: its types stop naming it, so it is not fetched again (an import of a
// catalog file naming it brings it back). One that redirects in some countries but still
// answers in others is kept and the redirects are reported.

/** A page the sync retires, and the words that report it. */
export type RetiredPage = { page: string; description: string };

/** Where a redirect leads: a path on the page's own site, else the whole address. */
function describeTarget(visit: BuyPageVisit, location: string): string {
  const target = new URL(location);
  return target.origin === new URL(visit.url).origin ? `to ${target.pathname}` : `to ${location}`;
}

/** Which pages to retire, and the redirects that retire nothing (reported as problems). */
export function decideRetiredPages(
  outcomes: readonly { visit: BuyPageVisit; outcome: BuyPageOutcome }[],
): { retired: RetiredPage[]; problems: string[] } {
  const byPage = new Map<string, { visit: BuyPageVisit; outcome: BuyPageOutcome }[]>();
  for (const entry of outcomes) {
    byPage.set(entry.visit.page, [...(byPage.get(entry.visit.page) ?? []), entry]);
  }
  const retired: RetiredPage[] = [];
  const problems: string[] = [];
  for (const [page, entries] of byPage) {
    const redirects = entries.flatMap(({ visit, outcome }) =>
      outcome.kind === 'redirected' ? [{ visit, outcome }] : [],
    );
    if (redirects.length === 0) continue;
    if (redirects.length === entries.length) {
      const statuses = [...new Set(redirects.map(({ outcome }) => outcome.status))].join('/');
      const where = redirects
        .map(
          ({ visit, outcome }) =>
            `${visit.countryCode} (${describeTarget(visit, outcome.location)})`,
        )
        .join(', ');
      retired.push({ page, description: `${page}: redirects (${statuses}) in ${where}` });
      continue;
    }
    const others = entries
      .filter(({ outcome }) => outcome.kind !== 'redirected')
      .map(({ visit }) => visit.countryCode)
      .join(', ');
    for (const { visit, outcome } of redirects) {
      problems.push(
        `${visit.url}: redirected (${outcome.status}) to ${outcome.location}; the page is kept since it did not redirect in ${others}`,
      );
    }
  }
  return { retired, problems };
}

/** The type rows that stop naming a retired page (only the types that change). */
export function retireBuyPages(
  types: readonly CatalogTypeRow[],
  retired: readonly RetiredPage[],
): CatalogTypeRow[] {
  const pages = new Set(retired.map((entry) => entry.page));
  return types
    .filter((type) => type.buy_page !== null && pages.has(type.buy_page))
    .map((type) => ({ ...type, buy_page: null }));
}
