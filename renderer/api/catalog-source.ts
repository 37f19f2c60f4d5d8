import { useMemo } from 'react';
import type { Country, Product, Store } from '#shared/api/catalog.ts';
import { useHost } from '../host/host-context.tsx';
import { useApi } from './api-client.ts';
import { unwrapHostResult } from './host-errors.ts';

/** Products, stores and countries: from /v2 on the website, bundled in the app (no server needed). */
export type CatalogSource = {
  products: () => Promise<Product[]>;
  stores: () => Promise<Store[]>;
  countries: () => Promise<Country[]>;
};

/** The catalog source of the running host. */
export function useCatalogSource(): CatalogSource {
  const host = useHost();
  const { publicApi } = useApi();
  return useMemo<CatalogSource>(() => {
    const desktop = host.desktop;
    if (desktop !== undefined) {
      return {
        products: () => unwrapHostResult(desktop.catalog.products()),
        stores: () => unwrapHostResult(desktop.catalog.stores()),
        countries: () => unwrapHostResult(desktop.catalog.countries()),
      };
    }
    return {
      products: async () => (await publicApi.get<Product[]>('/products')).data,
      stores: async () => (await publicApi.get<Store[]>('/stores')).data,
      countries: async () => (await publicApi.get<Country[]>('/countries')).data,
    };
  }, [host, publicApi]);
}
