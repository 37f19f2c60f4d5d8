// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Search } from '#shared/api/searches.ts';
import { TEXT_NEEDS_PHONE_NOTE } from '#renderer/components/search/search-settings.tsx';
import { SearchDetailRoute } from '#renderer/routes/search-detail.tsx';
import {
  account,
  emptyHistory,
  inventory,
  products,
  search,
  stores,
} from '#tests/renderer/fixtures.ts';
import {
  createFakeApi,
  renderWithApp,
  type FakeAnswer,
  type FakeRoute,
} from '#tests/renderer/test-harness.tsx';

beforeEach(() => {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: true,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const searchPath = `/searches/${search.search_id}`;

function renderDetail(routes: Record<string, FakeRoute> = {}, shown: Search = search) {
  const api = createFakeApi({
    [`GET ${searchPath}`]: () => ({ status: 200, body: shown }),
    [`GET ${searchPath}/inventory`]: () => ({ status: 200, body: inventory }),
    [`GET ${searchPath}/history`]: () => ({ status: 200, body: emptyHistory }),
    'GET /status': () => ({ status: 200, body: { is_delayed: false, checked_at: '', hosts: [] } }),
    'GET /account': () => ({ status: 200, body: account }),
    'GET /products': () => ({ status: 200, body: products }),
    'GET /stores': () => ({ status: 200, body: stores }),
    ...routes,
  });
  return renderWithApp(
    [
      { path: '/', element: <p>home page</p> },
      { path: '/account', element: <p>account page</p> },
      { path: '/search/:searchId', element: <SearchDetailRoute /> },
    ],
    { path: `/search/${search.search_id}`, api },
  );
}

/** The row (control and its status) of a labelled control. */
function rowOf(label: string): HTMLElement {
  const control = screen.getByLabelText(label);
  const row = control.closest('.d-flex');
  if (!(row instanceof HTMLElement)) throw new Error(`no row around ${label}`);
  return row;
}

describe('search detail rough edges', () => {
  it('shows "Saving..." then "Saved" next to the model that was ticked, not at the top', async () => {
    let answer: ((value: FakeAnswer) => void) | undefined;
    renderDetail({
      [`PATCH ${searchPath}`]: () => new Promise<FakeAnswer>((resolve) => (answer = resolve)),
    });
    const label = 'iPhone 16 Pro 128GB White Titanium';
    fireEvent.click(await screen.findByLabelText(label));
    expect(within(rowOf(label)).getByRole('status').textContent).toBe('Saving...');
    expect(within(rowOf('Show only preferred models')).queryByRole('status')).toBeNull();
    await waitFor(() => expect(answer).toBeDefined());
    await act(async () =>
      answer?.({
        status: 200,
        body: {
          ...search,
          product_models: search.product_models.map((model) => ({ ...model, is_preferred: true })),
        },
      }),
    );
    await waitFor(() => expect(within(rowOf(label)).getByRole('status').textContent).toBe('Saved'));
  });

  it('ticks a checkbox before the server answers and rolls it back with a readable error', async () => {
    let answer: ((value: FakeAnswer) => void) | undefined;
    renderDetail({
      [`PATCH ${searchPath}`]: () => new Promise<FakeAnswer>((resolve) => (answer = resolve)),
    });
    const label = 'iPhone 16 Pro 128GB White Titanium';
    const box = await screen.findByLabelText(label);
    expect(box).toHaveProperty('checked', false);
    fireEvent.click(box);
    await waitFor(() => expect(screen.getByLabelText(label)).toHaveProperty('checked', true));
    await waitFor(() => expect(answer).toBeDefined());
    await act(async () =>
      answer?.({
        status: 400,
        body: {
          code: 'invalid_input',
          reason: 'That model is not sold at this store.',
          message: 'product_models.1.part_number: unknown',
        },
      }),
    );
    await waitFor(() => expect(screen.getByLabelText(label)).toHaveProperty('checked', false));
    expect(within(rowOf(label)).getByRole('status').textContent).toBe(
      'That model is not sold at this store.',
    );
  });

  it('lists capacities by size (256GB, 512GB, 1TB, 2TB), not as text', async () => {
    const sizes = ['1TB', '256GB', '2TB', '512GB'];
    renderDetail(
      {},
      {
        ...search,
        product_models: sizes.map((size, index) => ({
          part_number: `PART${index}`,
          display_name: `iPhone 16 Pro ${size} Black Titanium`,
          is_preferred: false,
        })),
      },
    );
    const fieldset = await screen.findByRole('group', { name: 'Preferred models' });
    const labels = within(fieldset)
      .getAllByRole('checkbox')
      .map((box) => box.parentElement?.textContent);
    expect(labels).toEqual(
      ['256GB', '512GB', '1TB', '2TB'].map((size) => `iPhone 16 Pro ${size} Black Titanium`),
    );
  });

  it('refuses text updates without a phone number, linking to My Account', async () => {
    const premiumWithoutPhone = {
      ...account,
      phone_number: null,
      capabilities: { ...account.capabilities, text_notifications_allowed: true },
    };
    renderDetail({ 'GET /account': () => ({ status: 200, body: premiumWithoutPhone }) });
    await screen.findByText(TEXT_NEEDS_PHONE_NOTE, { exact: false });
    expect(screen.getByLabelText('Send text updates')).toHaveProperty('disabled', true);
    expect(screen.getByRole('link', { name: 'Add one in My Account' }).getAttribute('href')).toBe(
      '/account',
    );
  });
});
