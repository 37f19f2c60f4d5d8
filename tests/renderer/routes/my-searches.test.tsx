// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MySearchesScreen, SEARCH_LIST_ERROR_TEXT } from '#renderer/routes/my-searches.tsx';
import { search } from '#tests/renderer/fixtures.ts';
import {
  createFakeApi,
  createUnreachableApi,
  renderWithApp,
  type FakeRoute,
} from '#tests/renderer/test-harness.tsx';

afterEach(cleanup);

/** Renders My Searches over a fake API. */
function renderList(routes: Record<string, FakeRoute>) {
  const api = createFakeApi(routes);
  const result = renderWithApp(
    [
      { path: '/', element: <MySearchesScreen /> },
      { path: '/search/:searchId', element: <p>detail page</p> },
    ],
    { api },
  );
  return { ...result, api };
}

describe('My Searches', () => {
  it('shows the exact fetch-error text and never retries a 403', async () => {
    const { api } = renderList({
      'GET /searches/my_searches': () => ({
        status: 403,
        body: {
          code: 'subscription_required',
          reason: 'Searches on the website need a Better or Premium plan.',
          message: 'The Good plan has no searches on the web',
        },
      }),
    });
    expect(await screen.findByText(SEARCH_LIST_ERROR_TEXT)).toBeTruthy();
    expect(SEARCH_LIST_ERROR_TEXT).toBe(
      'An error occurred when attempting to fetch this resource. Please confirm you have an active subscription.',
    );
    expect(api.calls.filter((call) => call === 'GET /searches/my_searches')).toHaveLength(1);
  });

  it('says "An unexpected error occurred" when the list request gets no answer', async () => {
    const api = await createUnreachableApi();
    renderWithApp([{ path: '/', element: <MySearchesScreen /> }], { api });
    const alert = await screen.findByRole('alert', undefined, { timeout: 8000 });
    expect(alert.textContent).toBe('An unexpected error occurred');
    expect(screen.queryByText(SEARCH_LIST_ERROR_TEXT)).toBeNull();
  });

  it('retries other failures at most 3 times', async () => {
    const { api } = renderList({ 'GET /searches/my_searches': () => ({ status: 500, body: {} }) });
    expect(
      await screen.findByText(SEARCH_LIST_ERROR_TEXT, undefined, { timeout: 5000 }),
    ).toBeTruthy();
    expect(api.calls.filter((call) => call === 'GET /searches/my_searches')).toHaveLength(4);
  });

  it('invites the first search when there is none', async () => {
    renderList({ 'GET /searches/my_searches': () => ({ status: 200, body: [] }) });
    expect(await screen.findByText('Add a search!')).toBeTruthy();
  });

  it('shows a card per search and opens the search on click', async () => {
    const { router } = renderList({
      'GET /searches/my_searches': () => ({ status: 200, body: [search] }),
    });
    expect(await screen.findByText('Inventory available at 1 nearby store')).toBeTruthy();
    expect(screen.getByText('Union Square')).toBeTruthy();
    fireEvent.click(screen.getByText('iPhone 16 Pro'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/search/${search.search_id}`));
  });

  it('confirms a delete, refetches the list either way and closes when settled', async () => {
    let lists = 0;
    const { api } = renderList({
      'GET /searches/my_searches': () => {
        lists += 1;
        return { status: 200, body: [search] };
      },
      [`DELETE /searches/${search.search_id}`]: () => ({ status: 500, body: {} }),
    });
    fireEvent.click(await screen.findByRole('button', { name: /Options for/ }));
    fireEvent.click(await screen.findByText('Delete search'));
    expect(await screen.findByText('Are you sure you want to delete this search?')).toBeTruthy();
    fireEvent.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete search' }),
    );
    await waitFor(
      () => expect(screen.queryByText('Are you sure you want to delete this search?')).toBeNull(),
      { timeout: 3000 },
    );
    expect(api.calls).toContain(`DELETE /searches/${search.search_id}`);
    expect(lists).toBe(2);
  });
});
