import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NewSearch, Search, SearchUpdate } from '#shared/api/searches.ts';
import { applyOptimisticUpdate } from '#shared/domain/optimistic-search.ts';
import { shouldRetryQuery } from './api-errors.ts';
import { queryKeys } from './query-keys.ts';
import { useSearchSource } from './search-source.ts';

/** Spec: a search's inventory refreshes every 60 seconds. */
export const INVENTORY_REFRESH_MS = 60_000;

/** GET /v2/searches/my_searches: at most 3 retries, none on a 403 (no subscription). */
export function useMySearches() {
  const source = useSearchSource();
  return useQuery({
    queryKey: queryKeys.mySearches,
    queryFn: () => source.list(),
    retry: shouldRetryQuery,
  });
}

/** GET /v2/searches/{id}. */
export function useSearch(searchId: string) {
  const source = useSearchSource();
  return useQuery({
    queryKey: queryKeys.search(searchId),
    queryFn: () => source.get(searchId),
  });
}

/** GET /v2/searches/{id}/inventory, polled every 60 s while the screen is open. */
export function useSearchInventory(searchId: string, isEnabled: boolean) {
  const source = useSearchSource();
  return useQuery({
    queryKey: queryKeys.inventory(searchId),
    queryFn: () => source.inventory(searchId),
    refetchInterval: INVENTORY_REFRESH_MS,
    enabled: isEnabled,
  });
}

/** POST /v2/searches; the list is refreshed after a successful create. */
export function useCreateSearch() {
  const source = useSearchSource();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (newSearch: NewSearch) => source.create(newSearch),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.mySearches }),
  });
}

/**
 * PATCH /v2/searches/{id} with the full settings. The cached search shows the change at once
 * and goes back to what it was if the save fails; after a save inventory and history are
 * cleared and refetched.
 */
export function useUpdateSearch(searchId: string) {
  const source = useSearchSource();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: SearchUpdate) => source.update(searchId, update),
    onMutate: async (update) => {
      // A read in flight would otherwise land after the optimistic value and undo it.
      await queryClient.cancelQueries({ queryKey: queryKeys.search(searchId) });
      const previous = queryClient.getQueryData<Search>(queryKeys.search(searchId));
      if (previous !== undefined) {
        queryClient.setQueryData(
          queryKeys.search(searchId),
          applyOptimisticUpdate(previous, update),
        );
      }
      return { previous };
    },
    onError: (_error, _update, context) => {
      if (context?.previous !== undefined) {
        queryClient.setQueryData(queryKeys.search(searchId), context.previous);
      }
    },
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
  const source = useSearchSource();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (searchId: string) => source.remove(searchId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.mySearches }),
  });
}

/** Whether a search is kept on this Mac (the app's own) rather than in the account. */
export function useIsLocalSearch(searchId: string) {
  const source = useSearchSource();
  return useQuery({
    queryKey: ['searchIsLocal', searchId],
    queryFn: () => source.isLocal(searchId),
    staleTime: Infinity,
  });
}
