// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HomeRoute } from '#renderer/routes/home.tsx';
import { PlansRoute } from '#renderer/routes/plans.tsx';
import { useBillingPeriodStore } from '#renderer/state/billing-period-store.ts';
import { countries, products, stores } from '#tests/renderer/fixtures.ts';
import {
  createFakeApi,
  createFakeAuth,
  renderWithApp,
  testConfig,
} from '#tests/renderer/test-harness.tsx';

afterEach(() => {
  cleanup();
  Cookies.remove('sw_pricing_isBilledAnnually', { path: '/' });
  useBillingPeriodStore.setState({ isBilledAnnually: true });
});

/** The catalog endpoints the landing page reads. */
const catalogApi = () =>
  createFakeApi({
    'GET /products': () => ({ status: 200, body: products }),
    'GET /stores': () => ({ status: 200, body: stores }),
    'GET /countries': () => ({ status: 200, body: countries }),
    'GET /inventory/example_inventory': () => ({
      status: 200,
      body: [
        {
          product_type: 'iphone16pro',
          inventory: [
            { store_id: 'R075', product_count: 1 },
            { store_id: 'R092', product_count: 3 },
          ],
        },
        { product_type: 'ipadair11cellular', inventory: [{ store_id: 'R075', product_count: 2 }] },
      ],
    }),
    'GET /searches/my_searches': () => ({ status: 200, body: [] }),
  });

