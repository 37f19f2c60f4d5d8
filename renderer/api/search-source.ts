import { useMemo } from 'react';
import type { SearchInventory } from '#shared/api/inventory.ts';
import type { NewSearch, Search, SearchUpdate } from '#shared/api/searches.ts';
import type { SearchHistory } from '#shared/api/watch.ts';
import type { DesktopHost } from '#shared/bridge.ts';
import { useHost } from '../host/host-context.tsx';
import { useAuth } from '../auth/auth-context.tsx';
import { useApi, type ApiClients } from './api-client.ts';
import { isUnansweredRequest, readErrorStatus, UNEXPECTED_ERROR_TEXT } from './api-errors.ts';
import { unwrapHostResult } from './host-errors.ts';

/** Shown in the app when the logged-in account has no paid plan (its searches answer 403). */
export const ACCOUNT_SEARCHES_NEED_PLAN_TEXT =
  'Searches saved in your account are part of the Better and Premium plans, so only the searches on this Mac are shown here.';

/** Shown in the app when the account's searches could not be read for another reason. */
export const ACCOUNT_SEARCHES_FAILED_TEXT =
  "Your account's searches couldn't be loaded right now. The searches on this Mac keep working.";

/** Shown in the app when asking for the account's searches got no answer at all. */
export const ACCOUNT_SEARCHES_UNANSWERED_TEXT = `${UNEXPECTED_ERROR_TEXT} while loading your account's searches. The searches on this Mac keep working.`;

/** The searches to list, and a note for the person when the account's are missing from it. */
export type SearchListing = { searches: Search[]; notice: string | null };

/**
 * Where saved searches live: the account's, through /v2 on the website; the Mac's own, through
 * the bridge in the app. Screens use the same hooks either way, so no screen is forked.
 */
export type SearchSource = {
  list: () => Promise<SearchListing>;
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
    list: async () => ({
      searches: (await privateApi.get<Search[]>('/searches/my_searches')).data,
      notice: null,
    }),
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
    list: async () => ({ searches: await unwrapHostResult(desktop.searches.list()), notice: null }),
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
      return result.ok || result.error.code !== 'not_found';
    },
  };
}

/** Why the account's searches are missing from the app's list. */
function describeAccountListFailure(error: unknown): string {
  if (readErrorStatus(error) === 403) return ACCOUNT_SEARCHES_NEED_PLAN_TEXT;
  return isUnansweredRequest(error)
    ? ACCOUNT_SEARCHES_UNANSWERED_TEXT
    : ACCOUNT_SEARCHES_FAILED_TEXT;
}

/**
 * The app's searches: the ones on this Mac and, after login, the account's (paid plans)
 * beside them. New searches are made on the Mac. An account list that fails (no paid plan:
 * 403, or offline) leaves the local ones on screen, with a note saying why the account's
 * are missing rather than an error.
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
        const theirs = await account.list();
        return { searches: [...mine.searches, ...theirs.searches], notice: null };
      } catch (error) {
        if (readErrorStatus(error) !== 403) {
          console.error('Account searches could not be read', error);
        }
        return { searches: mine.searches, notice: describeAccountListFailure(error) };
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
