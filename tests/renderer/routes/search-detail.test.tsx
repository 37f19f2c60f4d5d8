// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  PREFERRED_MODEL_HINT,
  TEXT_NOT_ALLOWED_TOOLTIP,
} from '#renderer/components/search/search-settings.tsx';
import { DELAYED_WARNING, SearchDetailRoute } from '#renderer/routes/search-detail.tsx';
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
  createUnreachableApi,
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
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const searchPath = `/searches/${search.search_id}`;

/** Renders /search/{id} over a fake API with the standard fixtures. */
function renderDetail(routes: Record<string, FakeRoute> = {}, id = search.search_id) {
  const api = createFakeApi({
    [`GET ${searchPath}`]: () => ({ status: 200, body: search }),
    [`GET ${searchPath}/inventory`]: () => ({ status: 200, body: inventory }),
    [`GET ${searchPath}/history`]: () => ({ status: 200, body: emptyHistory }),
    'GET /status': () => ({ status: 200, body: { is_delayed: false, checked_at: '', hosts: [] } }),
    'GET /account': () => ({ status: 200, body: account }),
    'GET /products': () => ({ status: 200, body: products }),
    'GET /stores': () => ({ status: 200, body: stores }),
    ...routes,
  });
  const result = renderWithApp(
    [
      { path: '/', element: <p>home page</p> },
      { path: '/search/:searchId', element: <SearchDetailRoute /> },
    ],
    { path: `/search/${id}`, api },
  );
  return { ...result, api };
}

