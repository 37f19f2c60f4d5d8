// Build-time entry (vite.config.ts renders it in Node after the client build): the landing
// page as HTML, so a visitor's first paint needs no JavaScript. It renders the same routes
// and providers as App does in the browser, signed out, with marker settings the server
// fills in (shared/domain/prerendered-page.ts); main.tsx then hydrates this HTML.
import { QueryClientProvider } from '@tanstack/react-query';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import type { AppConfig } from '#shared/api/app-config.ts';
import { PRERENDER_SETTINGS } from '#shared/domain/prerendered-page.ts';
import { ApiContext, type ApiSettings } from '../api/api-context.ts';
import { createQueryClient } from '../api/query-client.ts';
import { AuthContext, type AuthState } from '../auth/auth-context.tsx';
import { AppConfigContext } from '../boot/app-config-context.tsx';
import { HostContext } from '../host/host-context.tsx';
import { createWebBridge } from '../host/web-bridge.ts';
import { AppRoutes } from '../router.tsx';
import { preloadLandingScreen } from '../routes/home.tsx';

const notInBuild = () => Promise.reject(new Error('Not available while pre-rendering'));

/** A visitor: signed out, login state known (no login hint), nothing to load. */
const SIGNED_OUT: AuthState = {
  isLoading: false,
  isAuthenticated: false,
  user: null,
  login: notInBuild,
  logout: notInBuild,
  getAccessToken: notInBuild,
  completeLogin: notInBuild,
};

/** Renders `/` signed out to HTML (the inside of #root) with marker settings. */
export async function renderLandingPage(): Promise<string> {
  const config: AppConfig = {
    auth: { domain: 'https://login.invalid', clientId: 'prerender', audience: '' },
    apiBaseUrl: '',
    ...PRERENDER_SETTINGS,
    isBillingConfigured: false,
    macDownloadUrl: null,
    cookiePrefix: '',
  };
  const api: ApiSettings = { apiBaseUrl: '', getAccessToken: notInBuild, fetch: notInBuild };
  // Loaded first, as main.tsx does before hydrating, so both render the landing at once.
  await preloadLandingScreen();
  const { prelude } = await prerender(
    <AppConfigContext.Provider value={config}>
      <HostContext.Provider value={createWebBridge()}>
        <AuthContext.Provider value={SIGNED_OUT}>
          <ApiContext.Provider value={api}>
            <QueryClientProvider client={createQueryClient()}>
              <StaticRouter location="/">
                <AppRoutes />
              </StaticRouter>
            </QueryClientProvider>
          </ApiContext.Provider>
        </AuthContext.Provider>
      </HostContext.Provider>
    </AppConfigContext.Provider>,
  );
  return await new Response(prelude).text();
}
