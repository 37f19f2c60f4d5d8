// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAuth } from '#renderer/auth/auth-context.tsx';
import { AuthProvider } from '#renderer/auth/auth-provider.tsx';
import { CallbackRoute } from '#renderer/routes/callback.tsx';
import { createFakeAuth, renderWithApp, testConfig } from '#tests/renderer/test-harness.tsx';

afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

/** Renders /callback as the browser opened it, with `search` in the address bar. */
function renderCallback(search: string) {
  // The route reads the real address (the login SDK parses window.location), not the router's.
  window.history.replaceState(null, '', `/callback${search}`);
  const auth = createFakeAuth({
    completeLogin: vi.fn(() => Promise.resolve({ returnTo: '/account' })),
  });
  const result = renderWithApp(
    [
      { path: '/', element: <p>home page</p> },
      { path: '/account', element: <p>account page</p> },
      { path: '/error', element: <p>error page</p> },
      { path: '/callback', element: <CallbackRoute /> },
    ],
    { path: `/callback${search}`, auth },
  );
  return { ...result, auth };
}

/** Shows whether the provider still waits for login state. */
function LoadingProbe() {
  const { isLoading } = useAuth();
  return <p>{isLoading ? 'auth loading' : 'auth ready'}</p>;
}

describe('/callback', () => {
  it('goes home, replacing the entry, when opened without login parameters', async () => {
    const { router, auth } = renderCallback('');
    expect(await screen.findByText('home page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(auth.completeLogin).not.toHaveBeenCalled();
    expect(screen.queryByText('error page')).toBeNull();
  });

  it('goes home when only unrelated parameters are present', async () => {
    const { router, auth } = renderCallback('?utm_source=newsletter');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(auth.completeLogin).not.toHaveBeenCalled();
  });

  it('completes a login answer and goes where the login started', async () => {
    const { router, auth } = renderCallback('?code=abc&state=xyz');
    expect(await screen.findByText('account page')).toBeTruthy();
    expect(router.state.historyAction).toBe('REPLACE');
    expect(auth.completeLogin).toHaveBeenCalledWith(
      `${window.location.origin}/callback?code=abc&state=xyz`,
    );
  });

  it('does not leave the login state loading when there is no login answer to complete', () => {
    window.history.replaceState(null, '', '/callback');
    render(
      <AuthProvider config={testConfig}>
        <LoadingProbe />
      </AuthProvider>,
    );
    expect(screen.getByText('auth ready')).toBeTruthy();
  });

  it('waits for the completion when there is a login answer', () => {
    window.history.replaceState(null, '', '/callback?code=abc&state=xyz');
    render(
      <AuthProvider config={testConfig}>
        <LoadingProbe />
      </AuthProvider>,
    );
    expect(screen.getByText('auth loading')).toBeTruthy();
  });
});
