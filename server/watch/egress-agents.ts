// The undici agents behind a process's egress addresses (the direct route and each proxy).
// Kept apart from egress.ts (the token buckets), which the API loads with the planner for its
// status page: only a watcher makes agents, so the API need not load undici (issue 30).
import os from 'node:os';
import { Agent, ProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';
import type { FetchLike } from '#shared/upstream/index.ts';
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
};

/** The label a proxy URL is shown by: its host and port, never its credentials or path. */
export function labelProxy(proxyUrl: string): string {
  const url = new URL(proxyUrl);
  return `proxy ${url.host}`;
}

/** Wraps undici's fetch with a dispatcher as the client's FetchLike. */
export function createDispatcherFetch(dispatcher: Dispatcher): FetchLike {
  return async (url, init) => await undiciFetch(url, { ...init, dispatcher });
}

/** Builds this process's addresses: the direct route (unless turned off) and each proxy. */
export function createEgressAddresses(settings: EgressSettings): EgressAddress[] {
  const addresses: EgressAddress[] = [];
  if (settings.isDirect) {
    const agent = new Agent({ allowH2: settings.allowH2 });
    addresses.push({
      label: settings.directLabel ?? `direct ${os.hostname()}`,
      kind: 'direct',
      fetch: createDispatcherFetch(agent),
      close: () => agent.close(),
    });
  }
  for (const proxy of settings.proxies) {
    const agent = new ProxyAgent({ uri: proxy, allowH2: settings.allowH2 });
    addresses.push({
      label: labelProxy(proxy),
      kind: 'proxy',
      fetch: createDispatcherFetch(agent),
      close: () => agent.close(),
    });
  }
  return addresses;
}