describe('home route', () => {
  it('shows a spinner while login state loads', () => {
    renderWithApp([{ path: '/', element: <HomeRoute /> }], {
      auth: createFakeAuth({ isLoading: true }),
    });
    expect(screen.getByRole('status')).toBeTruthy();
  });

  it('shows the landing page signed out, with example inventory', async () => {
    renderWithApp([{ path: '/', element: <HomeRoute /> }], {
      auth: createFakeAuth({ isAuthenticated: false, user: null }),
      api: catalogApi(),
    });
    expect(
      await screen.findByRole('heading', {
        name: 'Stop waiting weeks for Apple products to ship.',
      }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign up' })).toHaveProperty('disabled', true);
    expect(await screen.findByText('London, GB')).toBeTruthy();
    expect(screen.getByText('3 types')).toBeTruthy();
    expect(screen.getByText('1 type')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'iPhone 16 Pro' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    fireEvent.click(screen.getByRole('button', { name: 'iPad Air 11-inch (Wi-Fi + Cellular)' }));
    expect(await screen.findByText('2 types')).toBeTruthy();
    expect(screen.queryByText('London, GB')).toBeNull();
    expect(screen.getByText('United Kingdom')).toBeTruthy();
  });

  it('shows four store cards first and the rest behind "Show all"', async () => {
    const manyStores = Array.from({ length: 6 }, (_, index) => ({
      ...stores[0],
      store_id: `R10${index}`,
      store_name: `Store ${index + 1}`,
    }));
    renderWithApp([{ path: '/', element: <HomeRoute /> }], {
      auth: createFakeAuth({ isAuthenticated: false, user: null }),
      api: createFakeApi({
        'GET /products': () => ({ status: 200, body: products }),
        'GET /stores': () => ({ status: 200, body: manyStores }),
        'GET /countries': () => ({ status: 200, body: countries }),
        'GET /inventory/example_inventory': () => ({
          status: 200,
          body: [
            {
              product_type: 'iphone16pro',
              inventory: manyStores.map((store) => ({
                store_id: store.store_id,
                product_count: 1,
              })),
            },
          ],
        }),
      }),
    });
    const cardNames = () =>
      screen.queryAllByRole('heading', { level: 3, name: /^Store / }).map((h) => h.textContent);
    const showAll = await screen.findByRole('button', { name: 'Show all 6 stores' });
    expect(cardNames()).toEqual(['Store 1', 'Store 2', 'Store 3', 'Store 4']);
    expect(showAll.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(showAll);
    expect(cardNames()).toHaveLength(6);
    const showFewer = screen.getByRole('button', { name: 'Show fewer stores' });
    expect(showFewer.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(showFewer);
    expect(cardNames()).toHaveLength(4);
  });

  it('offers no "Show all" when every card already shows', async () => {
    renderWithApp([{ path: '/', element: <HomeRoute /> }], {
      auth: createFakeAuth({ isAuthenticated: false, user: null }),
      api: catalogApi(),
    });
    expect(await screen.findByText('London, GB')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Show all/ })).toBeNull();
  });

  it('shows My Searches signed in', async () => {
    renderWithApp([{ path: '/', element: <HomeRoute /> }], { api: catalogApi() });
    expect(await screen.findByRole('heading', { name: 'My Searches' })).toBeTruthy();
    expect(await screen.findByText('Add a search!')).toBeTruthy();
  });
});

describe('pricing', () => {
  it('defaults to annual prices and remembers monthly in the prefixed cookie', () => {
    renderWithApp([{ path: '/plans', element: <PlansRoute /> }], { path: '/plans' });
    expect(screen.getByText('$2.50')).toBeTruthy();
    expect(screen.getByText('Save 64%')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Monthly'));
    expect(screen.getByText('$7')).toBeTruthy();
    expect(Cookies.get('sw_pricing_isBilledAnnually')).toBe('false');
  });

  it('leaves no empty savings line on the free card', () => {
    renderWithApp([{ path: '/plans', element: <PlansRoute /> }], { path: '/plans' });
    const good = screen.getByTestId('plan-good');
    expect(good.textContent).not.toMatch(/Save/);
    expect([...good.querySelectorAll('p')].filter((p) => p.textContent === '')).toEqual([]);
    expect(screen.getByTestId('plan-better').textContent).toContain('Save 64%');
  });

  it('reads the cookie on mount and keeps checkout disabled without billing', () => {
    Cookies.set('sw_pricing_isBilledAnnually', 'false');
    renderWithApp([{ path: '/plans', element: <PlansRoute /> }], {
      path: '/plans',
      config: { ...testConfig, isBillingConfigured: false },
    });
    expect(screen.getByText('$10')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Get Premium' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Get Better' })).toHaveProperty('disabled', true);
  });

  it('enables checkout with billing and sends the signed-in user to the annual Checkout page', async () => {
    const requests: unknown[] = [];
    const api = createFakeApi({
      'POST /account/create-checkout-session': ({ body }) => {
        requests.push(body);
        return { status: 200, body: { checkout_url: 'https://checkout.stripe.test/c/pay/cs_1' } };
      },
    });
    const host = {
      kind: 'web' as const,
      openExternal: vi.fn(() => Promise.resolve()),
      showNotification: vi.fn(() => Promise.resolve()),
    };
    renderWithApp([{ path: '/plans', element: <PlansRoute /> }], {
      path: '/plans',
      config: { ...testConfig, isBillingConfigured: true },
      api,
      host,
    });
    expect(screen.queryByText('Online checkout is not available right now.')).toBeNull();
    const premium = screen.getByRole('button', { name: 'Get Premium' });
    expect(premium).toHaveProperty('disabled', false);
    fireEvent.click(premium);
    await waitFor(() =>
      expect(host.openExternal).toHaveBeenCalledWith('https://checkout.stripe.test/c/pay/cs_1'),
    );
    expect(requests).toEqual([{ lookup_key: 'iw-premium-yearly', auth0_id: 'user-1' }]);
  });

  it('lets a signed-out visitor check out monthly without logging in first', async () => {
    Cookies.set('sw_pricing_isBilledAnnually', 'false');
    const requests: unknown[] = [];
    const api = createFakeApi({
      'POST /account/create-checkout-session': ({ body }) => {
        requests.push(body);
        return { status: 200, body: { checkout_url: 'https://checkout.stripe.test/c/pay/cs_2' } };
      },
    });
    const auth = createFakeAuth({ isAuthenticated: false, user: null });
    renderWithApp([{ path: '/plans', element: <PlansRoute /> }], {
      path: '/plans',
      config: { ...testConfig, isBillingConfigured: true },
      api,
      auth,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Get Better' }));
    await waitFor(() =>
      expect(requests).toEqual([{ lookup_key: 'iw-basic-monthly', auth0_id: '' }]),
    );
    expect(auth.login).not.toHaveBeenCalled();
  });
});
