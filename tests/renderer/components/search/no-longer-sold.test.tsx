// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  includeSearchProduct,
  isNoLongerSold,
} from '#renderer/components/search/no-longer-sold.tsx';
import { SearchCard } from '#renderer/components/search/search-card.tsx';
import { SearchDetailRoute } from '#renderer/routes/search-detail.tsx';
import {
  account,
  emptyHistory,
  inventory,
  products,
  search,
  stores,
} from '#tests/renderer/fixtures.ts';
import { createFakeApi, renderWithApp } from '#tests/renderer/test-harness.tsx';

beforeEach(() => {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: true,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// Today's catalog: the fixture search's iPhone 16 Pro is no longer offered.
const currentProducts = products.filter((product) => product.product_id !== 'iphone16pro');

describe('searches of a retired product type', () => {
  it('are told apart only once the product list has loaded', () => {
    expect(isNoLongerSold('iphone16pro', undefined)).toBe(false);
    expect(isNoLongerSold('iphone16pro', products)).toBe(false);
    expect(isNoLongerSold('iphone16pro', currentProducts)).toBe(true);
    expect(includeSearchProduct(currentProducts, search).at(-1)).toEqual({
      product_id: 'iphone16pro',
      product_name: 'iPhone 16 Pro (no longer sold)',
      sold_in: [],
    });
    expect(includeSearchProduct(products, search)).toEqual(products);
  });

  it('say "No longer sold" on the search page and keep the type in its settings', async () => {
    const searchPath = `/searches/${search.search_id}`;
    const api = createFakeApi({
      [`GET ${searchPath}`]: () => ({ status: 200, body: search }),
      [`GET ${searchPath}/inventory`]: () => ({ status: 200, body: inventory }),
      [`GET ${searchPath}/history`]: () => ({ status: 200, body: emptyHistory }),
      'GET /status': () => ({
        status: 200,
        body: { is_delayed: false, checked_at: '', hosts: [] },
      }),
      'GET /account': () => ({ status: 200, body: account }),
      'GET /products': () => ({ status: 200, body: currentProducts }),
      'GET /stores': () => ({ status: 200, body: stores }),
    });
    renderWithApp([{ path: '/search/:searchId', element: <SearchDetailRoute /> }], {
      path: `/search/${search.search_id}`,
      api,
    });
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(await within(heading).findByText('No longer sold')).toBeTruthy();
    expect((await screen.findAllByText('iPhone 16 Pro (no longer sold)')).length).toBeGreaterThan(
      0,
    );
  });

  it('are told apart per country once the store is known', () => {
    // Sold in the UK only: a search at the San Francisco store (US) is no longer sold.
    const ukOnly = products.map((product) =>
      product.product_id === 'iphone16pro' ? { ...product, sold_in: ['GB'] } : product,
    );
    const [unionSquare, regentStreet] = stores;
    expect(isNoLongerSold('iphone16pro', ukOnly)).toBe(false);
    expect(isNoLongerSold('iphone16pro', ukOnly, unionSquare)).toBe(true);
    expect(isNoLongerSold('iphone16pro', ukOnly, regentStreet)).toBe(false);
    // It may still move to a store in a country selling it.
    expect(includeSearchProduct(ukOnly, search, unionSquare).at(-1)).toEqual({
      product_id: 'iphone16pro',
      product_name: 'iPhone 16 Pro (no longer sold)',
      sold_in: ['GB'],
    });
  });

  it('say "No longer sold" on the search page when retired in the store’s country only', async () => {
    const ukOnly = products.map((product) =>
      product.product_id === 'iphone16pro' ? { ...product, sold_in: ['GB'] } : product,
    );
    const searchPath = `/searches/${search.search_id}`;
    const api = createFakeApi({
      [`GET ${searchPath}`]: () => ({ status: 200, body: search }),
      [`GET ${searchPath}/inventory`]: () => ({ status: 200, body: inventory }),
      [`GET ${searchPath}/history`]: () => ({ status: 200, body: emptyHistory }),
      'GET /status': () => ({
        status: 200,
        body: { is_delayed: false, checked_at: '', hosts: [] },
      }),
      'GET /account': () => ({ status: 200, body: account }),
      'GET /products': () => ({ status: 200, body: ukOnly }),
      'GET /stores': () => ({ status: 200, body: stores }),
    });
    renderWithApp([{ path: '/search/:searchId', element: <SearchDetailRoute /> }], {
      path: `/search/${search.search_id}`,
      api,
    });
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(await within(heading).findByText('No longer sold')).toBeTruthy();
    expect((await screen.findAllByText('iPhone 16 Pro (no longer sold)')).length).toBeGreaterThan(
      0,
    );
  });

  it('say so on their card', () => {
    render(
      <MemoryRouter>
        <SearchCard search={search} onDelete={() => undefined} isNoLongerSold />
      </MemoryRouter>,
    );
    expect(screen.getByText('No longer sold')).toBeTruthy();
  });
});
