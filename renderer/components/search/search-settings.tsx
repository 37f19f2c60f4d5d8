import { useMemo } from 'react';
import Form from 'react-bootstrap/Form';
import OverlayTrigger from 'react-bootstrap/OverlayTrigger';
import Tooltip from 'react-bootstrap/Tooltip';
import Select from 'react-select';
import type { Product, Store } from '#shared/api/catalog.ts';
import type { Search } from '#shared/api/searches.ts';
import { isWatchKitType, WATCH_KIT_NOTE } from '#shared/catalog/watch-kits.ts';
import { isMissingPreferredModel, type SettingChange } from '#shared/domain/search-settings.ts';
import {
  SELECT_MENU_PROPS,
  filterStoreOption,
  toProductOptions,
  toStoreOptions,
} from './select-options.ts';
import { DistanceLimitField } from './distance-limit-field.tsx';
import { formatProductOption } from './product-option-label.tsx';
import { isSoldAtStore } from './product-availability.ts';

/** Spec texts of the settings panel. */
export const PREFERRED_MODEL_HINT =
  'Notifications are only sent when preferred models are found. Please select at least one preferred model.';
/** Tooltip on the text switch for plans without texts. */
export const TEXT_NOT_ALLOWED_TOOLTIP =
  'Text notifications are only allowed for Premium subscribers.';

/** Said of a search kept in the macOS app, whose alerts are the Mac's own notifications. */
export const MAC_ALERTS_NOTE =
  'Shelfwatch shows a notification on this Mac when a preferred model is in stock.';

/** Where the last save stands: shown as "Saving..." then "Saved". */
export type SaveStatus = 'idle' | 'saving' | 'saved' | 'failed';

