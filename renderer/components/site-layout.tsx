import { Outlet, ScrollRestoration } from 'react-router-dom';
import { DesktopLoginBanner } from './desktop-login-banner.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteNavbar } from './site-navbar.tsx';
import { SupportBanner } from './support-banner.tsx';

/** The layout shared at /: navbar, support banner, the screen, footer. */
export function SiteLayout() {
  return (
    <div className="d-flex flex-column min-vh-100">
      <SiteNavbar />
      <DesktopLoginBanner />
      <SupportBanner />
      <main className="container flex-grow-1 py-4 site-main" id="main">
        <Outlet />
      </main>
      <SiteFooter />
      <ScrollRestoration />
    </div>
  );
}
