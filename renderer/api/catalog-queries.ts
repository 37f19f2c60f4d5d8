import { useQuery } from '@tanstack/react-query';
import type { ExampleInventoryEntry } from '#shared/api/inventory.ts';
import { useApiSettings } from './api-context.ts';
import { useCatalogSource } from './catalog-source.ts';
import { getPublicJson } from './public-reads.ts';
import { queryKeys } from './query-keys.ts';

// The catalog changes at most daily: keep it fresh for the session instead of refetching.
const CATALOG_STALE_MS = 60 * 60 * 1000;

/** GET /v2/products (public). */
export function useProducts() {
  const catalog = useCatalogSource();
  return useQuery({
    queryKey: queryKeys.products,
    queryFn: () => catalog.products(),
    staleTime: CATALOG_STALE_MS,
  });
}

/** GET /v2/stores (public). */
export function useStores() {
  const catalog = useCatalogSource();
  return useQuery({
    queryKey: queryKeys.stores,
    queryFn: () => catalog.stores(),
    staleTime: CATALOG_STALE_MS,
  });
}

/** GET /v2/countries (public). */
export function useCountries() {
  const catalog = useCatalogSource();
  return useQuery({
    queryKey: queryKeys.countries,
    queryFn: () => catalog.countries(),
    staleTime: CATALOG_STALE_MS,
  });
}

/** GET /v2/inventory/example_inventory (public): the landing page's sample stock. */
export function useExampleInventory() {
  const settings = useApiSettings();
  return useQuery({
    queryKey: queryKeys.exampleInventory,
    queryFn: () => getPublicJson<ExampleInventoryEntry[]>(settings, '/inventory/example_inventory'),
  });
}
