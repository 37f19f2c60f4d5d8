import { isWatchKitType, WATCH_KIT_NOTE } from '#shared/catalog/watch-kits.ts';
import { ProductIcon } from './product-icon.tsx';

/** One choice in the picker. */
export type PickerProduct = { productId: string; productName: string };

/**
 * A row of product-type icons; the selected one is underlined and named below, with the note
 * that an Apple Watch's stock can't be watched yet when one is selected.
 */
export function ProductPicker({
  products,
  selectedId,
  onSelect,
}: {
  products: readonly PickerProduct[];
  selectedId: string | null;
  onSelect: (productId: string) => void;
}) {
  const selected = products.find((product) => product.productId === selectedId);
  const isWatchKit = selected !== undefined && isWatchKitType(selected.productId);
  return (
    <div>
      <div className="product-picker d-flex flex-wrap gap-2" role="group" aria-label="Product type">
        {products.map((product) => {
          const isSelected = product.productId === selectedId;
          return (
            <button
              key={product.productId}
              type="button"
              className={`product-picker-option btn btn-link p-1${isSelected ? ' is-selected' : ''}`}
              aria-pressed={isSelected}
              aria-label={product.productName}
              title={product.productName}
              onClick={() => onSelect(product.productId)}
            >
              <ProductIcon productId={product.productId} />
            </button>
          );
        })}
      </div>
      <p className={`fw-semibold mt-2 ${isWatchKit ? 'mb-1' : 'mb-3'}`}>
        {selected?.productName ?? ''}
      </p>
      {isWatchKit ? <p className="small text-body-secondary mb-3">{WATCH_KIT_NOTE}</p> : null}
    </div>
  );
}
