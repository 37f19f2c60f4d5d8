// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CreateSearchModal } from '#renderer/components/search/create-search-modal.tsx';
import { products, search, stores } from '#tests/renderer/fixtures.ts';
import {
  createFakeApi,
  createUnreachableApi,
  renderWithApp,
  type FakeAnswer,
  type FakeRoute,
} from '#tests/renderer/test-harness.tsx';

afterEach(cleanup);

/** Renders the open modal over a fake API whose create answer the test controls. */
function renderModal(create: FakeRoute) {
  const api = createFakeApi({
    'GET /products': () => ({ status: 200, body: products }),
    'GET /stores': () => ({ status: 200, body: stores }),
    'POST /searches': create,
  });
  let isOpen = true;
  const result = renderWithApp(
    [
      {
        path: '/',
        element: <CreateSearchModal isOpen={isOpen} onClose={() => (isOpen = false)} />,
      },
      { path: '/search/:searchId', element: <p>search page</p> },
    ],
    { api },
  );
  return { ...result, api, isClosed: () => !isOpen };
}

/** Opens a react-select by its label and picks the option with this text. */
async function choose(label: string, optionText: string, typed?: string) {
  const input = screen.getByLabelText(label);
  fireEvent.focus(input);
  if (typed !== undefined) {
    fireEvent.change(input, { target: { value: typed } });
  } else {
    fireEvent.keyDown(input, { key: 'ArrowDown' });
  }
  fireEvent.click(await screen.findByText(optionText));
}

