// Electron's net module for the recording fake of Electron (fake-electron.ts). net.fetch is
// Chromium's stack in the app; here it is Node's fetch, with every call reported so a test can
// prove a request went through net.fetch rather than Node's own. No kinder than a Mac waking
// up: net.isOnline() can say true while no request gets through (a link without a route, DNS
// not back yet), and such requests fail as Chromium fails them.
import http from 'node:http';

/** What the fake reports about each net.fetch call. */
export type NetFetchEvent = {
  type: 'net-fetch';
  url: string;
  method: string;
  /** The Authorization header it carried, so a test can look for the token elsewhere. */
  authorization: string | null;
  /** 'answered' with an HTTP status, or 'failed' without a route. */
  outcome: 'answered' | 'failed';
  status?: number;
};

/** Chromium's error when there is no network to send a request on. */
export const NO_ROUTE_ERROR = 'net::ERR_INTERNET_DISCONNECTED';
/** How long Chromium takes to give up on a request with no route (it does not hang). */
const NO_ROUTE_DELAY_MS = 50;

/** Apple's origin as a release asks it. */
const APPLE_ORIGIN = 'https://www.apple.com';

/** Creates the fake net module and its controls. */
export function createFakeNet(options: {
  isOnline: boolean;
  report: (event: NetFetchEvent) => void;
  /**
   * Where requests to Apple go, as a hosts-file entry would send them: a release reads no
   * SHELFWATCH_UPSTREAM_URL, so the harness routes www.apple.com to the simulator instead.
   */
  appleUrl?: string;
}) {
  let isOnline = options.isOnline;
  let noRouteUntil = 0;

  const readAuthorization = (input: string | Request, init?: RequestInit): string | null => {
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((value, key) => headers.set(key, value));
    return headers.get('authorization');
  };

  const net = {
    isOnline: () => isOnline,
    fetch: async (input: string | Request, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input.url;
      const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
      const authorization = readAuthorization(input, init);
      const routed =
        options.appleUrl !== undefined && url.startsWith(APPLE_ORIGIN)
          ? `${options.appleUrl.replace(/\/+$/, '')}${url.slice(APPLE_ORIGIN.length)}`
          : url;
      if (Date.now() < noRouteUntil || !isOnline) {
        await new Promise((resolve) => setTimeout(resolve, NO_ROUTE_DELAY_MS));
        options.report({ type: 'net-fetch', url, method, authorization, outcome: 'failed' });
        throw new Error(NO_ROUTE_ERROR);
      }
      const response = await fetch(routed === url ? input : routed, init);
      options.report({
        type: 'net-fetch',
        url,
        method,
        authorization,
        outcome: 'answered',
        status: response.status,
      });
      return response;
    },
    // electron-updater's requests: Electron's ClientRequest behaves as Node's for plain http.
    request: (requestOptions: http.RequestOptions & { session?: unknown }) => {
      const rest = { ...requestOptions };
      delete rest.session;
      return http.request(rest);
    },
  };
  const control = {
    /** What net.isOnline() answers from now on (false also fails every request). */
    setOnline: (online: boolean) => {
      isOnline = online;
    },
    /** For the next `ms`, isOnline() still says true but no request gets an answer. */
    setNoRouteFor: (ms: number) => {
      noRouteUntil = Date.now() + ms;
    },
  };
  return { net, control };
}
