import axios, { isAxiosError, type AxiosAdapter, type AxiosInstance } from 'axios';
import { UnexpectedRequestError } from './api-errors.ts';
import { useApiSettings, type ApiSettings } from './api-context.ts';
import { createBridgeAdapter } from './bridge-adapter.ts';

/** Two clients on the same /v2 base: one anonymous, one sending the bearer token. */
export type ApiClients = { publicApi: AxiosInstance; privateApi: AxiosInstance };

/** Logs HTTP failures and rethrows them; other failures become the spec's generic error. */
function rejectRequest(error: unknown): Promise<never> {
  if (isAxiosError(error) && error.response !== undefined) {
    console.error(
      `API ${error.config?.method?.toUpperCase() ?? ''} ${error.config?.url ?? ''} failed`,
      error.response.status,
    );
    return Promise.reject(error);
  }
  console.error('API request failed without an answer', error);
  return Promise.reject(new UnexpectedRequestError(error));
}

/**
 * Builds the /v2 clients: no timeout, success for 200 to 299 (axios defaults, per spec). With
 * an adapter (the macOS app's bridge), requests go through it and its host adds the token.
 */
export function createApiClients(
  apiBaseUrl: string,
  getAccessToken: () => Promise<string>,
  adapter?: AxiosAdapter,
): ApiClients {
  const baseURL = `${apiBaseUrl.replace(/\/$/, '')}/v2`;
  const headers = { Accept: 'application/json' };
  const publicApi = axios.create({ baseURL, headers, adapter });
  const privateApi = axios.create({ baseURL, headers, adapter });
  if (adapter === undefined) {
    privateApi.interceptors.request.use(async (request) => {
      request.headers.set('Authorization', `Bearer ${await getAccessToken()}`);
      return request;
    });
  }
  publicApi.interceptors.response.use(undefined, rejectRequest);
  privateApi.interceptors.response.use(undefined, rejectRequest);
  return { publicApi, privateApi };
}

// One pair of clients per settings object: every screen shares them, as it shares the settings.
const clientsBySettings = new WeakMap<ApiSettings, ApiClients>();

/**
 * The API clients of the running app, made on first use: this module (and axios with it) is
 * loaded by the screens that call the API, not by the pages every visitor sees.
 */
export function useApi(): ApiClients {
  return getApiClients(useApiSettings());
}

/** The clients for `settings`, made once (for code outside components, e.g. after a click). */
export function getApiClients(settings: ApiSettings): ApiClients {
  let clients = clientsBySettings.get(settings);
  if (clients === undefined) {
    const adapter =
      settings.adapter ??
      (settings.desktop === undefined ? undefined : createBridgeAdapter(settings.desktop));
    clients = createApiClients(settings.apiBaseUrl, settings.getAccessToken, adapter);
    clientsBySettings.set(settings, clients);
  }
  return clients;
}
