// The undici agents behind a process's egress addresses (the direct route and each proxy).
// Kept apart from egress.ts (the token buckets), which the API loads with the planner for its
// status page: only a watcher makes agents, so the API need not load undici (issue 30).
// Each address is also one browser session (shared/upstream/session-warm-up.ts): a visit to
// the country's bag page before its first pickup request, and the cookies that visit set,
// kept in this process's memory per address. A session belongs with the address that opened
// it (Apple's count follows the address and the session, as ENCHIGO measured), so cookies are
// never shared across addresses or processes; only the buckets live in PostgreSQL.
import os from 'node:os';
import { Agent, ProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';
import {
  createSessionWarmUp,
  type CookieFetchLike,
  type WarmUpEvent,
} from '#shared/upstream/session-warm-up.ts';
import type { EgressAddress } from './egress.ts';

/** How this process reaches the upstream. */
export type EgressSettings = {
  /** HTTP(S) proxy URLs, each one more address. */
  proxies: readonly string[];
  /** Also ask directly (one more address). */
  isDirect: boolean;
  /** Offer HTTP/2 (undici's allowH2) where the server speaks it. */
  allowH2: boolean;
  /** Name of the direct route; by default the machine's host name, shared by its processes. */
  directLabel?: string;
  /** Clock of the sessions' ages; Date.now unless set. */
  now?: () => number;
  /** Hears each address's bag-page visits (the doctor prints them). */
  onWarmUp?: (label: string, event: WarmUpEvent) => void;
};

/** The label a proxy URL is shown by: its host and port, never its credentials or path. */
export function labelProxy(proxyUrl: string): string {
  const url = new URL(proxyUrl);
  return `proxy ${url.host}`;
}

/** Wraps undici's fetch with a dispatcher as the client's fetch (cookies readable one by one). */
export function createDispatcherFetch(dispatcher: Dispatcher): CookieFetchLike {
  return async (url, init) => await undiciFetch(url, { ...init, dispatcher });
}

/** Builds this process's addresses: the direct route (unless turned off) and each proxy. */
export function createEgressAddresses(settings: EgressSettings): EgressAddress[] {
  const routes: { label: string; kind: EgressAddress['kind']; agent: Dispatcher }[] = [];
  if (settings.isDirect) {
    routes.push({
      label: settings.directLabel ?? `direct ${os.hostname()}`,
      kind: 'direct',
      agent: new Agent({ allowH2: settings.allowH2 }),
    });
  }
  for (const proxy of settings.proxies) {
    routes.push({
      label: labelProxy(proxy),
      kind: 'proxy',
      agent: new ProxyAgent({ uri: proxy, allowH2: settings.allowH2 }),
    });
  }
  return routes.map(({ label, kind, agent }) => {
    const session = createSessionWarmUp({
      fetch: createDispatcherFetch(agent),
      now: settings.now ?? Date.now,
      onWarmUp: (event) => settings.onWarmUp?.(label, event),
    });
    return { label, kind, fetch: session.fetch, close: () => agent.close() };
  });
}
