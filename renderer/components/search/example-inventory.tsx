import { useDeferredValue, useMemo, useState } from 'react';
import Card from 'react-bootstrap/Card';
import type { Country, Product, Store } from '#shared/api/catalog.ts';
import type { ExampleInventoryEntry } from '#shared/api/inventory.ts';
import { buildExampleStoreCards } from '#shared/domain/store-labels.ts';
import {
  useCountries,
  useExampleInventory,
  useProducts,
  useStores,
} from '#renderer/api/catalog-queries.ts';
import { ProductPicker } from './product-picker.tsx';

// A row of four on wide screens; on a phone four cards already fill a screen.
const INITIAL_CARD_COUNT = 4;
// A picker button: a 40 px icon, 4 px padding around it and its 3 px underline.
const PICKER_PLACEHOLDER_SIZE = { width: 48, height: 51 };

/**
 * The example inventory's shape while it loads (and in the pre-rendered page): picker, four
 * cards and the two lists as grey bars, about as tall as what replaces them, so the page does
 * not jump when the data arrives.
 */
function ExampleInventorySkeleton() {
  return (
    <div className="placeholder-glow" role="status" aria-live="polite">
      <span className="visually-hidden">Loading example inventory...</span>
      <div className="d-flex flex-wrap gap-2" aria-hidden="true">
        {Array.from({ length: 6 }, (_, index) => (
          <span key={index} className="placeholder rounded" style={PICKER_PLACEHOLDER_SIZE} />
        ))}
      </div>
      <p className="mt-2 mb-3" aria-hidden="true">
        <span className="placeholder col-4 col-md-2" />
      </p>
      <div className="example-store-grid mb-3" aria-hidden="true">
        {Array.from({ length: INITIAL_CARD_COUNT }, (_, index) => (
          <div key={index} className="card example-store-card">
            <div className="card-body">
              <p className="h6 mb-1">
                <span className="placeholder col-8" />
              </p>
              <p className="small mb-1">
                <span className="placeholder col-6" />
              </p>
              <p className="small mb-0">
                <span className="placeholder col-4" />
              </p>
            </div>
          </div>
        ))}
      </div>
      <div className="row" aria-hidden="true">
        <div className="col-md-6 col-lg-8">
          <p className="h5">Product support</p>
          <span className="placeholder col-10" />
        </div>
        <div className="col-md-6 col-lg-4">
          <p className="h5">Country support</p>
          <span className="placeholder col-8" />
        </div>
      </div>
    </div>
  );
}

/** The landing page's example inventory: product picker, store cards, supported lists. */
export function ExampleInventory() {
  const examples = useExampleInventory();
  const products = useProducts();
  const stores = useStores();
  const countries = useCountries();
  const isPending =
    examples.isPending || products.isPending || stores.isPending || countries.isPending;
  // The loaded inventory (cards built from every store, two long lists) is rendered as a
  // deferred update: React draws it in slices between the browser's own work instead of in one
  // long task when the last answer arrives (a slow phone's total blocking time, issue 30).
  // Data already cached when the page mounts (back from another page) shows at once.
  const isShowingSkeleton = useDeferredValue(isPending);
  if (isShowingSkeleton || isPending) {
    return <ExampleInventorySkeleton />;
  }
  if (!examples.isSuccess || !products.isSuccess || !stores.isSuccess || !countries.isSuccess) {
    return <p className="text-body-secondary">Example inventory isn't available right now.</p>;
  }
  return (
    <LoadedExampleInventory
      examples={examples.data}
      products={products.data}
      stores={stores.data}
      countries={countries.data}
    />
  );
}

/** The example inventory once its four reads have answered. */
function LoadedExampleInventory({
  examples,
  products,
  stores,
  countries,
}: {
  examples: readonly ExampleInventoryEntry[];
  products: readonly Product[];
  stores: readonly Store[];
  countries: readonly Country[];
}) {
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [isShowingAll, setIsShowingAll] = useState(false);

  const pickerProducts = useMemo(() => {
    const names = new Map(products.map((product) => [product.product_id, product.product_name]));
    return examples.map((entry) => ({
      productId: entry.product_type,
      productName: names.get(entry.product_type) ?? entry.product_type,
    }));
  }, [examples, products]);

  // The first product type is selected until the visitor picks another.
  const selectedId = chosenId ?? pickerProducts[0]?.productId ?? null;
  const selectedEntry = examples.find((entry) => entry.product_type === selectedId);
  const cards = useMemo(
    () => buildExampleStoreCards(selectedEntry?.inventory ?? [], stores, countries),
    [selectedEntry, stores, countries],
  );

  return (
    <>
      <ProductPicker products={pickerProducts} selectedId={selectedId} onSelect={setChosenId} />
      {cards.length === 0 ? (
        <p className="text-body-secondary mb-4">
          {pickerProducts.length === 0
            ? 'Example inventory will show here as soon as Shelfwatch has seen some stock.'
            : 'No stores to show for this product yet.'}
        </p>
      ) : (
        <div className="example-store-grid mb-3" id="example-store-cards">
          {(isShowingAll ? cards : cards.slice(0, INITIAL_CARD_COUNT)).map((card) => (
            <Card key={card.storeId} className="example-store-card">
              <Card.Body>
                <Card.Title as="h3" className="h6 mb-1">
                  {card.storeName}
                </Card.Title>
                <Card.Text className="small text-body-secondary mb-1">{card.location}</Card.Text>
                <Card.Text className="small mb-0">{card.typesText}</Card.Text>
              </Card.Body>
            </Card>
          ))}
        </div>
      )}
      {cards.length > INITIAL_CARD_COUNT ? (
        <div className="text-center mb-4">
          <button
            type="button"
            className="btn btn-outline-secondary btn-sm"
            aria-expanded={isShowingAll}
            aria-controls="example-store-cards"
            onClick={() => setIsShowingAll(!isShowingAll)}
          >
            {isShowingAll ? 'Show fewer stores' : `Show all ${cards.length} stores`}
          </button>
        </div>
      ) : null}
      {/* Products get two thirds: their longest names fit a column there without wrapping. */}
      <div className="row">
        <div className="col-md-6 col-lg-8">
          <h3 className="h5">Product support</h3>
          <ul className="support-list">
            {products.map((product) => (
              <li key={product.product_id}>{product.product_name}</li>
            ))}
          </ul>
        </div>
        <div className="col-md-6 col-lg-4">
          <h3 className="h5">Country support</h3>
          <ul className="support-list">
            {countries.map((country) => (
              <li key={country.locale_code}>{country.display_name}</li>
            ))}
          </ul>
        </div>
      </div>
    </>
  );
}
