import { useQuery } from '@tanstack/react-query';
import type { SearchHistory, WatchStatus } from '#shared/api/watch.ts';
import { useApi } from './api-client.ts';
import { queryKeys } from './query-keys.ts';
import { INVENTORY_REFRESH_MS } from './search-queries.ts';

/** Days of restock history the search detail page shows. */
export const HISTORY_DAYS = 7;

/** GET /v2/searches/{id}/history?days=7, refetched with the inventory (every 60 s). */
export function useSearchHistory(searchId: string) {
  const { privateApi } = useApi();
  return useQuery({
    queryKey: queryKeys.searchHistory(searchId),
    queryFn: async () =>
      (
        await privateApi.get<SearchHistory>(`/searches/${encodeURIComponent(searchId)}/history`, {
          params: { days: HISTORY_DAYS },
        })
      ).data,
    refetchInterval: INVENTORY_REFRESH_MS,
  });
}

/** GET /v2/status (public): whether the watcher's checks are failing, polled like inventory. */
export function useWatchStatus() {
  const { publicApi } = useApi();
  return useQuery({
    queryKey: queryKeys.watchStatus,
    queryFn: async () => (await publicApi.get<WatchStatus>('/status')).data,
    refetchInterval: INVENTORY_REFRESH_MS,
  });
}
