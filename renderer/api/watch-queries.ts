import { useQuery } from '@tanstack/react-query';
import type { WatchStatus } from '#shared/api/watch.ts';
import { useHost } from '../host/host-context.tsx';
import { useApi } from './api-client.ts';
import { unwrapHostResult } from './host-errors.ts';
import { queryKeys } from './query-keys.ts';
import { INVENTORY_REFRESH_MS } from './search-queries.ts';
import { useSearchSource } from './search-source.ts';

/** Days of restock history the search detail page shows. */
export const HISTORY_DAYS = 7;

/** GET /v2/searches/{id}/history?days=7, refetched with the inventory (every 60 s). */
export function useSearchHistory(searchId: string) {
  const source = useSearchSource();
  return useQuery({
    queryKey: queryKeys.searchHistory(searchId),
    queryFn: () => source.history(searchId, HISTORY_DAYS),
    refetchInterval: INVENTORY_REFRESH_MS,
  });
}

/**
 * Whether the checks behind the screen are failing: GET /v2/status (public) on the website,
 * the app's own watch loop in the app. Polled like inventory.
 */
export function useWatchStatus() {
  const { publicApi } = useApi();
  const host = useHost();
  return useQuery({
    queryKey: queryKeys.watchStatus,
    queryFn: async (): Promise<WatchStatus> => {
      if (host.desktop === undefined) {
        return (await publicApi.get<WatchStatus>('/status')).data;
      }
      const status = await unwrapHostResult(host.desktop.watch.status());
      // The app's own loop is one Mac: its shapes and freshness are not the server's to report.
      return {
        view: 'public',
        is_delayed: status.is_failing,
        checked_at: status.last_check_at ?? new Date().toISOString(),
        countries: [],
        invalid_parts: [],
        freshness: null,
      };
    },
    refetchInterval: INVENTORY_REFRESH_MS,
  });
}

/** The app's watch loop status (last and next check, failures), for My Searches in the app. */
export function useDesktopWatchStatus() {
  const host = useHost();
  const desktop = host.desktop;
  return useQuery({
    queryKey: queryKeys.desktopWatchStatus,
    queryFn: () => {
      if (desktop === undefined) throw new Error('The watch status is only kept in the app');
      return unwrapHostResult(desktop.watch.status());
    },
    enabled: desktop !== undefined,
    refetchInterval: 30_000,
  });
}