/** Search Settings: every control saves the full settings at once and is disabled meanwhile. */
export function SearchSettings({
  search,
  products,
  stores,
  isTextAllowed,
  isLocal = false,
  saveStatus,
  onChange,
}: {
  search: Search;
  products: readonly Product[];
  stores: readonly Store[];
  isTextAllowed: boolean;
  /** A search kept in the macOS app: it alerts on the Mac, not by email or text. */
  isLocal?: boolean;
  saveStatus: SaveStatus;
  onChange: (change: SettingChange) => void;
}) {
  const isSaving = saveStatus === 'saving';
  // Only what a search may move to: types sold in its store's country and stores in the
  // countries where its type is sold, besides its own type and store (kept even once retired).
  const productOptions = useMemo(() => {
    const store = stores.find((candidate) => candidate.store_id === search.store_id);
    return toProductOptions(
      products.filter(
        (product) =>
          product.product_id === search.product_type ||
          store === undefined ||
          isSoldAtStore(product, store),
      ),
    );
  }, [products, stores, search.product_type, search.store_id]);
  const storeOptions = useMemo(() => {
    const product = products.find((candidate) => candidate.product_id === search.product_type);
    return toStoreOptions(
      stores.filter(
        (store) =>
          store.store_id === search.store_id ||
          product === undefined ||
          isSoldAtStore(product, store),
      ),
    );
  }, [products, stores, search.product_type, search.store_id]);
  const preferred = search.product_models
    .filter((model) => model.is_preferred)
    .map((model) => model.part_number);
  // A local search always notifies, so without a preferred model it would never say a word.
  const isHintShown = isLocal ? preferred.length === 0 : isMissingPreferredModel(search);

  const flagSwitch = (field: Extract<SettingChange, { kind: 'flag' }>['field'], label: string) => (
    <Form.Check
      type="switch"
      id={`setting-${field}`}
      label={label}
      checked={search[field]}
      disabled={isSaving}
      onChange={(event) => onChange({ kind: 'flag', field, value: event.target.checked })}
    />
  );

  return (
    <Form onSubmit={(event) => event.preventDefault()} aria-busy={isSaving}>
      <p className="small mb-3" role="status" aria-live="polite">
        {saveStatus === 'saving' ? 'Saving...' : null}
        {saveStatus === 'saved' ? 'Saved' : null}
        {saveStatus === 'failed' ? (
          <span className="text-danger">Couldn't save that change. Please try again.</span>
        ) : null}
      </p>
      <Form.Group className="mb-3">
        <Form.Label htmlFor="setting-product">Product type</Form.Label>
        <Select
          classNamePrefix="sw-select"
          inputId="setting-product"
          options={productOptions}
          value={productOptions.find((option) => option.value === search.product_type) ?? null}
          onChange={(option) =>
            option !== null && onChange({ kind: 'productType', productType: option.value })
          }
          formatOptionLabel={formatProductOption}
          isDisabled={isSaving}
          {...SELECT_MENU_PROPS}
        />
        {isWatchKitType(search.product_type) ? <Form.Text>{WATCH_KIT_NOTE}</Form.Text> : null}
      </Form.Group>
      <Form.Group className="mb-3">
        <Form.Label htmlFor="setting-store">Store</Form.Label>
        <Select
          classNamePrefix="sw-select"
          inputId="setting-store"
          options={storeOptions}
          value={storeOptions.find((option) => option.value === search.store_id) ?? null}
          onChange={(option) =>
            option !== null && onChange({ kind: 'store', storeId: option.value })
          }
          filterOption={filterStoreOption}
          isDisabled={isSaving}
          {...SELECT_MENU_PROPS}
        />
      </Form.Group>
      {flagSwitch('include_nearby_store_results', 'Include nearby store results')}
      {search.include_nearby_store_results ? (
        <DistanceLimitField
          id="setting-max-distance"
          className="ms-4 my-2"
          labelClassName="small mb-1"
          size="sm"
          label="Only stores within N miles (optional)"
          miles={search.max_distance_miles}
          isDisabled={isSaving}
          onCommit={(miles) => onChange({ kind: 'maxDistance', miles })}
        />
      ) : null}
      {flagSwitch('show_results_only_for_preferred_models', 'Show only preferred models')}
      {isLocal ? (
        <p className="small text-body-secondary mt-2 mb-1">{MAC_ALERTS_NOTE}</p>
      ) : (
        <>
          {isTextAllowed ? (
            flagSwitch('send_text_updates', 'Send text updates')
          ) : (
            <OverlayTrigger
              placement="top"
              overlay={<Tooltip id="text-not-allowed">{TEXT_NOT_ALLOWED_TOOLTIP}</Tooltip>}
            >
              <span
                className="d-inline-block"
                tabIndex={0}
                aria-describedby="text-not-allowed-help"
              >
                <Form.Check
                  type="switch"
                  id="setting-send_text_updates"
                  label="Send text updates"
                  checked={false}
                  disabled
                  readOnly
                />
                <span id="text-not-allowed-help" className="visually-hidden">
                  {TEXT_NOT_ALLOWED_TOOLTIP}
                </span>
              </span>
            </OverlayTrigger>
          )}
          {flagSwitch('send_email_updates', 'Send email updates')}
        </>
      )}
      {isHintShown ? (
        <p className="small text-warning-emphasis mt-2 mb-0" role="note">
          {PREFERRED_MODEL_HINT}
        </p>
      ) : null}
      <fieldset className="mt-3" disabled={isSaving}>
        <legend className="fs-6 fw-semibold">Preferred models</legend>
        {search.product_models.length === 0 ? (
          <p className="small text-body-secondary">No models listed yet.</p>
        ) : null}
        {search.product_models.map((model) => (
          <Form.Check
            key={model.part_number}
            type="checkbox"
            id={`preferred-${model.part_number}`}
            label={model.display_name}
            checked={model.is_preferred}
            onChange={(event) =>
              onChange({
                kind: 'preferredModels',
                partNumbers: event.target.checked
                  ? [...preferred, model.part_number]
                  : preferred.filter((partNumber) => partNumber !== model.part_number),
              })
            }
          />
        ))}
      </fieldset>
    </Form>
  );
}
