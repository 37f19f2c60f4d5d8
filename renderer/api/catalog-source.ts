import { useMemo } from 'react';
import type { Country, Product, Store } from '#shared/api/catalog.ts';
import { mergeServerProducts } from '#shared/desktop/server-products.ts';
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
        products: async () => {
          const bundled = await unwrapHostResult(desktop.catalog.products());
          return await refreshFromServer(bundled, () =>
            getPublicJson<Product[]>(settings, '/products'),
          );
        },
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

// Long enough for a slow network, short enough that an unreachable server does not hold the
// new-search picker: the bundled list is shown instead.
const SERVER_PRODUCTS_TIMEOUT_MS = 4_000;

/**
 * The app's bundled product list, refreshed from the server's /v2/products when online (a
 * type retired since the app was built disappears, renames follow); offline it is the bundled
 * list as it is.
 */
export async function refreshFromServer(
  bundled: Product[],
  readServer: () => Promise<Product[]>,
  timeoutMs: number = SERVER_PRODUCTS_TIMEOUT_MS,
): Promise<Product[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  try {
    const server = await Promise.race([readServer(), timeout]);
    return Array.isArray(server) ? mergeServerProducts(bundled, server) : bundled;
  } catch {
    return bundled;
  } finally {
    clearTimeout(timer);
  }
}
