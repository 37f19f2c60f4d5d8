import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SearchInventory } from '#shared/api/inventory.ts';
import type { NewSearch, Search, SearchUpdate } from '#shared/api/searches.ts';
import { useApi } from './api-client.ts';
import { shouldRetryQuery } from './api-errors.ts';
import { queryKeys } from './query-keys.ts';

/** Spec: a search's inventory refreshes every 60 seconds. */
export const INVENTORY_REFRESH_MS = 60_000;

/** GET /v2/searches/my_searches: at most 3 retries, none on a 403 (no subscription). */
export function useMySearches() {
  const { privateApi } = useApi();
  return useQuery({
    queryKey: queryKeys.mySearches,
    queryFn: async () => (await privateApi.get<Search[]>('/searches/my_searches')).data,
    retry: shouldRetryQuery,
  });
}

/** GET /v2/searches/{id}. */
export function useSearch(searchId: string) {
  const { privateApi } = useApi();
  return useQuery({
    queryKey: queryKeys.search(searchId),
    queryFn: async () =>
      (await privateApi.get<Search>(`/searches/${encodeURIComponent(searchId)}`)).data,
  });
}

/** GET /v2/searches/{id}/inventory, polled every 60 s while the screen is open. */
export function useSearchInventory(searchId: string, isEnabled: boolean) {
  const { privateApi } = useApi();
  return useQuery({
    queryKey: queryKeys.inventory(searchId),
    queryFn: async () =>
      (await privateApi.get<SearchInventory>(`/searches/${encodeURIComponent(searchId)}/inventory`))
        .data,
    refetchInterval: INVENTORY_REFRESH_MS,
    enabled: isEnabled,
  });
}

/** POST /v2/searches; the list is refreshed after a successful create. */
export function useCreateSearch() {
  const { privateApi } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (newSearch: NewSearch) =>
      (await privateApi.post<Search | undefined>('/searches', newSearch)).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.mySearches }),
  });
}

/** PATCH /v2/searches/{id} with the full settings; then inventory and history are cleared and refetched. */
export function useUpdateSearch(searchId: string) {
  const { privateApi } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (update: SearchUpdate) =>
      (await privateApi.patch<Search>(`/searches/${encodeURIComponent(searchId)}`, update)).data,
    onSuccess: async (updated) => {
      queryClient.setQueryData(queryKeys.search(searchId), updated);
      await Promise.all([
        queryClient.resetQueries({ queryKey: queryKeys.inventory(searchId) }),
        // A new store or product type means other stores and models: the old history is wrong.
        queryClient.resetQueries({ queryKey: queryKeys.searchHistory(searchId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.mySearches }),
      ]);
    },
  });
}

/** DELETE /v2/searches/{id}; the list is refetched whether it worked or not. */
export function useDeleteSearch() {
  const { privateApi } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (searchId: string) => {
      await privateApi.delete(`/searches/${encodeURIComponent(searchId)}`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.mySearches }),
  });
}
