// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import Cookies from 'js-cookie';
import { afterEach, describe, expect, it } from 'vitest';
import { HomeRoute } from '#renderer/routes/home.tsx';
import { PlansRoute } from '#renderer/routes/plans.tsx';
import { useBillingPeriodStore } from '#renderer/state/billing-period-store.ts';
import { countries, products, stores } from './fixtures.ts';
import { createFakeApi, createFakeAuth, renderWithApp, testConfig } from './test-harness.tsx';

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
});
