// Build-time entry (vite.config.ts renders it in Node after the client build): the landing
// page as HTML, so a visitor's first paint needs no JavaScript. It renders the same routes
// and providers as App does in the browser, signed out, with marker settings the server
// fills in (shared/domain/prerendered-page.ts); main.tsx then hydrates this HTML.
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import type { AppConfig } from '#shared/api/app-config.ts';
import { storeSchema } from '#shared/api/catalog.ts';
import { COUNTRY_SEEDS, PRODUCT_TYPE_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';
import { PRERENDER_SETTINGS } from '#shared/domain/prerendered-page.ts';
import { ApiContext, type ApiSettings } from '../api/api-context.ts';
import { createQueryClient } from '../api/query-client.ts';
import { queryKeys } from '../api/query-keys.ts';
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
  return await renderLanding(createQueryClient());
}

/**
 * The same page once its example inventory has loaded (a sample from the bundled catalog: more
 * stores than show at first, so the "Show all" button too). Never served: the build picks the
 * CSS to inline from both renders, so that the loaded page needs no other stylesheet.
 */
export async function renderLoadedLandingPage(): Promise<string> {
  const queryClient = createQueryClient();
  seedSampleInventory(queryClient);
  return await renderLanding(queryClient);
}

function seedSampleInventory(queryClient: QueryClient): void {
  const products = PRODUCT_TYPE_SEEDS.slice(0, 3).map((product) => ({
    product_id: product.product_id,
    product_name: product.product_name,
    sold_in: COUNTRY_SEEDS.map((country) => country.country_code),
  }));
  // Parsed as the API's stores are: without the seeds' coordinates.
  const stores = STORE_SEEDS.slice(0, 8).map((store) => storeSchema.parse(store));
  queryClient.setQueryData(queryKeys.products, products);
  queryClient.setQueryData(queryKeys.stores, stores);
  queryClient.setQueryData(queryKeys.countries, COUNTRY_SEEDS);
  queryClient.setQueryData(
    queryKeys.exampleInventory,
    products.map((product) => ({
      product_type: product.product_id,
      inventory: stores.map((store) => ({ store_id: store.store_id, product_count: 1 })),
    })),
  );
}

async function renderLanding(queryClient: QueryClient): Promise<string> {
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
            <QueryClientProvider client={queryClient}>
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
