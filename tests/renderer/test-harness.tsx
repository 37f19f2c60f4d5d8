import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import {
  AxiosError,
  type AxiosAdapter,
  type AxiosResponse,
  type InternalAxiosRequestConfig,
} from 'axios';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { vi } from 'vitest';
import type { AppConfig } from '#shared/api/app-config.ts';
import type { HostBridge } from '#shared/bridge.ts';
import { ApiContext, type ApiSettings } from '#renderer/api/api-context.ts';
import { shouldRetryQuery } from '#renderer/api/api-errors.ts';
import { AuthContext, type AuthState } from '#renderer/auth/auth-context.tsx';
import { AppConfigContext } from '#renderer/boot/app-config-context.tsx';
import { HostContext } from '#renderer/host/host-context.tsx';
import { getFreePort } from '#tests/helpers/free-port.ts';

/** An install config for tests. */
export const testConfig: AppConfig = {
  auth: {
    domain: 'http://localhost:4000',
    clientId: 'shelfwatch-web',
    audience: 'https://api.shelfwatch.app',
  },
  apiBaseUrl: 'http://api.test',
  supportEmail: 'support@shelfwatch.app',
  supportEndDate: '2025-09-08',
  maker: { name: 'Small Studio', url: 'https://studio.example' },
  isBillingConfigured: false,
  macDownloadUrl: null,
  cookiePrefix: 'sw_',
};

/** A fake API answer: status and body, or a promise of one (to hold a request open). */
export type FakeAnswer = { status: number; body?: unknown };

/** Handler for one "METHOD /path" under /v2. */
export type FakeRoute = (request: { body: unknown }) => FakeAnswer | Promise<FakeAnswer>;

/** Fake /v2 server: answers the axios clients (an adapter) and public reads (a fetch) alike. */
export function createFakeApi(routes: Record<string, FakeRoute>) {
  const calls: string[] = [];
  const answer = async (key: string, body: unknown): Promise<FakeAnswer> => {
    calls.push(key);
    const route = routes[key];
    return route === undefined
      ? {
          status: 404,
          body: { code: 'not_found', reason: 'Not found.', message: `No fake for ${key}` },
        }
      : await route({ body });
  };
  const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
    const path = (config.url ?? '').replace(/^https?:\/\/[^/]+\/v2/, '');
    const body: unknown = typeof config.data === 'string' ? JSON.parse(config.data) : config.data;
    const fake = await answer(`${(config.method ?? 'get').toUpperCase()} ${path}`, body);
    const response: AxiosResponse = {
      data: fake.body,
      status: fake.status,
      statusText: String(fake.status),
      headers: {},
      config,
    };
    if (fake.status >= 200 && fake.status < 300) {
      return response;
    }
    throw new AxiosError(
      `Request failed with status code ${fake.status}`,
      'ERR_BAD_REQUEST',
      config,
      null,
      response,
    );
  };
  const fakeFetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const fake = await answer(
      `${(init?.method ?? 'GET').toUpperCase()} ${url.pathname.replace(/^\/v2/, '')}`,
      undefined,
    );
    return new Response(fake.body === undefined ? null : JSON.stringify(fake.body), {
      status: fake.status,
      headers: { 'Content-Type': 'application/json' },
    });
  };
  const settings: ApiSettings = {
    apiBaseUrl: testConfig.apiBaseUrl,
    getAccessToken: () => Promise.resolve('test-token'),
    adapter,
    fetch: fakeFetch,
  };
  return { settings, calls };
}

/**
 * API settings whose signed-in calls go to a loopback port nothing listens on, so they fail
 * at the network level as when the user is offline; public reads (the catalog) answer from
 * `publicRoutes`.
 */
export async function createUnreachableApi(publicRoutes: Record<string, FakeRoute> = {}) {
  const closedPort = await getFreePort();
  const fake = createFakeApi(publicRoutes);
  const settings: ApiSettings = {
    apiBaseUrl: `http://127.0.0.1:${closedPort}`,
    getAccessToken: () => Promise.resolve('test-token'),
    fetch: fake.settings.fetch,
  };
  return { settings, calls: fake.calls };
}

/** A signed-in (or not) user whose actions are spies. */
export function createFakeAuth(overrides: Partial<AuthState> = {}): AuthState {
  return {
    isLoading: false,
    isAuthenticated: true,
    user: { sub: 'user-1', email: 'pat@example.com' },
    login: vi.fn(() => Promise.resolve()),
    logout: vi.fn(() => Promise.resolve()),
    getAccessToken: vi.fn(() => Promise.resolve('test-token')),
    completeLogin: vi.fn(() => Promise.resolve({ returnTo: '/' })),
    ...overrides,
  };
}

/** A query client like the app's, without retry delays so failures surface at once. */
export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetryQuery, retryDelay: 0 },
      mutations: { retry: false },
    },
  });
}

/** Renders routes at a path inside every provider the screens need. */
export function renderWithApp(
  routes: RouteObject[],
  options: {
    path?: string;
    api?: ReturnType<typeof createFakeApi>;
    auth?: AuthState;
    config?: AppConfig;
    host?: HostBridge;
    queryClient?: QueryClient;
  } = {},
): RenderResult & { router: ReturnType<typeof createMemoryRouter>; queryClient: QueryClient } {
  const router = createMemoryRouter(routes, { initialEntries: [options.path ?? '/'] });
  const queryClient = options.queryClient ?? createTestQueryClient();
  const api = options.api ?? createFakeApi({});
  const host: HostBridge = options.host ?? {
    kind: 'web',
    openExternal: vi.fn(() => Promise.resolve()),
    showNotification: vi.fn(() => Promise.resolve()),
  };
  const wrap = (children: ReactNode) => (
    <AppConfigContext.Provider value={options.config ?? testConfig}>
      <HostContext.Provider value={host}>
        <AuthContext.Provider value={options.auth ?? createFakeAuth()}>
          <ApiContext.Provider value={api.settings}>
            <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
          </ApiContext.Provider>
        </AuthContext.Provider>
      </HostContext.Provider>
    </AppConfigContext.Provider>
  );
  return { ...render(wrap(<RouterProvider router={router} />)), router, queryClient };
}
