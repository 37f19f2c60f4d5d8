import { QueryClientProvider } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { BrowserRouter, useNavigate } from 'react-router-dom';
import type { DesktopHost } from '#shared/bridge.ts';
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
import { AppRoutes } from './router.tsx';

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

/** The app's main-process events, navigating with the router (notification clicks). */
function DesktopEventsInRouter({ desktop }: { desktop: DesktopHost }) {
  const navigate = useNavigate();
  const navigateTo = useMemo(
    () => (path: string) => {
      void navigate(path);
    },
    [navigate],
  );
  return <DesktopEvents desktop={desktop} navigate={navigateTo} />;
}

/** The website, or the macOS app's window: config, host, login, API, query cache and routes. */
export function App({ config }: { config: AppConfig }) {
  const [queryClient] = useState(createQueryClient);
  const [host] = useState(() => readDesktopBridge() ?? createWebBridge());
  const routes = (
    <ApiProvider apiBaseUrl={config.apiBaseUrl}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          {host.desktop === undefined ? null : <DesktopEventsInRouter desktop={host.desktop} />}
          <AppRoutes />
        </BrowserRouter>
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
