// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CheckoutCancelledRoute } from '#renderer/routes/checkout-cancelled.tsx';
import {
  CheckoutCompleteRoute,
  decideCheckoutStep,
  INVALID_ACCOUNT_CREATED_TEXT,
} from '#renderer/routes/checkout-complete.tsx';
import { ErrorRoute } from '#renderer/routes/error.tsx';
import {
  createFakeApi,
  createFakeAuth,
  renderWithApp,
  type FakeRoute,
} from '#tests/renderer/test-harness.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('error page', () => {
  it('shows error_message', () => {
    renderWithApp([{ path: '/error', element: <ErrorRoute /> }], {
      path: '/error?error_message=Payment%20declined',
    });
    expect(screen.getByRole('alert').textContent).toBe('Payment declined');
    expect(screen.getByRole('link', { name: 'Go to My Account' }).getAttribute('href')).toBe(
      '/account',
    );
    expect(document.title).toBe('Shelfwatch error | Shelfwatch');
  });

  it('falls back to the unknown-error text', () => {
    renderWithApp([{ path: '/error', element: <ErrorRoute /> }], { path: '/error' });
    expect(screen.getByRole('alert').textContent).toBe('An unknown error occurred.');
  });
});

describe('checkout cancelled', () => {
  it('shows only "Checkout failed..."', () => {
    const { container } = renderWithApp(
      [{ path: '/checkout_cancelled', element: <CheckoutCancelledRoute /> }],
      {
        path: '/checkout_cancelled',
      },
    );
    expect(container.textContent).toBe('Checkout failed...');
  });
});

describe('checkout complete', () => {
  it('decides by action', () => {
    expect(decideCheckoutStep({ action: 'ACCOUNT_CREATED', user_email: 'a@b.c' })).toEqual({
      kind: 'finish-setup',
      email: 'a@b.c',
    });
    expect(decideCheckoutStep({ action: 'SIGN_IN' })).toEqual({ kind: 'login' });
    expect(decideCheckoutStep({ action: 'SOMETHING_ELSE' })).toEqual({ kind: 'logout' });
  });

  it('logs an ACCOUNT_CREATED without user_email as invalid and logs out', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(decideCheckoutStep({ action: 'ACCOUNT_CREATED' })).toEqual({ kind: 'logout' });
    expect(log).toHaveBeenCalledWith(INVALID_ACCOUNT_CREATED_TEXT);
    expect(INVALID_ACCOUNT_CREATED_TEXT).toBe('invalid server response for ACCOUNT_CREATED event');
  });

  /** Renders /checkout_complete with a post_checkout answer. */
  function renderCheckout(sessionId: string, answer: FakeRoute) {
    const auth = createFakeAuth({ isAuthenticated: false, user: null });
    const api = createFakeApi({ 'POST /account/post_checkout': answer });
    renderWithApp([{ path: '/checkout_complete', element: <CheckoutCompleteRoute /> }], {
      path: `/checkout_complete?session_id=${sessionId}`,
      api,
      auth,
    });
    return auth;
  }

  it('shows the finish-setup card for ACCOUNT_CREATED', async () => {
    renderCheckout('cs_1', () => ({
      status: 200,
      body: { action: 'ACCOUNT_CREATED', user_email: 'new@example.com' },
    }));
    expect(screen.getByRole('status')).toBeTruthy();
    expect(await screen.findByText('Finish setting up your Shelfwatch account')).toBeTruthy();
    expect(screen.getByText('new@example.com')).toBeTruthy();
  });

  it('starts a login returning to /account for SIGN_IN', async () => {
    const auth = renderCheckout('cs_2', () => ({
      status: 200,
      body: { action: 'SIGN_IN', user_email: 'x@example.com' },
    }));
    await waitFor(() => expect(auth.login).toHaveBeenCalledWith('/account'));
  });

  it('logs out when the request fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const auth = renderCheckout('cs_3', () => ({ status: 500, body: {} }));
    await waitFor(() => expect(auth.logout).toHaveBeenCalled());
  });
});
