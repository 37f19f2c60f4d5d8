import { useMemo } from 'react';
import Form from 'react-bootstrap/Form';
import OverlayTrigger from 'react-bootstrap/OverlayTrigger';
import Tooltip from 'react-bootstrap/Tooltip';
import { Link } from 'react-router-dom';
import Select from 'react-select';
import type { Product, Store } from '#shared/api/catalog.ts';
import type { Search } from '#shared/api/searches.ts';
import { isWatchKitType, WATCH_KIT_NOTE } from '#shared/catalog/watch-kits.ts';
import { sortModelsBySize } from '#shared/domain/model-order.ts';
import { isMissingPreferredModel, type SettingChange } from '#shared/domain/search-settings.ts';
import {
  SELECT_MENU_PROPS,
  filterStoreOption,
  toProductOptions,
  toStoreOptions,
} from './select-options.ts';
import { DistanceLimitField } from './distance-limit-field.tsx';
import { AlertCadenceField } from './alert-cadence-field.tsx';
import { DEFAULT_NEARBY_DISTANCE } from '#shared/domain/alert-distance.ts';
import { formatProductOption } from './product-option-label.tsx';
import { describeSoldOnlyAbroad, isSoldAtStore, isStoreOpen } from './product-availability.ts';

/** Spec texts of the settings panel. */
export const PREFERRED_MODEL_HINT =
  'Notifications are only sent when preferred models are found. Please select at least one preferred model.';
/** Tooltip on the text switch for plans without texts. */
export const TEXT_NOT_ALLOWED_TOOLTIP =
  'Text notifications are only allowed for Premium subscribers.';

/** Said of a search kept in the macOS app, whose alerts are the Mac's own notifications. */
export const MAC_ALERTS_NOTE =
  'Shelfwatch shows a notification on this Mac when a preferred model is in stock.';

/** Said instead of the text switch while the account has no phone number to text. */
export const TEXT_NEEDS_PHONE_NOTE = 'Text updates need a phone number.';

/** Where the last save stands: shown as "Saving..." then "Saved". */
export type SaveStatus = 'idle' | 'saving' | 'saved' | 'failed';

/** The last save and the control it came from, whose status shows beside that control. */
export type SaveState = { status: SaveStatus; control: string | null; error?: string };

/** The control a change came from when the caller names none (one per setting). */
export function nameChangedControl(change: SettingChange): string {
  switch (change.kind) {
    case 'productType':
      return 'product';
    case 'store':
      return 'store';
    case 'flag':
      return change.field;
    case 'maxDistance':
      return 'max_distance_miles';
    case 'alertCadence':
      return 'alert_cadence_minutes';
    case 'preferredModels':
      return 'preferred_models';
  }
}

/** "Saving..." / "Saved" / the error, shown beside the control that changed. */
function SaveStatusNote({ saveState, control }: { saveState: SaveState; control: string }) {
  if (saveState.control !== control || saveState.status === 'idle') return null;
  return (
    <span className="small ms-2 save-status" role="status" data-testid={`save-status-${control}`}>
      {saveState.status === 'saving' ? 'Saving...' : null}
      {saveState.status === 'saved' ? 'Saved' : null}
      {saveState.status === 'failed' ? (
        <span className="text-danger">
          {saveState.error ?? "Couldn't save that change. Please try again."}
        </span>
      ) : null}
    </span>
  );
}

