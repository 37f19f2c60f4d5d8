import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Outlet, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import { RequireAuth } from './auth/require-auth.tsx';
import { loadScreenChunk } from '#renderer/components/layout/chunk-loading.ts';
import { RouteErrorScreen } from '#renderer/components/layout/route-error-screen.tsx';
import { SiteLayout } from '#renderer/components/layout/site-layout.tsx';
import { SpinnerScreen } from '#renderer/components/layout/spinner-screen.tsx';
import { HomeRoute } from './routes/home.tsx';

// Declarative routing (<BrowserRouter> and useRoutes), not a data router: no route here has a
// loader or action, and the data router's machinery was 15 KB gzipped of every page. Screens
// load lazily with the spec's 120 s chunk timeout; ScreenFrame shows a spinner meanwhile and
// RouteErrorScreen when the code (or the screen) fails.

/** A screen export as a lazily loaded component: its code and the site's stylesheet first. */
export function lazyScreen<T>(
  load: () => Promise<T>,
  pick: (module: T) => ComponentType,
): ComponentType {
  return lazy(() => loadScreenChunk(load).then((module) => ({ default: pick(module) })));
}

/** Catches what a screen throws (a chunk that failed to load above all) and shows it. */
class ScreenErrorBoundary extends Component<
  { children: ReactNode },
  { error: unknown; hasError: boolean }
> {
  state = { error: undefined as unknown, hasError: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, hasError: true };
  }

  render() {
    return this.state.hasError ? (
      <RouteErrorScreen error={this.state.error} />
    ) : (
      this.props.children
    );
  }
}

/**
 * Around every screen: its error boundary (a new one per path, so moving on clears an error)
 * and a spinner while its code loads.
 */
export function ScreenFrame() {
  const { pathname } = useLocation();
  return (
    <ScreenErrorBoundary key={pathname}>
      <Suspense fallback={<SpinnerScreen />}>
        <Outlet />
      </Suspense>
    </ScreenErrorBoundary>
  );
}

const SearchDetailRoute = lazyScreen(
  () => import('./routes/search-detail.tsx'),
  (m) => m.SearchDetailRoute,
);
const DesktopSettingsRoute = lazyScreen(
  () => import('./routes/desktop-settings.tsx'),
  (m) => m.DesktopSettingsRoute,
);
const AccountRoute = lazyScreen(
  () => import('./routes/account.tsx'),
  (m) => m.AccountRoute,
);
const PlansRoute = lazyScreen(
  () => import('./routes/plans.tsx'),
  (m) => m.PlansRoute,
);
const DownloadRoute = lazyScreen(
  () => import('./routes/download.tsx'),
  (m) => m.DownloadRoute,
);
const CallbackRoute = lazyScreen(
  () => import('./routes/callback.tsx'),
  (m) => m.CallbackRoute,
);
const CheckoutCompleteRoute = lazyScreen(
  () => import('./routes/checkout-complete.tsx'),
  (m) => m.CheckoutCompleteRoute,
);
const CheckoutCancelledRoute = lazyScreen(
  () => import('./routes/checkout-cancelled.tsx'),
  (m) => m.CheckoutCancelledRoute,
);
const ErrorRoute = lazyScreen(
  () => import('./routes/error.tsx'),
  (m) => m.ErrorRoute,
);
const ForceLoginRoute = lazyScreen(
  () => import('./routes/force-login.tsx'),
  (m) => m.ForceLoginRoute,
);
const NewIphoneRoute = lazyScreen(
  () => import('./routes/new-iphone.tsx'),
  (m) => m.NewIphoneRoute,
);
const SupportRoute = lazyScreen(
  () => import('./routes/support.tsx'),
  (m) => m.SupportRoute,
);
const TermsRoute = lazyScreen(
  () => import('./routes/legal.tsx'),
  (m) => m.TermsRoute,
);
const PrivacyRoute = lazyScreen(
  () => import('./routes/legal.tsx'),
  (m) => m.PrivacyRoute,
);
const RefundRoute = lazyScreen(
  () => import('./routes/legal.tsx'),
  (m) => m.RefundRoute,
);
const WebhookDocsRoute = lazyScreen(
  () => import('./routes/legal.tsx'),
  (m) => m.WebhookDocsRoute,
);
const StatusRoute = lazyScreen(
  () => import('./routes/status.tsx'),
  (m) => m.StatusRoute,
);
const NotFoundRoute = lazyScreen(
  () => import('./routes/not-found.tsx'),
  (m) => m.NotFoundRoute,
);

/** Guard for the signed-in screens below it. */
function SignedInOutlet() {
  return (
    <RequireAuth>
      <Outlet />
    </RequireAuth>
  );
}

/** Guard for screens of searches: signed in on the website; open in the app (local searches). */
function SearchesOutlet() {
  return (
    <RequireAuth isLocalAllowed>
      <Outlet />
    </RequireAuth>
  );
}

/** Spec section 2: every route, path-based, each screen in its own lazily loaded chunk. */
export const appRoutes: RouteObject[] = [
  {
    path: '/',
    element: <SiteLayout />,
    children: [
      {
        element: <ScreenFrame />,
        children: [
          // Not lazy: / is most visits' first screen, and the pre-rendered page hydrates at once.
          { index: true, element: <HomeRoute /> },
          {
            element: <SearchesOutlet />,
            children: [
              {
                path: 'search/:searchId',
                element: <SearchDetailRoute />,
              },
            ],
          },
          {
            path: 'settings',
            element: <DesktopSettingsRoute />,
          },
          {
            element: <SignedInOutlet />,
            children: [
              {
                path: 'account',
                element: <AccountRoute />,
              },
            ],
          },
          {
            path: 'plans',
            element: <PlansRoute />,
          },
          {
            path: 'download',
            element: <DownloadRoute />,
          },
          {
            path: 'callback',
            element: <CallbackRoute />,
          },
          {
            path: 'checkout_complete',
            element: <CheckoutCompleteRoute />,
          },
          {
            path: 'checkout_cancelled',
            element: <CheckoutCancelledRoute />,
          },
          {
            path: 'error',
            element: <ErrorRoute />,
          },
          {
            path: 'force_login',
            element: <ForceLoginRoute />,
          },
          {
            path: 'new-iphone',
            element: <NewIphoneRoute />,
          },
          {
            path: 'support',
            element: <SupportRoute />,
          },
          {
            path: 'status',
            element: <StatusRoute />,
          },
          {
            path: 'tos',
            element: <TermsRoute />,
          },
          {
            path: 'privacy-policy',
            element: <PrivacyRoute />,
          },
          {
            path: 'refund-policy',
            element: <RefundRoute />,
          },
          {
            path: 'docs/webhooks',
            element: <WebhookDocsRoute />,
          },
          {
            path: '*',
            element: <NotFoundRoute />,
          },
        ],
      },
    ],
  },
];

/** The app's routes, rendered under a <BrowserRouter> (or <StaticRouter> when pre-rendering). */
export function AppRoutes() {
  return useRoutes(appRoutes);
}
