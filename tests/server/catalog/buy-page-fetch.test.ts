import { describe, expect, it } from 'vitest';
import { readBuyPage } from '#server/catalog/buy-page-fetch.ts';

const PAGE = '/shop/buy-iphone/iphone-duo';
const visit = { countryCode: 'US', page: PAGE, url: `https://www.apple.com${PAGE}` };
const LISTING = `<script>window.PRODUCT_SELECTION_BOOTSTRAP = {productSelectionData: {"products":[{"partNumber":"MK1E4LL/A"}]}}</script>`;

/** A fetch answering each path from `answers` (a status and headers, or a page), else 404. */
function fakeFetch(answers: Record<string, Response | (() => Response)>): typeof fetch {
  return async (input) => {
    const url = input instanceof Request ? input.url : input.toString();
    const answer = answers[new URL(url).pathname];
    if (answer === undefined) return new Response('gone', { status: 404 });
    return typeof answer === 'function' ? answer() : answer;
  };
}

describe('reading one buy page', () => {
  it('follows a redirect within the page itself and reads where it lands', async () => {
    const outcome = await readBuyPage(
      visit,
      fakeFetch({
        [PAGE]: new Response(null, { status: 301, headers: { location: `${PAGE}/` } }),
        [`${PAGE}/`]: new Response(LISTING, { status: 200 }),
      }),
    );
    expect(outcome).toMatchObject({ kind: 'read', products: [{ partNumber: 'MK1E4LL/A' }] });
  });

  it('reports a redirect away from the page with where it leads', async () => {
    const outcome = await readBuyPage(
      visit,
      fakeFetch({ [PAGE]: new Response(null, { status: 301, headers: { location: '/iphone/' } }) }),
    );
    expect(outcome).toEqual({
      kind: 'redirected',
      status: 301,
      location: 'https://www.apple.com/iphone/',
    });
  });

  it('names the page and why when it cannot be read, never throwing', async () => {
    const failures = await Promise.all([
      readBuyPage(visit, fakeFetch({ [PAGE]: new Response(null, { status: 302 }) })),
      readBuyPage(
        visit,
        fakeFetch({
          [PAGE]: new Response(null, { status: 301, headers: { location: 'http://[x' } }),
        }),
      ),
      readBuyPage(
        visit,
        fakeFetch({
          [PAGE]: () => new Response(null, { status: 301, headers: { location: PAGE } }),
        }),
      ),
      readBuyPage(
        visit,
        fakeFetch({
          [PAGE]: new Response(
            '<script>window.PRODUCT_SELECTION_BOOTSTRAP = {productSelectionData: {"products": [</script>',
          ),
        }),
      ),
      readBuyPage({ ...visit, url: 'not a url' }, fakeFetch({})),
      readBuyPage(visit, async () => Promise.reject(new Error('socket hang up'))),
    ]);
    expect(
      failures.map((outcome) => (outcome.kind === 'failed' ? outcome.problem : outcome.kind)),
    ).toEqual([
      `${visit.url}: HTTP 302 without a Location`,
      `${visit.url}: HTTP 301 to a bad Location`,
      `${visit.url}: redirects in circles`,
      `${visit.url}: no products (PRODUCT_SELECTION_BOOTSTRAP: productSelectionData never closes (the page is cut short))`,
      'not a url: not a URL',
      `${visit.url}: request failed (socket hang up)`,
    ]);
  });
});