/** Search Settings: every control saves the full settings at once and is disabled meanwhile. */
export function SearchSettings({
  search,
  products,
  stores,
  isTextAllowed,
  hasPhoneNumber = true,
  isLocal = false,
  saveState,
  onChange,
}: {
  search: Search;
  products: readonly Product[];
  stores: readonly Store[];
  isTextAllowed: boolean;
  /** Whether the account has a phone number to text; without one texts can't be turned on. */
  hasPhoneNumber?: boolean;
  /** A search kept in the macOS app: it alerts on the Mac, not by email or text. */
  isLocal?: boolean;
  saveState: SaveState;
  /** `control` names where the change was made; nameChangedControl(change) when left out. */
  onChange: (change: SettingChange, control?: string) => void;
}) {
  const isSaving = saveState.status === 'saving';
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
          (isStoreOpen(store) && (product === undefined || isSoldAtStore(product, store))),
      ),
    );
  }, [products, stores, search.product_type, search.store_id]);
  const soldOnlyAbroad = useMemo(
    () =>
      describeSoldOnlyAbroad(
        products.find((candidate) => candidate.product_id === search.product_type),
      ),
    [products, search.product_type],
  );
  const models = useMemo(() => sortModelsBySize(search.product_models), [search.product_models]);
  const preferred = search.product_models
    .filter((model) => model.is_preferred)
    .map((model) => model.part_number);
  // A local search always notifies, so without a preferred model it would never say a word.
  const isHintShown = isLocal ? preferred.length === 0 : isMissingPreferredModel(search);

  const flagSwitch = (
    field: Extract<SettingChange, { kind: 'flag' }>['field'],
    label: string,
    isBlocked = false,
  ) => (
    <div className="d-flex align-items-center flex-wrap">
      <Form.Check
        type="switch"
        id={`setting-${field}`}
        label={label}
        checked={search[field]}
        disabled={isSaving || isBlocked}
        onChange={(event) => onChange({ kind: 'flag', field, value: event.target.checked })}
      />
      <SaveStatusNote saveState={saveState} control={field} />
    </div>
  );
  // Texts can always be turned off; turning them on needs a number to send them to.
  const isTextBlocked = !hasPhoneNumber && !search.send_text_updates;

  return (
    <Form onSubmit={(event) => event.preventDefault()} aria-busy={isSaving}>
      <Form.Group className="mb-3">
        <Form.Label htmlFor="setting-product">Product type</Form.Label>
        <SaveStatusNote saveState={saveState} control="product" />
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
        <SaveStatusNote saveState={saveState} control="store" />
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
        {soldOnlyAbroad === null ? null : (
          <Form.Text as="p" className="d-block mb-0" data-testid="sold-only-abroad">
            {soldOnlyAbroad}
          </Form.Text>
        )}
      </Form.Group>
      {flagSwitch('include_nearby_store_results', 'Include nearby store results')}
      {search.include_nearby_store_results ? (
        <DistanceLimitField
          key={search.distance_unit ?? 'mi'}
          id="setting-max-distance"
          className="ms-4 my-2"
          labelClassName="small mb-1"
          size="sm"
          label={`Only stores within (${search.distance_unit === 'km' ? 'km' : 'miles'})`}
          help={
            isLocal
              ? `Notifications never name a store farther away. Empty: the default in Settings, else ${DEFAULT_NEARBY_DISTANCE[search.distance_unit ?? 'mi']} ${search.distance_unit ?? 'mi'}.`
              : `Alerts never name a store farther away. Default ${DEFAULT_NEARBY_DISTANCE[search.distance_unit ?? 'mi']} ${search.distance_unit ?? 'mi'}; empty means any distance.`
          }
          unit={search.distance_unit ?? 'mi'}
          miles={search.max_distance_miles}
          isDisabled={isSaving}
          onCommit={(miles) => onChange({ kind: 'maxDistance', miles })}
        />
      ) : null}
      <SaveStatusNote saveState={saveState} control="max_distance_miles" />
      {flagSwitch('show_results_only_for_preferred_models', 'Show only preferred models')}
      {isLocal ? (
        <p className="small text-body-secondary mt-2 mb-1">{MAC_ALERTS_NOTE}</p>
      ) : (
        <>
          {isTextAllowed ? (
            <>
              {flagSwitch('send_text_updates', 'Send text updates', isTextBlocked)}
              {isTextBlocked ? (
                <p className="small text-body-secondary ms-4 mb-1" data-testid="text-needs-phone">
                  {TEXT_NEEDS_PHONE_NOTE} <Link to="/account">Add one in My Account</Link>
                </p>
              ) : null}
            </>
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
      {search.alert_cadence_minutes === undefined ? null : (
        <>
          <AlertCadenceField
            className="mt-2"
            minutes={search.alert_cadence_minutes}
            isDisabled={isSaving}
            isLocal={isLocal}
            onCommit={(minutes) => onChange({ kind: 'alertCadence', minutes })}
          />
          <SaveStatusNote saveState={saveState} control="alert_cadence_minutes" />
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
        {models.map((model) => (
          <div key={model.part_number} className="d-flex align-items-center flex-wrap">
            <Form.Check
              type="checkbox"
              id={`preferred-${model.part_number}`}
              label={model.display_name}
              checked={model.is_preferred}
              onChange={(event) =>
                onChange(
                  {
                    kind: 'preferredModels',
                    partNumbers: event.target.checked
                      ? [...preferred, model.part_number]
                      : preferred.filter((partNumber) => partNumber !== model.part_number),
                  },
                  `preferred-${model.part_number}`,
                )
              }
            />
            <SaveStatusNote saveState={saveState} control={`preferred-${model.part_number}`} />
          </div>
        ))}
      </fieldset>
    </Form>
  );
}