describe('search detail', () => {
  it('shows the header, breadcrumb and inventory with badges and empty stores', async () => {
    renderDetail();
    expect(await screen.findByRole('heading', { name: 'iPhone 16 Pro', level: 1 })).toBeTruthy();
    expect(screen.getByText('near Union Square | San Francisco, CA')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'My Searches' }).getAttribute('href')).toBe('/');
    expect(await screen.findByText('Stonestown')).toBeTruthy();
    expect(screen.getByText('No models available')).toBeTruthy();
    expect(screen.getAllByText('Preferred').length).toBeGreaterThan(0);
  });

  it('says "No inventory found" without stores', async () => {
    renderDetail({
      [`GET ${searchPath}/inventory`]: () => ({
        status: 200,
        body: { stores: [], last_checked_at: null },
      }),
    });
    expect(await screen.findByText('No inventory found')).toBeTruthy();
  });

  it('shows a not-found message with a way back for unknown or foreign searches', async () => {
    renderDetail({
      [`GET ${searchPath}`]: () => ({
        status: 404,
        body: {
          code: 'not_found',
          reason: "We couldn't find this search.",
          message: 'Search not found',
        },
      }),
    });
    expect(await screen.findByText('Search not found')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to My Searches' }).getAttribute('href')).toBe(
      '/',
    );
  });

  it('sends the user home on a 403', async () => {
    const { router } = renderDetail({
      [`GET ${searchPath}`]: () => ({
        status: 403,
        body: {
          code: 'subscription_required',
          reason: 'Searches on the website need a Better or Premium plan.',
          message: 'The Good plan has no searches on the web',
        },
      }),
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('says "An unexpected error occurred" when the search request gets no answer', async () => {
    const api = await createUnreachableApi();
    renderWithApp([{ path: '/search/:searchId', element: <SearchDetailRoute /> }], {
      path: `/search/${search.search_id}`,
      api,
    });
    expect(
      await screen.findByRole(
        'heading',
        { name: "This search couldn't be loaded" },
        { timeout: 8000 },
      ),
    ).toBeTruthy();
    expect(screen.getByText('An unexpected error occurred')).toBeTruthy();
  });

  it('says "An unexpected error occurred" when the inventory request gets no answer', async () => {
    renderDetail({
      [`GET ${searchPath}/inventory`]: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const alert = await screen.findByText('An unexpected error occurred', undefined, {
      timeout: 8000,
    });
    expect(alert.getAttribute('role')).toBe('alert');
  });

  it('keeps the text switch off and disabled without the Premium capability', async () => {
    renderDetail();
    const text = await screen.findByLabelText('Send text updates');
    expect(text).toHaveProperty('disabled', true);
    expect(text).toHaveProperty('checked', false);
    expect(screen.getByText(TEXT_NOT_ALLOWED_TOOLTIP)).toBeTruthy();
  });

  it('saves a change at once with "Saving..." then "Saved", disabling controls meanwhile', async () => {
    let answer: (value: FakeAnswer) => void = () => undefined;
    const sent: unknown[] = [];
    const { api } = renderDetail({
      [`PATCH ${searchPath}`]: ({ body }) => {
        sent.push(body);
        return new Promise<FakeAnswer>((resolve) => (answer = resolve));
      },
    });
    const onlyPreferred = await screen.findByLabelText('Show only preferred models');
    fireEvent.click(onlyPreferred);
    expect(await screen.findByText('Saving...')).toBeTruthy();
    expect(screen.getByLabelText('Send email updates')).toHaveProperty('disabled', true);
    expect(sent).toEqual([
      expect.objectContaining({ show_results_only_for_preferred_models: true, store_id: 'R075' }),
    ]);
    const inventoryCalls = api.calls.filter((call) => call.endsWith('/inventory')).length;
    await act(async () =>
      answer({ status: 200, body: { ...search, show_results_only_for_preferred_models: true } }),
    );
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(screen.getByLabelText('Send email updates')).toHaveProperty('disabled', false);
    await waitFor(() =>
      expect(api.calls.filter((call) => call.endsWith('/inventory')).length).toBe(
        inventoryCalls + 1,
      ),
    );
  });

  it('hints at preferred models when alerts are on but none is preferred', async () => {
    const noPreferred = {
      ...search,
      product_models: search.product_models.map((model) => ({ ...model, is_preferred: false })),
    };
    renderDetail({ [`GET ${searchPath}`]: () => ({ status: 200, body: noPreferred }) });
    expect(await screen.findByText(PREFERRED_MODEL_HINT)).toBeTruthy();
    const fieldset = screen.getByRole('group', { name: 'Preferred models' });
    expect(within(fieldset).getAllByRole('checkbox')).toHaveLength(2);
  });
});

describe('stale inventory', () => {
  const twelveMinutesAgo = () => new Date(Date.now() - 12 * 60_000 - 1000).toISOString();

  it('warns, and dates the stock as last known, when inventory checks are stale', async () => {
    renderDetail({
      [`GET ${searchPath}/inventory`]: () => ({
        status: 200,
        body: { ...inventory, is_stale: true, last_checked_at: twelveMinutesAgo() },
      }),
    });
    expect(await screen.findByText(DELAYED_WARNING)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Last known stock' })).toBeTruthy();
    expect(screen.getByTestId('last-checked').textContent).toBe('as of 12 minutes ago');
    expect(screen.queryByText(/^Last checked/)).toBeNull();
  });

  it('warns when only the history says checks are stale', async () => {
    renderDetail({
      [`GET ${searchPath}/history`]: () => ({
        status: 200,
        body: { ...emptyHistory, is_stale: true },
      }),
    });
    expect(await screen.findByText(DELAYED_WARNING)).toBeTruthy();
  });

  it('warns when GET /v2/status says alerts are delayed', async () => {
    renderDetail({
      'GET /status': () => ({ status: 200, body: { is_delayed: true, checked_at: '', hosts: [] } }),
    });
    expect(await screen.findByText(DELAYED_WARNING)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Last known stock' })).toBeTruthy();
  });

  it('shows stock as current when the status request fails and nothing is stale', async () => {
    const { api } = renderDetail({ 'GET /status': () => ({ status: 500 }) });
    expect(await screen.findByText('Stonestown')).toBeTruthy();
    await waitFor(() => expect(api.calls.filter((call) => call === 'GET /status').length).toBe(4));
    expect(screen.queryByText(DELAYED_WARNING)).toBeNull();
    expect(screen.getByRole('heading', { name: 'Available now' })).toBeTruthy();
  });
});

describe('last checked', () => {
  it('says how long ago the inventory was checked', async () => {
    const fiveMinutesAgo = new Date(Date.now() - 5 * 60_000 - 1000).toISOString();
    renderDetail({
      [`GET ${searchPath}/inventory`]: () => ({
        status: 200,
        body: { ...inventory, last_checked_at: fiveMinutesAgo },
      }),
    });
    expect(await screen.findByText('Last checked 5 minutes ago')).toBeTruthy();
  });

  it("uses the history's check time when the inventory has none, and the later of both", async () => {
    const minutesAgo = (minutes: number) =>
      new Date(Date.now() - minutes * 60_000 - 1000).toISOString();
    renderDetail({
      [`GET ${searchPath}/history`]: () => ({
        status: 200,
        body: { ...emptyHistory, last_checked_at: minutesAgo(3) },
      }),
    });
    expect(await screen.findByText('Last checked 3 minutes ago')).toBeTruthy();
    cleanup();
    renderDetail({
      [`GET ${searchPath}/inventory`]: () => ({
        status: 200,
        body: { ...inventory, last_checked_at: minutesAgo(9) },
      }),
      [`GET ${searchPath}/history`]: () => ({
        status: 200,
        body: { ...emptyHistory, last_checked_at: minutesAgo(2) },
      }),
    });
    expect(await screen.findByText('Last checked 2 minutes ago')).toBeTruthy();
  });
});

describe('restock history on the page', () => {
  it('shows the empty state and polls history with the inventory', async () => {
    const { api } = renderDetail();
    expect(await screen.findByText('No restocks recorded in the last 7 days')).toBeTruthy();
    expect(api.calls).toContain(`GET ${searchPath}/history`);
  });

  it('offers browser notifications on the web but not in the desktop app', async () => {
    renderDetail();
    expect(await screen.findByLabelText('Browser notifications')).toBeTruthy();
    cleanup();
    const api = createFakeApi({
      [`GET ${searchPath}`]: () => ({ status: 200, body: search }),
      [`GET ${searchPath}/inventory`]: () => ({ status: 200, body: inventory }),
    });
    renderWithApp([{ path: '/search/:searchId', element: <SearchDetailRoute /> }], {
      path: `/search/${search.search_id}`,
      api,
      host: {
        kind: 'desktop',
        openExternal: () => Promise.resolve(),
        showNotification: () => Promise.resolve(),
      },
    });
    expect(await screen.findByText('Stonestown')).toBeTruthy();
    expect(screen.queryByLabelText('Browser notifications')).toBeNull();
  });
});
