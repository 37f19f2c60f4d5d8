// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Outlet, type RouteObject } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Search } from '#shared/api/searches.ts';
import type { DesktopHost, HostBridge } from '#shared/bridge.ts';
import type { ApiResponse, IpcResult } from '#shared/desktop/ipc-contract.ts';
import {
  DEFAULT_DESKTOP_SETTINGS,
  FREE_LIMIT_MESSAGE,
  FREE_LIMIT_REASON,
  type DesktopWatchStatus,
} from '#shared/desktop/local-search.ts';
import {
  ACCOUNT_SEARCHES_NEED_PLAN_TEXT,
  ACCOUNT_SEARCHES_UNANSWERED_TEXT,
} from '#renderer/api/search-source.ts';
import { DesktopAuthProvider } from '#renderer/auth/desktop-auth-provider.tsx';
import {
  MAC_ALERTS_NOTE,
  PREFERRED_MODEL_HINT,
} from '#renderer/components/search/search-settings.tsx';
import { SEARCH_LIST_ERROR_TEXT } from '#renderer/routes/my-searches.tsx';
import { appRoutes } from '#renderer/router.tsx';
import { inventory, products, search, stores } from '#tests/renderer/fixtures.ts';
import { createFakeAuth, renderWithApp } from '#tests/renderer/test-harness.tsx';

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

const ok = <T,>(value: T): Promise<IpcResult<T>> => Promise.resolve({ ok: true, value });

const idleStatus: DesktopWatchStatus = {
  state: 'idle',
  last_check_at: new Date(Date.now() - 2 * 60_000).toISOString(),
  next_check_at: new Date(Date.now() + 3 * 60_000 - 1000).toISOString(),
  is_failing: false,
  failing_since: null,
  failure_message: null,
  cool_down_until: null,
  search_count: 1,
};

const authStatus = { is_signed_in: false, email: null, is_login_in_flight: false };

/** A macOS app host over in-memory answers; every call is a spy. */
function createFakeDesktop(overrides: { searches?: Search[]; status?: DesktopWatchStatus } = {}) {
  const localSearch: Search = {
    ...search,
    send_email_updates: false,
    send_text_updates: false,
    product_models: search.product_models.map((model) => ({ ...model, is_preferred: false })),
  };
  const list = overrides.searches ?? [];
  const desktop: DesktopHost = {
    searches: {
      list: vi.fn(() => ok(list)),
      get: vi.fn(() => ok(localSearch)),
      create: vi.fn(() =>
        Promise.resolve<IpcResult<Search>>({
          ok: false,
          error: {
            code: FREE_LIMIT_REASON,
            reason: FREE_LIMIT_MESSAGE,
            message: FREE_LIMIT_MESSAGE,
          },
        }),
      ),
      update: vi.fn(() => ok(localSearch)),
      remove: vi.fn(() => ok(null)),
      inventory: vi.fn(() => ok(inventory)),
      history: vi.fn(() =>
        ok({ days: 7, events: [], daily: [], last_checked_at: null, is_stale: false }),
      ),
    },
    catalog: {
      products: vi.fn(() => ok(products)),
      stores: vi.fn(() => ok(stores)),
      countries: vi.fn(() => ok([])),
    },
    watch: {
      status: vi.fn(() => ok(overrides.status ?? idleStatus)),
      checkNow: vi.fn(() => ok(idleStatus)),
      setPaused: vi.fn(() => ok(idleStatus)),
    },
    settings: {
      get: vi.fn(() => ok(DEFAULT_DESKTOP_SETTINGS)),
      update: vi.fn((patch) => ok({ ...DEFAULT_DESKTOP_SETTINGS, ...patch })),
    },
    auth: {
      status: vi.fn(() => ok(authStatus)),
      login: vi.fn(() => ok({ ...authStatus, is_signed_in: true, email: 'pat@example.com' })),
      cancelLogin: vi.fn(() => ok(null)),
      logout: vi.fn(() => ok(authStatus)),
    },
    api: { request: vi.fn(() => ok({ status: 200, body: [] })) },
    takeNotices: vi.fn(() =>
      ok([{ id: 'reset', level: 'warning' as const, message: 'Saved data was reset.' }]),
    ),
    onNavigate: vi.fn(() => () => undefined),
    onWatchChanged: vi.fn(() => () => undefined),
    onAuthChanged: vi.fn(() => () => undefined),
  };
  const host: HostBridge = {
    kind: 'desktop',
    openExternal: vi.fn(() => Promise.resolve()),
    showNotification: vi.fn(() => Promise.resolve()),
    desktop,
  };
  return { host, desktop, localSearch };
}

