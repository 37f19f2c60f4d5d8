import {
  AxiosError,
  AxiosHeaders,
  type AxiosAdapter,
  type AxiosResponse,
  type InternalAxiosRequestConfig,
} from 'axios';
import type { DesktopHost } from '#shared/bridge.ts';
import type { ApiRequest } from '#shared/desktop/ipc-contract.ts';

/** The /v2 path of a request, whether axios holds it relative to baseURL or absolute. */
function readApiPath(config: InternalAxiosRequestConfig): string {
  const url = config.url ?? '';
  const absolute = /^https?:\/\//.test(url) ? new URL(url).pathname : url;
  return absolute.replace(/^\/v2(?=\/)/, '');
}

/** The JSON body axios serialised, back as a value for the IPC payload. */
function readBody(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}

/**
 * An axios adapter for the macOS app: requests go to the main process, which adds the
 * signed-in user's token and calls the API, so the token never reaches the window. Answers
 * look like axios's own, so the website's error handling (403, 404...) works unchanged.
 */
export function createBridgeAdapter(desktop: DesktopHost): AxiosAdapter {
  return async (config) => {
    const request: ApiRequest = {
      method: (config.method ?? 'get').toUpperCase() as ApiRequest['method'],
      path: readApiPath(config),
      params: config.params as ApiRequest['params'],
      body: readBody(config.data),
    };
    const result = await desktop.api.request(request);
    if (!result.ok) {
      throw new AxiosError(result.error.message, AxiosError.ERR_NETWORK, config);
    }
    const response: AxiosResponse = {
      data: result.value.body,
      status: result.value.status,
      statusText: String(result.value.status),
      headers: new AxiosHeaders(),
      config,
    };
    if (response.status >= 200 && response.status < 300) return response;
    throw new AxiosError(
      `Request failed with status code ${response.status}`,
      AxiosError.ERR_BAD_REQUEST,
      config,
      null,
      response,
    );
  };
}
