import { describe, expect, it } from 'vitest';
import { compareModelNames, readCapacityGb, sortModelsBySize } from '#shared/domain/model-order.ts';

describe('model order', () => {
  it('sorts capacities by size, not as text (256GB, 512GB, 1TB, 2TB)', () => {
    const names = [
      'iPhone 18 Pro Max 1TB Black',
      'iPhone 18 Pro Max 256GB Black',
      'iPhone 18 Pro Max 2TB Black',
      'iPhone 18 Pro Max 512GB Black',
    ];
    expect(
      sortModelsBySize(names.map((display_name) => ({ display_name }))).map((m) => m.display_name),
    ).toEqual([
      'iPhone 18 Pro Max 256GB Black',
      'iPhone 18 Pro Max 512GB Black',
      'iPhone 18 Pro Max 1TB Black',
      'iPhone 18 Pro Max 2TB Black',
    ]);
  });

  it('keeps models apart before capacity and orders colours within one capacity', () => {
    expect(
      compareModelNames('iPhone 17 Pro 1TB Silver', 'iPhone 17 Pro Max 256GB Silver'),
    ).toBeLessThan(0);
    expect(
      compareModelNames('iPhone 17 Pro 256GB Silver', 'iPhone 17 Pro 256GB Black'),
    ).toBeGreaterThan(0);
    expect(compareModelNames('AirPods Pro 3', 'AirPods 4')).toBeGreaterThan(0);
  });

  it('reads capacities in GB', () => {
    expect(readCapacityGb('iPad Pro 2TB')).toBe(2048);
    expect(readCapacityGb('iPhone 16 128 GB Pink')).toBe(128);
    expect(readCapacityGb('AirPods 4')).toBeUndefined();
  });
});
