import Container from 'react-bootstrap/Container';
import NavbarBrand from 'react-bootstrap/NavbarBrand';
import NavbarCollapse from 'react-bootstrap/NavbarCollapse';
import NavbarContext from 'react-bootstrap/NavbarContext';
import NavbarToggle from 'react-bootstrap/NavbarToggle';
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { useAuth } from '#renderer/auth/auth-context.tsx';
import { LoginLink } from '#renderer/auth/login-link.tsx';
import { useHost } from '#renderer/host/host-context.tsx';
import { loadChunk } from './chunk-loading.ts';

const AccountMenu = lazy(() =>
  loadChunk(() => import('#renderer/components/account/account-menu.tsx')).then((module) => ({
    default: module.AccountMenu,
  })),
);

// Navbar links: [path, label] (spec: navigation bar).
const SITE_LINKS: readonly [string, string][] = [
  ['/download', 'Download for macOS'],
  ['/plans', 'Pricing'],
  ['/support', 'Support'],
  ['/account', 'My Account'],
];

// In the macOS app: no download or pricing pages (it is the download); its own settings.
const APP_LINKS: readonly [string, string][] = [
  ['/', 'My Searches'],
  ['/settings', 'Settings'],
  ['/support', 'Support'],
];

/** The site's navigation bar; it collapses into a toggle below the small breakpoint. */
export function SiteNavbar() {
  const auth = useAuth();
  const host = useHost();
  const links =
    host.kind === 'desktop'
      ? auth.isAuthenticated
        ? [...APP_LINKS, ['/account', 'My Account'] as [string, string]]
        : APP_LINKS
      : SITE_LINKS;
  // Controlled so that choosing a link closes the collapsed menu on small screens.
  const [isExpanded, setIsExpanded] = useState(false);
  const collapse = () => setIsExpanded(false);
  // react-bootstrap's Navbar also bundles its offcanvas variant (and the modal code behind it);
  // its parts with their shared context give the same collapsing bar without that weight.
  const navbarContext = useMemo(
    () => ({
      onToggle: () => setIsExpanded((value) => !value),
      bsPrefix: 'navbar',
      expanded: isExpanded,
      expand: 'sm',
    }),
    [isExpanded],
  );
  const startLogout = () => {
    auth.logout().catch((error: unknown) => console.error('Logout failed', error));
  };
  return (
    <NavbarContext.Provider value={navbarContext}>
      <nav className="navbar navbar-expand-sm bg-dark" data-bs-theme="dark" aria-label="Main">
        <Container>
          <NavbarBrand as={Link} to="/" onClick={collapse}>
            Shelfwatch
          </NavbarBrand>
          <NavbarToggle aria-controls="site-navbar-links" />
          <NavbarCollapse id="site-navbar-links">
            {/* Plain Bootstrap nav classes: react-bootstrap's Nav adds ~3 KB to every page for
              keyboard roving the spec doesn't need in a link list. */}
            <div className="navbar-nav me-auto">
              {links.map(([to, label]) => (
                <NavLink key={to} to={to} end className="nav-link" onClick={collapse}>
                  {label}
                </NavLink>
              ))}
            </div>
            <div className="navbar-nav">
              {auth.isLoading ? null : auth.isAuthenticated ? (
                <Suspense fallback={null}>
                  <AccountMenu onLogout={startLogout} />
                </Suspense>
              ) : (
                // A real link, so a click before the pre-rendered page hydrates still reaches the
                // sign-in page. The app's window is never pre-rendered: there every plain click
                // is handled in place, and the window's guard refuses the new-window clicks.
                <LoginLink className="nav-link">Login</LoginLink>
              )}
            </div>
          </NavbarCollapse>
        </Container>
      </nav>
    </NavbarContext.Provider>
  );
}
