// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatPausedText } from '#renderer/components/search/paused-search-notice.tsx';
import { MySearchesScreen } from '#renderer/routes/my-searches.tsx';
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

const paused = {
  ...search,
  search_id: '9a1c2a4e-8d7b-4c1a-9e2f-5a6b7c8d9e0f',
  id: '9a1c2a4e-8d7b-4c1a-9e2f-5a6b7c8d9e0f',
  store_name: 'Chestnut Street',
  is_paused: true,
};
const active = { ...search, is_paused: false };
const EXPLANATION = 'Paused: your plan allows 5 searches. Upgrade to resume.';

describe('paused searches', () => {
  it('words the explanation with the plan limit', () => {
    expect(formatPausedText(5)).toBe(EXPLANATION);
    expect(formatPausedText(1)).toBe('Paused: your plan allows 1 search. Upgrade to resume.');
  });

  it('My Searches marks only the paused card "Paused" with the explanation', async () => {
    const api = createFakeApi({
      'GET /searches/my_searches': () => ({ status: 200, body: [active, paused] }),
      'GET /account': () => ({ status: 200, body: account }),
    });
    renderWithApp([{ path: '/', element: <MySearchesScreen /> }], { api });
    // The limit comes with the account, which may answer after the list.
    await waitFor(() => expect(screen.getByTestId('paused-notice').textContent).toBe(EXPLANATION));
    const notice = screen.getByTestId('paused-notice');
    expect(within(notice).getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe(
      '/plans',
    );
    const cards = document.querySelectorAll('.search-card');
    expect(cards).toHaveLength(2);
    expect(cards[0].textContent).not.toContain('Paused');
    expect(cards[1].textContent).toContain('Chestnut Street');
    expect(within(cards[1] as HTMLElement).getByText('Paused')).toBeTruthy();
  });

  it('shows the explanation only once the plan limit is known, never other words', async () => {
    let answerAccount: () => void = () => undefined;
    const accountAnswered = new Promise<void>((resolve) => {
      answerAccount = resolve;
    });
    const api = createFakeApi({
      'GET /searches/my_searches': () => ({ status: 200, body: [paused] }),
      'GET /account': async () => {
        await accountAnswered;
        return { status: 200, body: account };
      },
    });
    renderWithApp([{ path: '/', element: <MySearchesScreen /> }], { api });
    await screen.findByText('Chestnut Street', { exact: false });
    expect(screen.queryByTestId('paused-notice')).toBeNull();
    answerAccount();
    await waitFor(() => expect(screen.getByTestId('paused-notice').textContent).toBe(EXPLANATION));
  });

  it('the search page shows "Paused" and the explanation for a paused search only', async () => {
    const path = `/searches/${paused.search_id}`;
    const api = createFakeApi({
      [`GET ${path}`]: () => ({ status: 200, body: paused }),
      [`GET ${path}/inventory`]: () => ({ status: 200, body: inventory }),
      [`GET ${path}/history`]: () => ({ status: 200, body: emptyHistory }),
      'GET /status': () => ({
        status: 200,
        body: { is_delayed: false, checked_at: '', hosts: [] },
      }),
      'GET /account': () => ({ status: 200, body: account }),
      'GET /products': () => ({ status: 200, body: products }),
      'GET /stores': () => ({ status: 200, body: stores }),
    });
    renderWithApp([{ path: '/search/:searchId', element: <SearchDetailRoute /> }], {
      path: `/search/${paused.search_id}`,
      api,
    });
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).toBe('iPhone 16 ProPaused');
    await waitFor(() => expect(screen.getByTestId('paused-notice').textContent).toBe(EXPLANATION));
  });

  it('the search page of an active search says nothing about pausing', async () => {
    const path = `/searches/${active.search_id}`;
    const api = createFakeApi({
      [`GET ${path}`]: () => ({ status: 200, body: active }),
      [`GET ${path}/inventory`]: () => ({ status: 200, body: inventory }),
      [`GET ${path}/history`]: () => ({ status: 200, body: emptyHistory }),
      'GET /account': () => ({ status: 200, body: account }),
      'GET /products': () => ({ status: 200, body: products }),
      'GET /stores': () => ({ status: 200, body: stores }),
    });
    renderWithApp([{ path: '/search/:searchId', element: <SearchDetailRoute /> }], {
      path: `/search/${active.search_id}`,
      api,
    });
    expect(await screen.findByRole('heading', { name: 'iPhone 16 Pro', level: 1 })).toBeTruthy();
    expect(screen.queryByTestId('paused-notice')).toBeNull();
    expect(screen.queryByText('Paused')).toBeNull();
  });
});
