import { COUNTRY_SEEDS } from './countries.ts';
import {
  IPHONE16_BASE_PARTS,
  IPHONE16_COUNTRY_PARTS,
  type Iphone16Type,
} from './iphone16-parts.ts';
import { US_MODEL_SEEDS } from './models-us.ts';
import { PRODUCT_TYPE_SEEDS } from './product-types.ts';
import type { ProductModelSeed } from './types.ts';

/** The product types of the iPhone 16 launch, in picker order. */
export const IPHONE16_FAMILY: readonly Iphone16Type[] = [
  'iphone16',
  'iphone16plus',
  'iphone16pro',
  'iphone16promax',
];

// One model row per seeded country and configuration, from the shared base-code tables.
function expandIphone16Models(): ProductModelSeed[] {
  const models: ProductModelSeed[] = [];
  for (const { country_code } of COUNTRY_SEEDS) {
    const parts = IPHONE16_COUNTRY_PARTS[country_code];
    if (parts === undefined) throw new Error(`No iPhone 16 part numbers for ${country_code}`);
    for (const productId of IPHONE16_FAMILY) {
      const productName = getProductName(productId);
      for (const [capacity, color, base] of IPHONE16_BASE_PARTS[parts.block][productId]) {
        models.push({
          product_id: productId,
          country_code,
          part_number: `${base}${parts.suffix}`,
          // Matches Apple's own storePickupProductTitle, e.g. "iPhone 16 Pro 256GB Desert Titanium".
          display_name: `${productName} ${capacity} ${color}`,
        });
      }
    }
  }
  return models;
}

function getProductName(productId: string): string {
  const type = PRODUCT_TYPE_SEEDS.find((candidate) => candidate.product_id === productId);
  if (type === undefined) throw new Error(`Unknown product type ${productId}`);
  return type.product_name;
}

/** Every model of the curated seed: the iPhone 16 family everywhere, the rest in the US. */
export const PRODUCT_MODEL_SEEDS: readonly ProductModelSeed[] = [
  ...expandIphone16Models(),
  ...US_MODEL_SEEDS,
];
