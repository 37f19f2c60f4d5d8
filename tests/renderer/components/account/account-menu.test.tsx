// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SiteLayout } from '#renderer/components/layout/site-layout.tsx';
import { createFakeAuth, renderWithApp } from '#tests/renderer/test-harness.tsx';

afterEach(cleanup);

/** The layout signed in at /, with a screen below it and /account beside it. */
function renderSignedIn() {
  const auth = createFakeAuth();
  const rendered = renderWithApp(
    [
      {
        path: '/',
        element: <SiteLayout />,
        children: [
          { index: true, element: <p>screen</p> },
          { path: 'account', element: <p>account screen</p> },
        ],
      },
    ],
    { auth },
  );
  return { ...rendered, auth };
}

describe('the Account menu', () => {
  it('opens on its button with My Account and Log out, and says whether it is open', async () => {
    const { auth } = renderSignedIn();
    const button = await screen.findByRole('button', { name: 'Account' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    expect(auth.logout).toHaveBeenCalledOnce();
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('goes to /account from My Account and closes', async () => {
    const { router } = renderSignedIn();
    const button = await screen.findByRole('button', { name: 'Account' });
    fireEvent.click(button);
    const menu = document.getElementById(button.getAttribute('aria-controls') ?? '');
    const link = [...(menu?.querySelectorAll('a') ?? [])].find(
      (a) => a.textContent === 'My Account',
    );
    fireEvent.click(link!);
    expect(router.state.location.pathname).toBe('/account');
    expect(await screen.findByText('account screen')).toBeTruthy();
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes on Escape (focus back on its button) and on a click elsewhere', async () => {
    renderSignedIn();
    const button = await screen.findByRole('button', { name: 'Account' });
    fireEvent.click(button);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(screen.getByText('screen'));
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });
});
