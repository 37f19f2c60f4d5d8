import { useMemo } from 'react';
import type { Country, Product, Store } from '#shared/api/catalog.ts';
import { useHost } from '../host/host-context.tsx';
import { useApiSettings } from './api-context.ts';
import { unwrapHostResult } from './host-errors.ts';
import { getPublicJson } from './public-reads.ts';

/** Products, stores and countries: from /v2 on the website, bundled in the app (no server needed). */
export type CatalogSource = {
  products: () => Promise<Product[]>;
  stores: () => Promise<Store[]>;
  countries: () => Promise<Country[]>;
};

/** The catalog source of the running host. */
export function useCatalogSource(): CatalogSource {
  const host = useHost();
  const settings = useApiSettings();
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
      products: () => getPublicJson<Product[]>(settings, '/products'),
      stores: () => getPublicJson<Store[]>(settings, '/stores'),
      countries: () => getPublicJson<Country[]>(settings, '/countries'),
    };
  }, [host, settings]);
}
