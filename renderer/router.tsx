import { createBrowserRouter, Outlet, type RouteObject } from 'react-router-dom';
import { RequireAuth } from './auth/require-auth.tsx';
import { loadChunk } from './components/chunk-loading.ts';
import { RouteErrorScreen } from './components/route-error-screen.tsx';
import { SiteLayout } from './components/site-layout.tsx';
import { SpinnerScreen } from './components/spinner-screen.tsx';

/** Wraps a screen export as a react-router lazy route module (with the chunk timeout). */
function lazyScreen<T>(load: () => Promise<T>, pick: (module: T) => React.ComponentType) {
  return async () => ({ Component: pick(await loadChunk(load)) });
}

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
    Component: SiteLayout,
    hydrateFallbackElement: <SpinnerScreen />,
    children: [
      {
        ErrorBoundary: RouteErrorScreen,
        children: [
          {
            index: true,
            lazy: lazyScreen(
              () => import('./routes/home.tsx'),
              (m) => m.HomeRoute,
            ),
          },
          {
            Component: SearchesOutlet,
            children: [
              {
                path: 'search/:searchId',
                lazy: lazyScreen(
                  () => import('./routes/search-detail.tsx'),
                  (m) => m.SearchDetailRoute,
                ),
              },
            ],
          },
          {
            path: 'settings',
            lazy: lazyScreen(
              () => import('./routes/desktop-settings.tsx'),
              (m) => m.DesktopSettingsRoute,
            ),
          },
          {
            Component: SignedInOutlet,
            children: [
              {
                path: 'account',
                lazy: lazyScreen(
                  () => import('./routes/account.tsx'),
                  (m) => m.AccountRoute,
                ),
              },
            ],
          },
          {
            path: 'plans',
            lazy: lazyScreen(
              () => import('./routes/plans.tsx'),
              (m) => m.PlansRoute,
            ),
          },
          {
            path: 'download',
            lazy: lazyScreen(
              () => import('./routes/download.tsx'),
              (m) => m.DownloadRoute,
            ),
          },
          {
            path: 'callback',
            lazy: lazyScreen(
              () => import('./routes/callback.tsx'),
              (m) => m.CallbackRoute,
            ),
          },
          {
            path: 'checkout_complete',
            lazy: lazyScreen(
              () => import('./routes/checkout-complete.tsx'),
              (m) => m.CheckoutCompleteRoute,
            ),
          },
          {
            path: 'checkout_cancelled',
            lazy: lazyScreen(
              () => import('./routes/checkout-cancelled.tsx'),
              (m) => m.CheckoutCancelledRoute,
            ),
          },
          {
            path: 'error',
            lazy: lazyScreen(
              () => import('./routes/error.tsx'),
              (m) => m.ErrorRoute,
            ),
          },
          {
            path: 'force_login',
            lazy: lazyScreen(
              () => import('./routes/force-login.tsx'),
              (m) => m.ForceLoginRoute,
            ),
          },
          {
            path: 'new-iphone',
            lazy: lazyScreen(
              () => import('./routes/new-iphone.tsx'),
              (m) => m.NewIphoneRoute,
            ),
          },
          {
            path: 'support',
            lazy: lazyScreen(
              () => import('./routes/support.tsx'),
              (m) => m.SupportRoute,
            ),
          },
          {
            path: 'tos',
            lazy: lazyScreen(
              () => import('./routes/legal.tsx'),
              (m) => m.TermsRoute,
            ),
          },
          {
            path: 'privacy-policy',
            lazy: lazyScreen(
              () => import('./routes/legal.tsx'),
              (m) => m.PrivacyRoute,
            ),
          },
          {
            path: 'refund-policy',
            lazy: lazyScreen(
              () => import('./routes/legal.tsx'),
              (m) => m.RefundRoute,
            ),
          },
          {
            path: '*',
            lazy: lazyScreen(
              () => import('./routes/not-found.tsx'),
              (m) => m.NotFoundRoute,
            ),
          },
        ],
      },
    ],
  },
];

/** The router App renders (a browser router on the website and in the app). */
export type AppRouter = ReturnType<typeof createBrowserRouter>;

/** The browser router of the website. */
export function createAppRouter(): AppRouter {
  return createBrowserRouter(appRoutes);
}

/** Resolves once the router has loaded the code of its first location's routes. */
export function waitForRouter(router: AppRouter): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) {
      resolve();
      return;
    }
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}