/** API settings that go through the app's main process, as App sets them up in the app. */
const bridgeApi = (desktop: DesktopHost) => ({
  settings: {
    apiBaseUrl: 'http://api.test',
    getAccessToken: () => Promise.reject(new Error('no token')),
    desktop,
  },
  calls: [],
});

const signedOut = () => createFakeAuth({ isAuthenticated: false, user: null });

/** The app's routes under the app's own login state (the main process's, through the bridge). */
const withDesktopAuth = (desktop: DesktopHost): RouteObject[] => [
  {
    element: (
      <DesktopAuthProvider desktop={desktop}>
        <Outlet />
      </DesktopAuthProvider>
    ),
    children: appRoutes,
  },
];

describe('the shared screens inside the macOS app', () => {
  it('opens on My Searches signed out, with the watch status and kept notices', async () => {
    const { host, desktop } = createFakeDesktop();
    renderWithApp(appRoutes, { host, auth: signedOut() });
    expect(await screen.findByText('Add a search!')).toBeTruthy();
    expect(await screen.findByText('Saved data was reset.')).toBeTruthy();
    expect(await screen.findByText('Last checked 2 minutes ago')).toBeTruthy();
    expect(screen.getByText('Next check in 3 minutes')).toBeTruthy();
    expect(desktop.searches.list).toHaveBeenCalled();
    // The app is the download: no marketing links, its own settings instead.
    expect(screen.queryByRole('link', { name: 'Pricing' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Download for macOS' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Settings' })).toBeTruthy();
  });

  it('shows failing checks as a visible warning', async () => {
    const { host } = createFakeDesktop({
      status: { ...idleStatus, is_failing: true, failure_message: 'Apple refused the request' },
    });
    renderWithApp(appRoutes, { host, auth: signedOut() });
    expect(await screen.findByText(/Checks are failing: Apple refused the request/)).toBeTruthy();
  });

  it('refuses a second free search with its sentence (not its code) and a Login button', async () => {
    const { host } = createFakeDesktop();
    const auth = signedOut();
    renderWithApp(appRoutes, { host, auth });
    fireEvent.click((await screen.findAllByRole('button', { name: 'Create new search' }))[0]);
    const product = await screen.findByLabelText('Select a product');
    fireEvent.keyDown(product, { key: 'ArrowDown' });
    fireEvent.click(await screen.findByText('iPhone 16 Pro'));
    const store = screen.getByLabelText('Select a store');
    fireEvent.keyDown(store, { key: 'ArrowDown' });
    fireEvent.click(await screen.findByText('Union Square | San Francisco, CA'));
    fireEvent.click(screen.getByRole('button', { name: 'Create search' }));
    expect(await screen.findByText(`Error: ${FREE_LIMIT_MESSAGE}`)).toBeTruthy();
    expect(screen.queryByText(FREE_LIMIT_REASON, { exact: false })).toBeNull();
    // The dialog's Login is a button (the navbar's is a link).
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(auth.login).toHaveBeenCalledWith('/'));
  });

  it('has the navbar Login link, whose click starts the browser login in place', async () => {
    const { host, desktop } = createFakeDesktop();
    const { router } = renderWithApp(withDesktopAuth(desktop), { host, api: bridgeApi(desktop) });
    const login = await screen.findByRole('link', { name: 'Login' });
    expect(login.getAttribute('href')).toBe('/force_login');
    fireEvent.click(login);
    await waitFor(() => expect(desktop.auth.login).toHaveBeenCalledOnce());
    expect(router.state.location.pathname).toBe('/');
  });

  it('logs in once from /force_login and goes back to My Searches when it settles', async () => {
    const { host, desktop } = createFakeDesktop();
    const { router } = renderWithApp(withDesktopAuth(desktop), {
      host,
      api: bridgeApi(desktop),
      path: '/force_login',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('button', { name: 'Account' })).toBeTruthy();
    expect(desktop.auth.login).toHaveBeenCalledOnce();
  });

  it('shows a local search with Mac notifications instead of email and text switches', async () => {
    const { host, localSearch } = createFakeDesktop();
    renderWithApp(appRoutes, {
      host,
      auth: signedOut(),
      path: `/search/${localSearch.search_id}`,
    });
    expect(await screen.findByText(MAC_ALERTS_NOTE)).toBeTruthy();
    expect(screen.getByText(PREFERRED_MODEL_HINT)).toBeTruthy();
    expect(screen.queryByLabelText('Send email updates')).toBeNull();
    expect(screen.queryByLabelText('Send text updates')).toBeNull();
  });

  it('lets a local search set how often the Mac notifies, saved through the app', async () => {
    const { host, desktop, localSearch } = createFakeDesktop();
    const withCadence = { ...localSearch, alert_cadence_minutes: 15 };
    desktop.searches.get = vi.fn(() => ok(withCadence));
    desktop.searches.update = vi.fn(() => ok({ ...withCadence, alert_cadence_minutes: 60 }));
    renderWithApp(appRoutes, {
      host,
      auth: signedOut(),
      path: `/search/${localSearch.search_id}`,
    });
    const cadence = await screen.findByLabelText<HTMLSelectElement>('Notifications on this Mac');
    expect(cadence.selectedOptions[0]?.textContent).toBe('At most every 15 minutes (default)');
    fireEvent.change(cadence, { target: { value: '60' } });
    await waitFor(() =>
      expect(desktop.searches.update).toHaveBeenCalledWith(
        localSearch.search_id,
        expect.objectContaining({ alert_cadence_minutes: 60 }),
      ),
    );
  });

  it('offers a test notification once on first run, and says when macOS refuses notifications', async () => {
    window.localStorage.clear();
    const { host } = createFakeDesktop({
      status: { ...idleStatus, notification_problem: 'Notifications are not allowed' },
    });
    const view = renderWithApp(appRoutes, { host, auth: signedOut() });
    expect(
      await screen.findByText(
        /Notifications can't be shown \(Notifications are not allowed\)\. Allow them in System Settings > Notifications > Shelfwatch/,
      ),
    ).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Send a test notification' }));
    expect(host.showNotification).toHaveBeenCalledWith({
      title: 'Shelfwatch notifications are on',
      body: 'This is how Shelfwatch tells you a model you watch is in stock.',
    });
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Send a test notification' })).toBeNull(),
    );
    view.unmount();
    renderWithApp(appRoutes, { host, auth: signedOut() });
    expect(await screen.findByText('Add a search!')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send a test notification' })).toBeNull();
  });

  it('hides the Dock icon from the settings and sends a test notification there', async () => {
    const { host, desktop } = createFakeDesktop();
    renderWithApp(appRoutes, { host, auth: signedOut(), path: '/settings' });
    fireEvent.click(
      await screen.findByLabelText('Show Shelfwatch in the Dock (off: only in the menu bar)'),
    );
    await waitFor(() =>
      expect(desktop.settings.update).toHaveBeenCalledWith({ show_dock_icon: false }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Send a test notification' }));
    expect(await screen.findByText(/Sent\. If nothing appeared/)).toBeTruthy();
  });

  it('saves each settings change at once', async () => {
    const { host, desktop } = createFakeDesktop();
    renderWithApp(appRoutes, { host, auth: signedOut(), path: '/settings' });
    const interval = await screen.findByLabelText('Check for stock every');
    expect((interval as HTMLSelectElement).value).toBe('5');
    fireEvent.change(interval, { target: { value: '1' } });
    await waitFor(() =>
      expect(desktop.settings.update).toHaveBeenCalledWith({ check_interval_minutes: 1 }),
    );
    expect(await screen.findByText('Saved')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Open Shelfwatch when I log in to this Mac'));
    await waitFor(() =>
      expect(desktop.settings.update).toHaveBeenCalledWith({ launch_at_login: true }),
    );
    const distance = screen.getByLabelText('Nearby stores: only within N miles');
    // Empty means the country's default (issue 42), no longer any distance.
    expect(distance.getAttribute('placeholder')).toBe('Country default');
    expect(screen.getByText(/Empty: the store country's default, 30 mi or 50 km\./)).toBeTruthy();
    fireEvent.change(distance, { target: { value: '0' } });
    fireEvent.blur(distance);
    expect(await screen.findByText(/Enter a distance from 0.5 to 500 miles/)).toBeTruthy();
  });

  it('lists the account searches beside the local one after login, through the main process', async () => {
    const { host, desktop, localSearch } = createFakeDesktop();
    desktop.searches.list = vi.fn(() => ok([localSearch]));
    const accountSearch = { ...search, search_id: 'acc-1', id: 'acc-1', store_name: 'Stanford' };
    desktop.api.request = vi.fn(() => ok({ status: 200, body: [accountSearch] }));
    renderWithApp(appRoutes, { host, auth: createFakeAuth(), api: bridgeApi(desktop) });
    expect(await screen.findByText('Stanford')).toBeTruthy();
    expect(screen.getByText('Union Square')).toBeTruthy();
    expect(desktop.api.request).toHaveBeenCalledWith(
      expect.objectContaining({ method: 'GET', path: '/searches/my_searches' }),
    );
  });

  it('shows the local searches and says why when the account has no paid plan (403)', async () => {
    const { host, desktop, localSearch } = createFakeDesktop();
    desktop.searches.list = vi.fn(() => ok([localSearch]));
    desktop.api.request = vi.fn(() =>
      ok({
        status: 403,
        body: {
          code: 'subscription_required',
          reason: 'Searches on the website need a Better or Premium plan.',
          message: 'The Good plan has no searches on the web',
        },
      }),
    );
    renderWithApp(appRoutes, { host, auth: createFakeAuth(), api: bridgeApi(desktop) });
    expect(await screen.findByText('Union Square')).toBeTruthy();
    expect(await screen.findByText(ACCOUNT_SEARCHES_NEED_PLAN_TEXT)).toBeTruthy();
    expect(screen.queryByText(SEARCH_LIST_ERROR_TEXT)).toBeNull();
  });

  it('keeps the local searches when the account cannot be reached, with the generic text', async () => {
    const { host, desktop, localSearch } = createFakeDesktop();
    desktop.searches.list = vi.fn(() => ok([localSearch]));
    // The main process could not reach the API: the bridge answers an error, not an HTTP status.
    desktop.api.request = vi.fn(() =>
      Promise.resolve<IpcResult<ApiResponse>>({
        ok: false,
        error: {
          code: 'offline',
          reason: "Shelfwatch couldn't reach your account.",
          message: "Shelfwatch couldn't reach your account.",
        },
      }),
    );
    renderWithApp(appRoutes, { host, auth: createFakeAuth(), api: bridgeApi(desktop) });
    expect(await screen.findByText('Union Square')).toBeTruthy();
    expect(await screen.findByText(ACCOUNT_SEARCHES_UNANSWERED_TEXT)).toBeTruthy();
    expect(ACCOUNT_SEARCHES_UNANSWERED_TEXT).toContain('An unexpected error occurred');
  });

  it('has no settings screen on the website', async () => {
    renderWithApp(appRoutes, { path: '/settings' });
    expect(await screen.findByText('Page not found')).toBeTruthy();
  });
});
