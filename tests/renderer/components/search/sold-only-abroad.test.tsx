// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Product } from '#shared/api/catalog.ts';
import { describeSoldOnlyAbroad } from '#renderer/components/search/product-availability.ts';
import { SearchSettings } from '#renderer/components/search/search-settings.tsx';
import { CreateSearchModal } from '#renderer/components/search/create-search-modal.tsx';
import { products, search, stores } from '#tests/renderer/fixtures.ts';
import { createFakeApi, renderWithApp } from '#tests/renderer/test-harness.tsx';

afterEach(cleanup);

const japanOnly: Product = {
  product_id: 'iphone17e',
  product_name: 'iPhone 17e',
  sold_in: ['JP', 'CN'],
};

describe('a type sold only abroad', () => {
  it('says in plain words why only foreign stores show', () => {
    expect(describeSoldOnlyAbroad(japanOnly, 'en-US')).toBe(
      "iPhone 17e isn't sold in your country (United States). Apple sells it only in Japan and China mainland, so only stores there are listed.",
    );
    expect(describeSoldOnlyAbroad(japanOnly, 'ja-JP')).toBeNull();
    expect(describeSoldOnlyAbroad({ ...japanOnly, sold_in: ['US'] }, 'en-US')).toBeNull();
  });

  it('shows the reason under the store list of the search settings', () => {
    render(
      <SearchSettings
        search={{ ...search, product_type: 'iphone17e', product_name: 'iPhone 17e' }}
        products={[japanOnly]}
        stores={stores}
        isTextAllowed
        saveState={{ status: 'idle', control: null }}
        onChange={() => undefined}
      />,
    );
    expect(screen.getByTestId('sold-only-abroad').textContent).toMatch(
      /^iPhone 17e isn't sold in your country \(.+\)\. Apple sells it only in Japan and China/,
    );
  });
});

describe('a type sold only abroad in the create dialog', () => {
  it('says why only foreign stores are listed once it is picked', async () => {
    const api = createFakeApi({
      'GET /products': () => ({
        status: 200,
        body: [...products, { ...japanOnly, sold_in: ['GB'] }],
      }),
      'GET /stores': () => ({ status: 200, body: stores }),
    });
    renderWithApp(
      [{ path: '/', element: <CreateSearchModal isOpen onClose={() => undefined} /> }],
      {
        api,
      },
    );
    const input = await screen.findByLabelText('Select a product');
    fireEvent.focus(input);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.click(await screen.findByText('iPhone 17e'));
    expect((await screen.findByTestId('sold-only-abroad')).textContent).toBe(
      "iPhone 17e isn't sold in your country (United States). Apple sells it only in United Kingdom, so only stores there are listed.",
    );
  });
});
