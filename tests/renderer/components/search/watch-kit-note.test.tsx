// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Product } from '#shared/api/catalog.ts';
import { CreateSearchModal } from '#renderer/components/search/create-search-modal.tsx';
import { ProductPicker } from '#renderer/components/search/product-picker.tsx';
import { SearchSettings } from '#renderer/components/search/search-settings.tsx';
import { products, search, stores } from '#tests/renderer/fixtures.ts';
import { createFakeApi, renderWithApp } from '#tests/renderer/test-harness.tsx';

afterEach(cleanup);

// Apple sells Apple Watch as a case with a band and answers only for the two together; until
// the catalog says which band goes with which case, the pickers say Watch stock can't be
// watched, in these words.
const NOTE =
  "Apple Watch stock can't be watched yet: Apple only answers for a case together with a band.";
const ultra: Product = {
  product_id: 'applewatchultra',
  product_name: 'Apple Watch Ultra',
  sold_in: ['US'],
};

/** Opens the react-select labelled `label` and returns its listbox. */
async function openMenu(label: string): Promise<HTMLElement> {
  const input = await screen.findByLabelText(label);
  fireEvent.focus(input);
  fireEvent.keyDown(input, { key: 'ArrowDown' });
  return await screen.findByRole('listbox');
}

describe('the Apple Watch note in the pickers', () => {
  it('lists an Apple Watch type in the new-search dialog with the note, and it cannot be chosen', async () => {
    renderWithApp(
      [{ path: '/', element: <CreateSearchModal isOpen onClose={() => undefined} /> }],
      {
        api: createFakeApi({
          'GET /products': () => ({ status: 200, body: [...products, ultra] }),
          'GET /stores': () => ({ status: 200, body: stores }),
        }),
      },
    );
    const menu = await openMenu('Select a product');
    const watch = within(menu)
      .getAllByRole('option')
      .find((option) => option.textContent?.startsWith('Apple Watch Ultra'));
    expect(watch?.textContent).toBe(`Apple Watch Ultra${NOTE}`);
    expect(watch?.getAttribute('aria-disabled')).toBe('true');
    const iphone = within(menu).getByRole('option', { name: 'iPhone 16 Pro' });
    expect(iphone.getAttribute('aria-disabled')).toBe('false');

    if (watch !== undefined) fireEvent.click(watch);
    expect(screen.queryByRole('listbox')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Create search' })).toHaveProperty('disabled', true);
  });

  it('says it under the name when the landing page’s picker selects an Apple Watch', () => {
    const pickerProducts = [
      { productId: 'iphone16pro', productName: 'iPhone 16 Pro' },
      { productId: 'applewatchultra', productName: 'Apple Watch Ultra' },
    ];
    const { rerender } = render(
      <ProductPicker
        products={pickerProducts}
        selectedId="iphone16pro"
        onSelect={() => undefined}
      />,
    );
    expect(screen.queryByText(NOTE)).toBeNull();
    rerender(
      <ProductPicker
        products={pickerProducts}
        selectedId="applewatchultra"
        onSelect={() => undefined}
      />,
    );
    expect(screen.getByText(NOTE)).toBeTruthy();
  });

  it('keeps an existing Watch search’s type in its settings and says why nothing is watched', async () => {
    render(
      <SearchSettings
        search={{ ...search, product_type: 'applewatchultra', product_name: 'Apple Watch Ultra' }}
        products={[...products, ultra]}
        stores={stores}
        isTextAllowed
        saveState={{ status: 'idle', control: null }}
        onChange={() => undefined}
      />,
    );
    expect(screen.getByText(NOTE)).toBeTruthy();
    // The chosen value shows the name alone; the menu shows the note beside it.
    const value = screen.getByText('Apple Watch Ultra');
    expect(value.textContent).toBe('Apple Watch Ultra');
    const menu = await openMenu('Product type');
    expect(within(menu).getByText(NOTE)).toBeTruthy();
  });
});
