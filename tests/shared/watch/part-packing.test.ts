import { describe, expect, it } from 'vitest';
import { packTypes, sliceParts } from '#shared/watch/index.ts';

/** `count` models of one product type, named after it. */
function models(productId: string, count: number): { product_id: string; part_number: string }[] {
  return Array.from({ length: count }, (_, index) => ({
    product_id: productId,
    part_number: `${productId}-${index + 1}`,
  }));
}

describe('cutting a request into HTTP requests of 19 parts', () => {
  it('fills the places a large type leaves with small types instead of opening a request', () => {
    // In arrival order 2 + 16 would close the first request; largest first, 16 + 2 + ... fit.
    const slices = sliceParts(
      [
        ...models('airpods', 2),
        ...models('iphone', 16),
        ...models('pencil', 1),
        ...models('ipad', 12),
      ],
      19,
    );
    expect(slices.map((slice) => slice.length)).toEqual([19, 12]);
    expect(slices[0]).toEqual(
      [...models('iphone', 16), ...models('airpods', 2), ...models('pencil', 1)].map(
        (m) => m.part_number,
      ),
    );
  });

  it('keeps a type that fits in one request whole, so one answer covers its targets', () => {
    const slices = sliceParts([...models('a', 10), ...models('b', 10), ...models('c', 9)], 19);
    for (const slice of slices) {
      const types = new Set(slice.map((part) => part.split('-')[0]));
      for (const type of types) {
        expect(slice.filter((part) => part.startsWith(`${type}-`))).toHaveLength(
          type === 'c' ? 9 : 10,
        );
      }
    }
    expect(slices).toHaveLength(2);
  });

  it('cuts a type larger than a request into full requests and packs its remainder', () => {
    const bins = packTypes(
      [
        { productId: 'big', parts: models('big', 25).map((m) => m.part_number) },
        { productId: 'small', parts: ['s1', 's2'] },
      ],
      19,
    );
    expect(bins.map((bin) => bin.flatMap((type) => type.parts).length)).toEqual([19, 8]);
  });
});
