import { useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { useNavigate } from 'react-router-dom';
import Select from 'react-select';
import { FREE_LIMIT_REASON } from '#shared/desktop/local-search.ts';
import { describeCreateSearchError, readErrorBody } from '#renderer/api/api-errors.ts';
import { useProducts, useStores } from '#renderer/api/catalog-queries.ts';
import { useCreateSearch } from '#renderer/api/search-queries.ts';
import { useAuth } from '#renderer/auth/auth-context.tsx';
import {
  describeSoldOnlyAbroad,
  listProductsForStore,
  listStoresForProduct,
} from './product-availability.ts';
import { formatProductOption } from './product-option-label.tsx';
import {
  filterStoreOption,
  SELECT_MENU_PROPS,
  toProductOptions,
  toStoreOptions,
  type ProductOption,
  type StoreOption,
} from './select-options.ts';

/** Create New Search: product and store dropdowns; full screen at md and below. */
export function CreateSearchModal({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const products = useProducts();
  const stores = useStores();
  const creation = useCreateSearch();
  const navigate = useNavigate();
  const auth = useAuth();
  const [loginError, setLoginError] = useState<string | null>(null);
  const [product, setProduct] = useState<ProductOption | null>(null);
  const [store, setStore] = useState<StoreOption | null>(null);

  // Each list offers only what is sold with the other's choice: at a US store no type retired
  // in the US, for such a type only stores in the countries still selling it.
  const productOptions = useMemo(
    () => toProductOptions(listProductsForStore(products.data ?? [], store?.store)),
    [products.data, store],
  );
  const storeOptions = useMemo(() => {
    const chosen = products.data?.find((candidate) => candidate.product_id === product?.value);
    return toStoreOptions(listStoresForProduct(stores.data ?? [], chosen));
  }, [stores.data, products.data, product]);
  const soldOnlyAbroad = useMemo(
    () =>
      describeSoldOnlyAbroad(
        products.data?.find((candidate) => candidate.product_id === product?.value),
      ),
    [products.data, product],
  );
  const isBusy = creation.isPending;
  const canCreate = product !== null && store !== null && !isBusy;
  const errorBody = creation.isError ? readErrorBody(creation.error) : {};

  // Closing or cancelling forgets the choices and any earlier error.
  const close = () => {
    if (isBusy) return;
    setProduct(null);
    setStore(null);
    setLoginError(null);
    creation.reset();
    onClose();
  };

  // The app's free search is used up: logging in lifts the limit.
  const login = () => {
    setLoginError(null);
    auth.login('/').catch((error: unknown) => {
      console.error('Login could not start', error);
      setLoginError(error instanceof Error ? error.message : 'Login could not start.');
    });
  };

  const create = () => {
    if (product === null || store === null) return;
    creation.mutate(
      { product_type: product.value, store_id: store.value },
      {
        onSuccess: (created) => {
          if (created?.search_id === undefined) {
            console.error('Create search answered without a search');
            return;
          }
          setProduct(null);
          setStore(null);
          onClose();
          void navigate(`/search/${created.search_id}`);
        },
        onError: (error) => console.error('Search could not be created', readErrorBody(error)),
      },
    );
  };

  return (
    <Modal
      show={isOpen}
      onHide={close}
      fullscreen="md-down"
      centered
      aria-labelledby="create-search-title"
    >
      <Modal.Header closeButton={!isBusy}>
        <Modal.Title id="create-search-title" as="h2" className="h5">
          Create New Search
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Form.Group className="mb-3">
          <Form.Label htmlFor="create-search-product">Select a product</Form.Label>
          <Select<ProductOption>
            classNamePrefix="sw-select"
            inputId="create-search-product"
            options={productOptions}
            value={product}
            onChange={setProduct}
            formatOptionLabel={formatProductOption}
            isClearable
            isLoading={products.isPending}
            isDisabled={isBusy}
            placeholder="Select a product"
            {...SELECT_MENU_PROPS}
          />
          {store !== null && productOptions.length < (products.data?.length ?? 0) ? (
            <Form.Text>Only products sold in this store's country are listed.</Form.Text>
          ) : null}
        </Form.Group>
        <Form.Group className="mb-3">
          <Form.Label htmlFor="create-search-store">Select a store</Form.Label>
          <Select<StoreOption>
            classNamePrefix="sw-select"
            inputId="create-search-store"
            options={storeOptions}
            value={store}
            onChange={setStore}
            isClearable
            filterOption={filterStoreOption}
            isLoading={stores.isPending}
            isDisabled={isBusy}
            placeholder="Select a store"
            {...SELECT_MENU_PROPS}
          />
          <Form.Text>
            Type a store name, city, state or postal code.
            {product !== null && storeOptions.length < (stores.data?.length ?? 0)
              ? ` Only stores in countries where ${product.label} is sold are listed.`
              : null}
          </Form.Text>
          {soldOnlyAbroad === null ? null : (
            <Form.Text as="p" className="d-block mb-0" data-testid="sold-only-abroad">
              {soldOnlyAbroad}
            </Form.Text>
          )}
        </Form.Group>
        {creation.isError ? (
          <>
            <p className="text-danger mb-1" role="alert">
              {describeCreateSearchError(creation.error)}
            </p>
            {errorBody.code === FREE_LIMIT_REASON ? (
              <div className="mt-2">
                <Button variant="outline-primary" size="sm" onClick={login}>
                  Login
                </Button>
                {loginError === null ? null : (
                  <p className="small text-danger mt-1 mb-0" role="alert">
                    {loginError}
                  </p>
                )}
              </div>
            ) : null}
          </>
        ) : null}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={close} disabled={isBusy}>
          Cancel
        </Button>
        <Button variant="primary" onClick={create} disabled={!canCreate}>
          {isBusy ? (
            <>
              <Spinner animation="border" size="sm" aria-hidden="true" className="me-2" />
              Creating...
            </>
          ) : (
            'Create search'
          )}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
