import type { ProductTypeSeed } from './types.ts';

// iPhone 15 Pro and iPhone SE are deliberately absent: no US part numbers for them could be
// confirmed, and a product type nobody can find in stock is worse than a missing one.

/** Product types of the curated seed, in picker order. */
export const PRODUCT_TYPE_SEEDS: readonly ProductTypeSeed[] = [
  { product_id: 'iphone16', product_name: 'iPhone 16', family: 'phone-modern', sort_order: 1 },
  {
    product_id: 'iphone16plus',
    product_name: 'iPhone 16 Plus',
    family: 'phone-modern',
    sort_order: 2,
  },
  {
    product_id: 'iphone16pro',
    product_name: 'iPhone 16 Pro',
    family: 'phone-modern',
    sort_order: 3,
  },
  {
    product_id: 'iphone16promax',
    product_name: 'iPhone 16 Pro Max',
    family: 'phone-modern',
    sort_order: 4,
  },
  { product_id: 'iphone15', product_name: 'iPhone 15', family: 'phone-modern', sort_order: 5 },
  { product_id: 'iphone14', product_name: 'iPhone 14', family: 'phone-modern', sort_order: 6 },
  { product_id: 'iphone13', product_name: 'iPhone 13', family: 'phone-classic', sort_order: 7 },
  {
    product_id: 'iphone13mini',
    product_name: 'iPhone 13 mini',
    family: 'phone-classic',
    sort_order: 8,
  },
  {
    product_id: 'ipadminiwifi',
    product_name: 'iPad mini (Wi-Fi)',
    family: 'tablet',
    sort_order: 9,
  },
  {
    product_id: 'ipadminicellular',
    product_name: 'iPad mini (Wi-Fi + Cellular)',
    family: 'tablet',
    sort_order: 10,
  },
  {
    product_id: 'ipadair11wifi',
    product_name: 'iPad Air 11-inch (Wi-Fi)',
    family: 'tablet',
    sort_order: 11,
  },
  {
    product_id: 'ipadair11cellular',
    product_name: 'iPad Air 11-inch (Wi-Fi + Cellular)',
    family: 'tablet',
    sort_order: 12,
  },
  {
    product_id: 'ipadair13wifi',
    product_name: 'iPad Air 13-inch (Wi-Fi)',
    family: 'tablet',
    sort_order: 13,
  },
  {
    product_id: 'ipadair13cellular',
    product_name: 'iPad Air 13-inch (Wi-Fi + Cellular)',
    family: 'tablet',
    sort_order: 14,
  },
  {
    product_id: 'ipadpro11wifi',
    product_name: 'iPad Pro 11-inch (Wi-Fi)',
    family: 'tablet',
    sort_order: 15,
  },
  {
    product_id: 'ipadpro11cellular',
    product_name: 'iPad Pro 11-inch (Wi-Fi + Cellular)',
    family: 'tablet',
    sort_order: 16,
  },
  {
    product_id: 'ipadpro13wifi',
    product_name: 'iPad Pro 13-inch (Wi-Fi)',
    family: 'tablet',
    sort_order: 17,
  },
  {
    product_id: 'ipadpro13cellular',
    product_name: 'iPad Pro 13-inch (Wi-Fi + Cellular)',
    family: 'tablet',
    sort_order: 18,
  },
  { product_id: 'macbookair', product_name: 'MacBook Air', family: 'laptop', sort_order: 19 },
  { product_id: 'macbookpro', product_name: 'MacBook Pro', family: 'laptop', sort_order: 20 },
  { product_id: 'macstudio', product_name: 'Mac Studio', family: 'studio-desktop', sort_order: 21 },
  { product_id: 'macmini', product_name: 'Mac mini', family: 'mini-desktop', sort_order: 22 },
  {
    product_id: 'studiodisplay',
    product_name: 'Studio Display',
    family: 'display',
    sort_order: 23,
  },
  {
    product_id: 'prodisplayxdr',
    product_name: 'Pro Display XDR',
    family: 'display',
    sort_order: 24,
  },
  { product_id: 'applewatch', product_name: 'Apple Watch Series', family: 'watch', sort_order: 25 },
  {
    product_id: 'applewatchultra',
    product_name: 'Apple Watch Ultra',
    family: 'watch',
    sort_order: 26,
  },
  { product_id: 'airpods', product_name: 'AirPods', family: 'earbuds', sort_order: 27 },
  { product_id: 'airpodspro', product_name: 'AirPods Pro', family: 'earbuds', sort_order: 28 },
  { product_id: 'airpodsmax', product_name: 'AirPods Max', family: 'headphones', sort_order: 29 },
  { product_id: 'homepod', product_name: 'HomePod', family: 'smart-speaker', sort_order: 30 },
  {
    product_id: 'homepodmini',
    product_name: 'HomePod mini',
    family: 'smart-speaker',
    sort_order: 31,
  },
  {
    product_id: 'applepencilusbcadapter',
    product_name: 'USB-C to Apple Pencil Adapter',
    family: 'pencil-adapter',
    sort_order: 32,
  },
];
