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
      { product_id: 'iphone19pro', product_name: 'iPhone 19 Pro' },
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
      mergeServerProducts(bundled, [{ product_id: 'toaster', product_name: 'Toaster' }]),
    ).toEqual(bundled);
  });
});
