import { useMemo } from 'react';
import type { SearchInventory } from '#shared/api/inventory.ts';
import type { NewSearch, Search, SearchUpdate } from '#shared/api/searches.ts';
import type { SearchHistory } from '#shared/api/watch.ts';
import type { DesktopHost } from '#shared/bridge.ts';
import { useHost } from '../host/host-context.tsx';
import { useAuth } from '../auth/auth-context.tsx';
import { useApi, type ApiClients } from './api-client.ts';
import { readErrorStatus } from './api-errors.ts';
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
  /** True for a search kept on this Mac (alerts natively), false for an account's search. */
  isLocal: (searchId: string) => Promise<boolean>;
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
    isLocal: () => Promise.resolve(false),
  };
}

/** The Mac's local searches through the app's bridge. */
function createLocalSearchSource(desktop: DesktopHost): SearchSource {
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
    isLocal: async (searchId) => {
      const result = await desktop.searches.get(searchId);
      return result.ok || result.error.reason !== 'not_found';
    },
  };
}

/**
 * The app's searches: the ones on this Mac and, after login, the account's (paid plans)
 * beside them. New searches are made on the Mac. An account list that fails (no paid plan:
 * 403, or offline) leaves the local ones on screen without an error.
 */
function createDesktopSearchSource(
  desktop: DesktopHost,
  account: SearchSource,
  isSignedIn: boolean,
): SearchSource {
  const local = createLocalSearchSource(desktop);
  const pick = async (searchId: string) => ((await local.isLocal(searchId)) ? local : account);
  return {
    list: async () => {
      const mine = await local.list();
      if (!isSignedIn) return mine;
      try {
        return [...mine, ...(await account.list())];
      } catch (error) {
        if (readErrorStatus(error) !== 403)
          console.error('Account searches could not be read', error);
        return mine;
      }
    },
    get: async (searchId) => (await pick(searchId)).get(searchId),
    create: (newSearch) => local.create(newSearch),
    update: async (searchId, update) => (await pick(searchId)).update(searchId, update),
    remove: async (searchId) => (await pick(searchId)).remove(searchId),
    inventory: async (searchId) => (await pick(searchId)).inventory(searchId),
    history: async (searchId, days) => (await pick(searchId)).history(searchId, days),
    isLocal: (searchId) => local.isLocal(searchId),
  };
}

/** The search source of the running host. */
export function useSearchSource(): SearchSource {
  const host = useHost();
  const api = useApi();
  const { isAuthenticated } = useAuth();
  return useMemo(
    () =>
      host.desktop === undefined
        ? createApiSearchSource(api)
        : createDesktopSearchSource(host.desktop, createApiSearchSource(api), isAuthenticated),
    [host, api, isAuthenticated],
  );
}
