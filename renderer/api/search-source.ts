import { useMemo } from 'react';
import type { SearchInventory } from '#shared/api/inventory.ts';
import type { NewSearch, Search, SearchUpdate } from '#shared/api/searches.ts';
import type { SearchHistory } from '#shared/api/watch.ts';
import type { DesktopHost } from '#shared/bridge.ts';
import { useHost } from '../host/host-context.tsx';
import { useApi, type ApiClients } from './api-client.ts';
import { unwrapHostResult } from './host-errors.ts';

/**
 * Where saved searches live: the account's, through /v2 on the website; the Mac's own, through
 * the bridge in the app. Screens use the same hooks either way, so no screen is forked.
 */
export type SearchSource = {
  list: () => Promise<Search[]>;
  get: (searchId: string) => Promise<Search>;
  create: (newSearch: NewSearch) => Promise<Search | undefined>;
  update: (searchId: string, update: SearchUpdate) => Promise<Search>;
  remove: (searchId: string) => Promise<void>;
  inventory: (searchId: string) => Promise<SearchInventory>;
  history: (searchId: string, days: number) => Promise<SearchHistory>;
};

/** The account's searches over the API. */
function createApiSearchSource({ privateApi }: ApiClients): SearchSource {
  const path = (searchId: string) => `/searches/${encodeURIComponent(searchId)}`;
  return {
    list: async () => (await privateApi.get<Search[]>('/searches/my_searches')).data,
    get: async (searchId) => (await privateApi.get<Search>(path(searchId))).data,
    create: async (newSearch) =>
      (await privateApi.post<Search | undefined>('/searches', newSearch)).data,
    update: async (searchId, update) =>
      (await privateApi.patch<Search>(path(searchId), update)).data,
    remove: async (searchId) => {
      await privateApi.delete(path(searchId));
    },
    inventory: async (searchId) =>
      (await privateApi.get<SearchInventory>(`${path(searchId)}/inventory`)).data,
    history: async (searchId, days) =>
      (await privateApi.get<SearchHistory>(`${path(searchId)}/history`, { params: { days } })).data,
  };
}

/** The Mac's local searches through the app's bridge. */
function createDesktopSearchSource(desktop: DesktopHost): SearchSource {
  return {
    list: () => unwrapHostResult(desktop.searches.list()),
    get: (searchId) => unwrapHostResult(desktop.searches.get(searchId)),
    create: (newSearch) => unwrapHostResult(desktop.searches.create(newSearch)),
    update: (searchId, update) => unwrapHostResult(desktop.searches.update(searchId, update)),
    remove: async (searchId) => {
      await unwrapHostResult(desktop.searches.remove(searchId));
    },
    inventory: (searchId) => unwrapHostResult(desktop.searches.inventory(searchId)),
    history: (searchId, days) => unwrapHostResult(desktop.searches.history(searchId, days)),
  };
}

/** The search source of the running host. */
export function useSearchSource(): SearchSource {
  const host = useHost();
  const api = useApi();
  return useMemo(
    () =>
      host.desktop === undefined
        ? createApiSearchSource(api)
        : createDesktopSearchSource(host.desktop),
    [host, api],
  );
}
