import { describe, expect, it } from 'vitest';
import { refreshFromServer } from '#renderer/api/catalog-source.ts';
import type { Product } from '#shared/api/catalog.ts';
import { createDesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import { mergeServerProducts } from '#shared/desktop/server-products.ts';

const bundled = createDesktopCatalog().listProducts();

describe('the macOS app’s product list', () => {
  it('follows the server’s /v2/products when it answers', async () => {
    // The server retired iPhone Air since the app was built and knows a type the app lacks.
    const server: Product[] = [
      { product_id: 'iphone19pro', product_name: 'iPhone 19 Pro', sold_in: ['US'] },
      ...bundled.filter((product) => product.product_id !== 'iphoneair'),
    ];
    const refreshed = await refreshFromServer(bundled, async () => server);
    expect(refreshed.map((p) => p.product_id)).not.toContain('iphoneair');
    expect(refreshed.map((p) => p.product_id)).not.toContain('iphone19pro');
    expect(refreshed[0]?.product_name).toBe('iPhone 18 Pro Max');
  });

  it('keeps the bundled list offline, on a hanging server and on an unrelated answer', async () => {
    expect(await refreshFromServer(bundled, () => Promise.reject(new Error('offline')))).toBe(
      bundled,
    );
    const hanging = refreshFromServer(bundled, () => new Promise<Product[]>(() => undefined), 20);
    expect(await hanging).toBe(bundled);
    expect(
      mergeServerProducts(bundled, [
        { product_id: 'toaster', product_name: 'Toaster', sold_in: ['US'] },
      ]),
    ).toEqual(bundled);
  });

  it('offers a type in a country only where both the server and the app say it is sold', () => {
    const air = bundled.find((product) => product.product_id === 'iphoneair');
    expect(air?.sold_in).toEqual(expect.arrayContaining(['AU', 'JP']));
    // The server retired it in Japan since the build and sells it in Canada, where the app
    // has no part numbers to watch; an older server without sold_in keeps the app's countries.
    const merged = mergeServerProducts(bundled, [
      { product_id: 'iphoneair', product_name: 'iPhone Air', sold_in: ['AU', 'CA'] },
    ]);
    expect(merged).toEqual([
      { product_id: 'iphoneair', product_name: 'iPhone Air', sold_in: ['AU'] },
    ]);
    const legacy = mergeServerProducts(bundled, [
      { product_id: 'iphoneair', product_name: 'iPhone Air' } as Product,
    ]);
    expect(legacy[0]?.sold_in).toEqual(air?.sold_in);
  });
});
