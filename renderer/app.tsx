import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import type { AppConfig } from '#shared/api/app-config.ts';
import { ApiContext, type ApiSettings } from './api/api-context.ts';
import { createQueryClient } from './api/query-client.ts';
import { useAuth } from './auth/auth-context.tsx';
import { AuthProvider } from './auth/auth-provider.tsx';
import { DesktopAuthProvider } from './auth/desktop-auth-provider.tsx';
import { AppConfigContext } from './boot/app-config-context.tsx';
import { readDesktopBridge } from './host/desktop-bridge.ts';
import { DesktopEvents } from './host/desktop-events.tsx';
import { HostContext, useHost } from './host/host-context.tsx';
import { createWebBridge } from './host/web-bridge.ts';
import { createAppRouter, type AppRouter } from './router.tsx';

/** How to reach the API with the signed-in user's token (in the app: through its main process). */
function ApiProvider({ apiBaseUrl, children }: { apiBaseUrl: string; children: React.ReactNode }) {
  const { getAccessToken } = useAuth();
  const host = useHost();
  const settings = useMemo<ApiSettings>(
    () => ({ apiBaseUrl, getAccessToken, desktop: host.desktop }),
    [apiBaseUrl, getAccessToken, host],
  );
  return <ApiContext.Provider value={settings}>{children}</ApiContext.Provider>;
}

/** The website, or the macOS app's window: config, host, login, API, query cache and routes. */
export function App({ config, router: readyRouter }: { config: AppConfig; router?: AppRouter }) {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => readyRouter ?? createAppRouter());
  const [host] = useState(() => readDesktopBridge() ?? createWebBridge());
  const navigate = useMemo(
    () => (path: string) => {
      void router.navigate(path);
    },
    [router],
  );
  const routes = (
    <ApiProvider apiBaseUrl={config.apiBaseUrl}>
      <QueryClientProvider client={queryClient}>
        {host.desktop === undefined ? null : (
          <DesktopEvents desktop={host.desktop} navigate={navigate} />
        )}
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ApiProvider>
  );
  return (
    <AppConfigContext.Provider value={config}>
      <HostContext.Provider value={host}>
        {host.desktop === undefined ? (
          <AuthProvider config={config}>{routes}</AuthProvider>
        ) : (
          <DesktopAuthProvider desktop={host.desktop}>{routes}</DesktopAuthProvider>
        )}
      </HostContext.Provider>
    </AppConfigContext.Provider>
  );
}
