import type { AxiosAdapter } from 'axios';
import { createContext, useContext } from 'react';
import type { DesktopHost } from '#shared/bridge.ts';

/**
 * What the app knows about reaching /v2, without any client library: the signed-in screens
 * turn it into axios clients (api-client.ts, loaded with them), the public pages read with
 * fetch (public-reads.ts). So a visitor's first page carries neither axios nor its set-up.
 */
export type ApiSettings = {
  apiBaseUrl: string;
  getAccessToken: () => Promise<string>;
  /** In the macOS app: requests go through its main process, which adds the token. */
  desktop?: DesktopHost;
  /** Sends the axios clients' requests instead of the browser (tests answer with it). */
  adapter?: AxiosAdapter;
  /** The fetch public reads use; the browser's when absent (tests answer with their own). */
  fetch?: typeof fetch;
};

/** How the running app reaches the API. */
export const ApiContext = createContext<ApiSettings | null>(null);

/** The API settings; throws outside the provider (a programming error). */
export function useApiSettings(): ApiSettings {
  const settings = useContext(ApiContext);
  if (settings === null) {
    throw new Error('useApiSettings used outside ApiContext');
  }
  return settings;
}