describe('CreateSearchModal', () => {
  it('enables Create search only once a product and a store are chosen', async () => {
    renderModal(() => ({ status: 201, body: search }));
    const create = await screen.findByRole('button', { name: 'Create search' });
    expect(create).toHaveProperty('disabled', true);
    await choose('Select a product', 'iPhone 16 Pro');
    expect(create).toHaveProperty('disabled', true);
    await choose('Select a store', 'Union Square | San Francisco, CA');
    expect(create).toHaveProperty('disabled', false);
  });

  it('labels stores with and without a state code and filters by full state name', async () => {
    renderModal(() => ({ status: 201, body: search }));
    const input = await screen.findByLabelText('Select a store');
    fireEvent.focus(input);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(await screen.findByText('Regent Street | London')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'CALIFORNIA' } });
    await waitFor(() => expect(screen.queryByText('Regent Street | London')).toBeNull());
    expect(screen.getByText('Union Square | San Francisco, CA')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'zzz' } });
    expect(await screen.findByText('No options')).toBeTruthy();
  });

  it("lists the browser country's stores first and finds a store by postal code", async () => {
    // jsdom's browser language is en-US: Union Square leads although Regent Street sorts first.
    expect(navigator.language).toBe('en-US');
    const withPostalCodes = stores.map((store) => ({
      ...store,
      postal_code: store.store_id === 'R092' ? 'W1B 2EL' : '94108',
    }));
    renderWithApp(
      [{ path: '/', element: <CreateSearchModal isOpen onClose={() => undefined} /> }],
      {
        api: createFakeApi({
          'GET /products': () => ({ status: 200, body: products }),
          'GET /stores': () => ({ status: 200, body: withPostalCodes }),
        }),
      },
    );
    const input = await screen.findByLabelText('Select a store');
    fireEvent.focus(input);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    await screen.findByText('Regent Street | London');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Union Square | San Francisco, CA',
      'Regent Street | London',
    ]);
    fireEvent.change(input, { target: { value: 'w1b2el' } });
    await waitFor(() => expect(screen.queryByText('Union Square | San Francisco, CA')).toBeNull());
    expect(screen.getByText('Regent Street | London')).toBeTruthy();
  });

  it('shows "Creating..." with both buttons disabled, then goes to the new search', async () => {
    let answer: (value: FakeAnswer) => void = () => undefined;
    const { router, isClosed } = renderModal(
      () => new Promise<FakeAnswer>((resolve) => (answer = resolve)),
    );
    await choose('Select a product', 'iPhone 16 Pro');
    await choose('Select a store', 'Union Square | San Francisco, CA');
    fireEvent.click(screen.getByRole('button', { name: 'Create search' }));
    const busy = await screen.findByRole('button', { name: /Creating\.\.\./ });
    expect(busy).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveProperty('disabled', true);
    await act(async () => answer({ status: 201, body: search }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/search/${search.search_id}`));
    expect(isClosed()).toBe(true);
  });

  it.each([
    [
      {
        code: 'search_limit_reached',
        reason: 'Your Better plan allows 5 searches. Upgrade to Premium to add more.',
        message: '5 of 5 searches of the Better plan in use',
      },
      'Error: Your Better plan allows 5 searches. Upgrade to Premium to add more.',
    ],
    [{ message: 'Store is closed' }, 'Error: Store is closed'],
    [{}, 'Error: unknown'],
  ])('shows the error line for %j', async (body, expected) => {
    renderModal(() => ({ status: 403, body }));
    await choose('Select a product', 'iPhone 16 Pro');
    await choose('Select a store', 'Union Square | San Francisco, CA');
    fireEvent.click(screen.getByRole('button', { name: 'Create search' }));
    expect((await screen.findByRole('alert')).textContent).toBe(expected);
    expect(screen.queryByText(/search_limit_reached/)).toBeNull();
  });

  it('shows "An unexpected error occurred" when the create request gets no answer', async () => {
    const api = await createUnreachableApi({
      'GET /products': () => ({ status: 200, body: products }),
      'GET /stores': () => ({ status: 200, body: stores }),
    });
    renderWithApp(
      [{ path: '/', element: <CreateSearchModal isOpen onClose={() => undefined} /> }],
      {
        api,
      },
    );
    await choose('Select a product', 'iPhone 16 Pro');
    await choose('Select a store', 'Union Square | San Francisco, CA');
    fireEvent.click(screen.getByRole('button', { name: 'Create search' }));
    const alert = await screen.findByRole('alert', undefined, { timeout: 5000 });
    expect(alert.textContent).toBe('An unexpected error occurred');
  });

  it('clears the choices and the error on cancel', async () => {
    const { isClosed } = renderModal(() => ({ status: 500, body: {} }));
    await choose('Select a product', 'iPhone 16 Pro');
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('iPhone 16 Pro')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(isClosed()).toBe(true);
    expect(within(dialog).queryByText('iPhone 16 Pro')).toBeNull();
  });

  describe('with a type retired in one country', () => {
    // iPhone 17 Pro is no longer sold in the US but still is in Australia.
    const retiredInUs = {
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

    function renderCatalogModal() {
      const api = createFakeApi({
        'GET /products': () => ({ status: 200, body: [...products, retiredInUs] }),
        'GET /stores': () => ({ status: 200, body: [...stores, sydney] }),
        'POST /searches': () => ({ status: 201, body: search }),
      });
      renderWithApp(
        [{ path: '/', element: <CreateSearchModal isOpen onClose={() => undefined} /> }],
        {
          api,
        },
      );
    }

    /** The option texts of an open react-select. */
    async function listOptions(label: string): Promise<string[]> {
      const input = screen.getByLabelText(label);
      fireEvent.focus(input);
      fireEvent.keyDown(input, { key: 'ArrowDown' });
      const listbox = await screen.findByRole('listbox');
      const texts = within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent ?? '');
      fireEvent.keyDown(input, { key: 'Escape' });
      return texts;
    }

    it('does not offer it at a US store but does at an Australian one', async () => {
      renderCatalogModal();
      await screen.findByLabelText('Select a product');
      await waitFor(async () =>
        expect(await listOptions('Select a product')).toContain('iPhone 17 Pro'),
      );
      await choose('Select a store', 'Union Square | San Francisco, CA');
      const atUnionSquare = await listOptions('Select a product');
      expect(atUnionSquare).toContain('iPhone 16 Pro');
      expect(atUnionSquare).not.toContain('iPhone 17 Pro');
      expect(
        screen.getByText("Only products sold in this store's country are listed."),
      ).toBeTruthy();
      await choose('Select a store', 'Sydney | Sydney, NSW');
      expect(await listOptions('Select a product')).toContain('iPhone 17 Pro');
    });

    it('offers only stores of the countries still selling it once it is chosen', async () => {
      renderCatalogModal();
      await waitFor(async () => expect(await listOptions('Select a store')).toHaveLength(3));
      expect(screen.queryByText(/Only stores in countries where/)).toBeNull();
      await choose('Select a product', 'iPhone 17 Pro');
      expect(await listOptions('Select a store')).toEqual(['Sydney | Sydney, NSW']);
      expect(
        screen.getByText(/Only stores in countries where iPhone 17 Pro is sold are listed\./),
      ).toBeTruthy();
    });
  });
});
