// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Product } from '#shared/api/catalog.ts';
import { SearchSettings } from '#renderer/components/search/search-settings.tsx';
import { includeSearchProduct } from '#renderer/components/search/no-longer-sold.tsx';
import { products, search, stores } from '#tests/renderer/fixtures.ts';

afterEach(cleanup);

// The fixture search watches iPhone 16 Pro at Union Square (US). iPhone 17 Pro is sold in
// Australia only; Sydney is an Australian store.
const retiredInUs: Product = {
  product_id: 'iphone17pro',
  product_name: 'iPhone 17 Pro',
  sold_in: ['AU'],
};
const sydney = {
  ...stores[0],
  store_id: 'R238',
  store_name: 'Sydney',
  city: 'Sydney',
  state_code: 'NSW',
  state_name: 'New South Wales',
  country_locale: 'en_AU',
};

function renderSettings(settingsProducts: Product[], searchOverride: Partial<typeof search> = {}) {
  render(
    <SearchSettings
      search={{ ...search, ...searchOverride }}
      products={settingsProducts}
      stores={[...stores, sydney]}
      isTextAllowed
      saveState={{ status: 'idle', control: null }}
      onChange={() => undefined}
    />,
  );
}

/** The option texts of the react-select labelled `label`. */
function listOptions(label: string): string[] {
  const input = screen.getByLabelText(label);
  fireEvent.focus(input);
  fireEvent.keyDown(input, { key: 'ArrowDown' });
  return within(screen.getByRole('listbox'))
    .getAllByRole('option')
    .map((option) => option.textContent ?? '');
}

describe('search settings with per-country retirement', () => {
  it('offer only types sold in the store’s country', () => {
    renderSettings([...products, retiredInUs]);
    const offered = listOptions('Product type');
    expect(offered).toContain('iPhone 16 Pro');
    expect(offered).not.toContain('iPhone 17 Pro');
  });

  it('keep a US search of a type retired there, offering only stores where it is sold', () => {
    const search17 = { product_type: 'iphone17pro', product_name: 'iPhone 17 Pro' };
    renderSettings(includeSearchProduct([...products, retiredInUs], search17, stores[0]), search17);
    expect(screen.getByText('iPhone 17 Pro (no longer sold)')).toBeTruthy();
    expect(listOptions('Store')).toEqual([
      'Union Square | San Francisco, CA',
      'Sydney | Sydney, NSW',
    ]);
  });
});
