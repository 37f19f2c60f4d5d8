import Spinner from 'react-bootstrap/Spinner';
import { describeTabletVariant, getProductFamily } from '#shared/catalog/families.ts';
import type { ProductFamily } from '#shared/catalog/types.ts';
import { FAMILY_ICON_URLS } from '#renderer/asset-urls.ts';

// Tablets share one drawing; their line and size scale it so a mini looks smaller than a 13-inch Pro.
const TABLET_SCALE = { mini: 0.72, 11: 0.86, 13: 1 } as const;
// Phones as well: Plus and Pro Max get the big body, mini the small one, the rest in between;
// Pros carry a badge, so all four iPhone 16 models look different.
const PHONE_VARIANT = /(mini|plus|pro|promax)$/;

/** Drawing scale and corner badge of a type within its family (size, cellular, Pro). */
function describeIconVariant(
  productId: string,
  family: ProductFamily,
): { scale: number; badge?: string } {
  if (family === 'tablet') {
    const tablet = describeTabletVariant(productId);
    return {
      scale:
        tablet === undefined
          ? 1
          : TABLET_SCALE[tablet.line === 'mini' ? 'mini' : (tablet.size ?? 13)],
      badge: tablet?.connectivity === 'cellular' ? 'LTE' : undefined,
    };
  }
  // The foldable is drawn open, as wide as the big phones are tall.
  if (family === 'phone-foldable') return { scale: 1 };
  if (!family.startsWith('phone')) return { scale: 1 };
  const variant = PHONE_VARIANT.exec(productId)?.[1];
  return {
    scale: variant === 'mini' ? 0.72 : variant === 'plus' || variant === 'promax' ? 1 : 0.86,
    badge: variant?.startsWith('pro') === true ? 'PRO' : undefined,
  };
}

/** The icon of a product type's family; unknown types show a spinner placeholder. */
export function ProductIcon({ productId, size = 40 }: { productId: string; size?: number }) {
  const family = getProductFamily(productId);
  if (family === undefined) {
    return (
      <span className="product-icon" style={{ width: size, height: size }}>
        <Spinner animation="border" size="sm" role="presentation" aria-hidden="true" />
      </span>
    );
  }
  const { scale, badge } = describeIconVariant(productId, family);
  const drawn = Math.round(size * scale);
  return (
    <span className="product-icon" style={{ width: size, height: size }}>
      <img src={FAMILY_ICON_URLS[family]} alt="" width={drawn} height={drawn} />
      {badge === undefined ? null : (
        <span className="product-icon-badge" aria-hidden="true">
          {badge}
        </span>
      )}
    </span>
  );
}
