import Spinner from 'react-bootstrap/Spinner';
import { describeTabletVariant, getProductFamily } from '#shared/catalog/families.ts';
import { FAMILY_ICON_URLS } from '../asset-urls.ts';

// Tablets share one drawing; their line and size scale it so a mini looks smaller than a 13-inch Pro.
const TABLET_SCALE = { mini: 0.72, 11: 0.86, 13: 1 } as const;

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
  const tablet = family === 'tablet' ? describeTabletVariant(productId) : undefined;
  const scale =
    tablet === undefined ? 1 : TABLET_SCALE[tablet.line === 'mini' ? 'mini' : (tablet.size ?? 13)];
  const drawn = Math.round(size * scale);
  return (
    <span className="product-icon" style={{ width: size, height: size }}>
      <img src={FAMILY_ICON_URLS[family]} alt="" width={drawn} height={drawn} />
      {tablet?.connectivity === 'cellular' ? (
        <span className="product-icon-badge" aria-hidden="true">
          LTE
        </span>
      ) : null}
    </span>
  );
}
