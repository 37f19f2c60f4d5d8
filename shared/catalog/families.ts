import type { ProductFamily, TabletVariant } from './types.ts';

/** Every icon family, for pickers and exhaustive checks. */
export const PRODUCT_FAMILIES: readonly ProductFamily[] = [
  'earbuds',
  'headphones',
  'watch',
  'tablet',
  'phone-classic',
  'phone-modern',
  'phone-foldable',
  'laptop',
  'studio-desktop',
  'mini-desktop',
  'display',
  'pencil-adapter',
  'smart-speaker',
];

// Codes whose family cannot be read from their shape.
const FIXED_FAMILIES: Readonly<Record<string, ProductFamily>> = {
  iphoneair: 'phone-modern',
  // The foldable has an icon of its own: it looks like no other phone.
  iphoneduo: 'phone-foldable',
  // An iMac is drawn as the screen it is.
  imac: 'display',
  airpods: 'earbuds',
  airpodspro: 'earbuds',
  airpodsmax: 'headphones',
  applewatch: 'watch',
  applewatchse: 'watch',
  applewatchultra: 'watch',
  macbookair: 'laptop',
  macbookpro: 'laptop',
  macstudio: 'studio-desktop',
  macmini: 'mini-desktop',
  studiodisplay: 'display',
  prodisplayxdr: 'display',
  homepod: 'smart-speaker',
  homepodmini: 'smart-speaker',
  applepencilusbcadapter: 'pencil-adapter',
};

// Phones and tablets are read from the code so that a type added later by `catalog sync` or
// an admin (say 'iphone17pro' or 'ipadair13cellular') still gets the right icon, not a spinner.
const IPHONE_CODE = /^iphone(\d{1,2})(?:e|mini|plus|pro|promax)?$/;
// Apple Watch codes added later ('applewatchseries12') are watches too.
const WATCH_CODE = /^applewatch[a-z0-9]*$/;
const TABLET_CODE = /^ipad(mini|air|pro)(11|13)?(wifi|cellular)$/;

// The spec draws the 13-and-mini generation (and older) in the older style, 14 onward newer.
const FIRST_MODERN_IPHONE = 14;

/** Icon family of a product type code, or undefined for codes the picker cannot draw. */
export function getProductFamily(productId: string): ProductFamily | undefined {
  const fixed = FIXED_FAMILIES[productId];
  if (fixed !== undefined) return fixed;
  if (productId === 'iphonese') return 'phone-classic';
  if (WATCH_CODE.test(productId)) return 'watch';
  const phone = IPHONE_CODE.exec(productId);
  if (phone !== null) {
    return Number(phone[1]) >= FIRST_MODERN_IPHONE ? 'phone-modern' : 'phone-classic';
  }
  return describeTabletVariant(productId) === undefined ? undefined : 'tablet';
}

/** Line, screen size and connectivity of a tablet code, or undefined when it is not one. */
export function describeTabletVariant(productId: string): TabletVariant | undefined {
  const match = TABLET_CODE.exec(productId);
  if (match === null) return undefined;
  const line = match[1] as TabletVariant['line'];
  const connectivity = match[3] as TabletVariant['connectivity'];
  const size = match[2] === undefined ? undefined : (Number(match[2]) as 11 | 13);
  // iPad mini comes in one size, while Air and Pro codes are meaningless without theirs.
  if (line === 'mini') return size === undefined ? { line, connectivity } : undefined;
  return size === undefined ? undefined : { line, size, connectivity };
}
