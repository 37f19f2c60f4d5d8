import { useLayoutEffect } from 'react';
import { NavigationType, Outlet, useLocation, useNavigationType } from 'react-router-dom';
import { DesktopLoginBanner } from '#renderer/components/desktop/desktop-login-banner.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteNavbar } from './site-navbar.tsx';
import { SupportBanner } from './support-banner.tsx';

/**
 * A new page starts at its top; back and forward leave the position to the browser, which
 * restores it (history.scrollRestoration is "auto").
 */
function ScrollToTop() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  useLayoutEffect(() => {
    if (navigationType !== NavigationType.Pop) window.scrollTo(0, 0);
  }, [pathname, navigationType]);
  return null;
}

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
      <ScrollToTop />
    </div>
  );
}
