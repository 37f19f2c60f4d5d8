// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LOGIN_PATH } from '#renderer/auth/login-link.tsx';
import { SiteLayout } from '#renderer/components/layout/site-layout.tsx';
import { createFakeAuth, renderWithApp, testConfig } from '#tests/renderer/test-harness.tsx';

afterEach(cleanup);

/** Renders the shared layout at / with a child screen. */
function renderShell(
  auth = createFakeAuth({ isAuthenticated: false, user: null }),
  config = testConfig,
) {
  return renderWithApp(
    [{ path: '/', element: <SiteLayout />, children: [{ index: true, element: <p>screen</p> }] }],
    {
      auth,
      config,
    },
  );
}

describe('site shell', () => {
  it('has the navbar links and a Login that returns to /', () => {
    const auth = createFakeAuth({ isAuthenticated: false, user: null });
    renderShell(auth);
    const nav = screen.getAllByRole('navigation')[0];
    const links = within(nav)
      .getAllByRole('link')
      .map((link) => [link.textContent, link.getAttribute('href')]);
    expect(links).toEqual([
      ['Shelfwatch', '/'],
      ['Download for macOS', '/download'],
      ['Pricing', '/plans'],
      ['Support', '/support'],
      ['My Account', '/account'],
      ['Login', LOGIN_PATH],
    ]);
    fireEvent.click(screen.getByRole('link', { name: 'Login' }));
    expect(auth.login).toHaveBeenCalledWith('/');
  });

  it('the navbar Login is a link to the sign-in page that works before scripts load', () => {
    const auth = createFakeAuth({ isAuthenticated: false, user: null });
    renderShell(auth);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const login = within(nav).getByRole('link', { name: 'Login' });
    // The href is what a click before hydration follows; /force_login starts the login itself.
    expect(login.getAttribute('href')).toBe('/force_login');
    expect(login.className).toBe('nav-link');
    expect(within(nav).queryByRole('button', { name: 'Login' })).toBeNull();
    // Hydrated, a plain click starts the login in place instead of loading that page.
    expect(fireEvent.click(login)).toBe(false);
    expect(auth.login).toHaveBeenCalledWith('/');
  });

  it('shows the Account menu instead of Login when signed in', async () => {
    renderShell(createFakeAuth());
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'Account' }));
    expect(await screen.findByText('Log out')).toBeTruthy();
  });

  it('shows the red support banner with the configured date and address', () => {
    renderShell();
    const banner = screen.getByRole('region', { name: 'Support notice' });
    expect(banner.className).toContain('bg-danger');
    expect(banner.textContent).toContain('support for the product ends on September 8th, 2025');
    expect(within(banner).getByRole('link').getAttribute('href')).toBe(
      'mailto:support@shelfwatch.app',
    );
  });

  it('has the 2024 footer with maker, support mail and legal links', () => {
    renderShell();
    const footer = screen.getByRole('contentinfo');
    expect(footer.textContent).toContain('© 2024');
    expect(within(footer).getByRole('link', { name: 'Small Studio' }).getAttribute('href')).toBe(
      'https://studio.example',
    );
    const hrefs = within(footer)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    expect(hrefs).toEqual(
      expect.arrayContaining([
        'mailto:support@shelfwatch.app',
        '/tos',
        '/privacy-policy',
        '/refund-policy',
      ]),
    );
  });
});
