import { useEffect, useState } from 'react';
import Accordion from 'react-bootstrap/Accordion';
import Breadcrumb from 'react-bootstrap/Breadcrumb';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { Search } from '#shared/api/searches.ts';
import { formatLastChecked } from '#shared/domain/last-checked.ts';
import { applySettingChange, type SettingChange } from '#shared/domain/search-settings.ts';
import { formatSearchLocation } from '#shared/domain/store-options.ts';
import { useMyAccount } from '../api/account-queries.ts';
import { describeRequestError, readErrorBody, readErrorStatus } from '../api/api-errors.ts';
import { useProducts, useStores } from '../api/catalog-queries.ts';
import {
  useIsLocalSearch,
  useSearch,
  useSearchInventory,
  useUpdateSearch,
} from '../api/search-queries.ts';
import { useAuth } from '../auth/auth-context.tsx';
import { useSearchHistory, useWatchStatus } from '../api/watch-queries.ts';
import { BrowserNotificationsSwitch } from '#renderer/components/account/browser-notifications-switch.tsx';
import { DeleteSearchModal } from '#renderer/components/search/delete-search-modal.tsx';
import { InventoryList } from '#renderer/components/search/inventory-list.tsx';
import { NotFoundMessage } from '#renderer/components/layout/not-found-message.tsx';
import {
  NoLongerSoldBadge,
  includeSearchProduct,
  isNoLongerSold,
} from '#renderer/components/search/no-longer-sold.tsx';
import {
  PausedBadge,
  PausedSearchNotice,
} from '#renderer/components/search/paused-search-notice.tsx';
import { ProductIcon } from '#renderer/components/search/product-icon.tsx';
import { RestockHistory } from '#renderer/components/search/restock-history.tsx';
import { SearchChannels } from '#renderer/components/search/search-channels.tsx';
import { formatAge, latestTime } from '#renderer/components/search/restock-history-data.ts';
import {
  nameChangedControl,
  SearchSettings,
  type SaveState,
} from '#renderer/components/search/search-settings.tsx';
import { SpinnerScreen } from '#renderer/components/layout/spinner-screen.tsx';
import { useMediaQuery } from '#renderer/components/hooks/use-media-query.ts';
import { useNow } from '#renderer/components/hooks/use-now.ts';
import { usePageTitle } from '#renderer/components/hooks/use-page-title.ts';
import { useHost } from '../host/host-context.tsx';

/** Shown while checks fail: stock on screen is the last seen, and alerts may come late. */
export const DELAYED_WARNING = 'Checks are failing right now, so alerts may be delayed.';

/** /search/{searchId} */
export function SearchDetailRoute() {
  const { searchId = '' } = useParams();
  const navigate = useNavigate();
  const search = useSearch(searchId);
  const status = search.isError ? readErrorStatus(search.error) : undefined;
  usePageTitle(search.data?.product_name ?? 'Search');

  // Spec: a 403 (no paid plan) sends the user home.
  useEffect(() => {
    if (status === 403) void navigate('/', { replace: true });
  }, [status, navigate]);

  if (search.isPending || status === 403) {
    return <SpinnerScreen label="Loading search..." />;
  }
  if (search.isError) {
    // 404: unknown or someone else's search; 400: not even a search id.
    return status === 404 || status === 400 ? (
      <NotFoundMessage
        title="Search not found"
        text="This search doesn't exist or isn't yours. It may have been deleted."
        linkTo="/"
        linkText="Back to My Searches"
      />
    ) : (
      <NotFoundMessage
        title="This search couldn't be loaded"
        text={describeRequestError(
          search.error,
          'Something went wrong while loading this search. Please try again in a moment.',
        )}
        linkTo="/"
        linkText="Back to My Searches"
      />
    );
  }
  return <SearchDetail search={search.data} />;
}

/**
 * "Last checked N minutes ago"; while checks fail the list is the last stock seen, so it
 * reads "as of N minutes ago" instead of passing for current.
 */
function describeCheckTime(lastCheckedAt: string | null, isDelayed: boolean, now: Date) {
  if (!isDelayed) return formatLastChecked(lastCheckedAt, now);
  const age = formatAge(lastCheckedAt, now);
  return age === null ? null : `as of ${age}`;
}

/** The loaded search: header, settings, live inventory and restock history. */
function SearchDetail({ search }: { search: Search }) {
  const navigate = useNavigate();
  const isLarge = useMediaQuery('(min-width: 992px)');
  const now = useNow();
  const inventory = useSearchInventory(search.search_id, true);
  const history = useSearchHistory(search.search_id);
  // A failed status request says nothing about the checks: only a "delayed" answer warns.
  const watchStatus = useWatchStatus();
  const host = useHost();
  const auth = useAuth();
  // A search kept on the Mac alerts natively; an account's search by email and text.
  const isLocal = useIsLocalSearch(search.search_id).data ?? host.kind === 'desktop';
  const account = useMyAccount(!isLocal && auth.isAuthenticated);
  const products = useProducts();
  const stores = useStores();
  const update = useUpdateSearch(search.search_id);
  const searchStore = stores.data?.find((store) => store.store_id === search.store_id);
  const [saveState, setSaveState] = useState<SaveState>({ status: 'idle', control: null });
  const [isDeleteOpen, setIsDeleteOpen] = useState(false);

  // The cached search shows the change at once (useUpdateSearch) and rolls back on failure;
  // the status shows beside the control that made it.
  const changeSetting = (change: SettingChange, changedControl?: string) => {
    const control = changedControl ?? nameChangedControl(change);
    setSaveState({ status: 'saving', control });
    update.mutate(applySettingChange(search, change), {
      onSuccess: () => setSaveState({ status: 'saved', control }),
      onError: (error) => {
        console.error('Search settings could not be saved', error);
        setSaveState({
          status: 'failed',
          control,
          error: describeRequestError(
            error,
            readErrorBody(error).reason ?? "Couldn't save that change. Please try again.",
          ),
        });
      },
    });
  };

  const settings = (
    <>
      <SearchSettings
        key={`${search.product_type}-${search.store_id}`}
        search={search}
        products={includeSearchProduct(products.data ?? [], search, searchStore)}
        stores={stores.data ?? []}
        isTextAllowed={account.data?.capabilities.text_notifications_allowed ?? false}
        hasPhoneNumber={(account.data?.phone_number ?? '') !== ''}
        isLocal={isLocal}
        saveState={saveState}
        onChange={changeSetting}
      />
      {/* Web push is the website's own channel; the macOS app notifies natively. */}
      {host.kind === 'web' ? (
        <>
          <hr />
          <BrowserNotificationsSwitch />
        </>
      ) : null}
      {/* The account's own channels (ntfy, Discord, ...) serve account searches only. */}
      {isLocal ? null : (
        <>
          <hr />
          <SearchChannels searchId={search.id} />
        </>
      )}
    </>
  );
  // Inventory and history read the same coverage time; whichever answered last knows best.
  const lastCheckedAt = latestTime(inventory.data?.last_checked_at, history.data?.last_checked_at);
  const isDelayed =
    inventory.data?.is_stale === true ||
    history.data?.is_stale === true ||
    watchStatus.data?.is_delayed === true;
  const lastChecked = describeCheckTime(lastCheckedAt, isDelayed, now);

  return (
    <>
      <Breadcrumb>
        <Breadcrumb.Item linkAs={Link} linkProps={{ to: '/' }}>
          My Searches
        </Breadcrumb.Item>
        <Breadcrumb.Item active>{search.product_name}</Breadcrumb.Item>
      </Breadcrumb>
      {/* On a phone the button wraps below rather than squeezing the title and place into
          broken lines (and itself onto two). */}
      <header className="d-flex flex-wrap align-items-center column-gap-3 row-gap-2 mb-4">
        <div className="d-flex align-items-center gap-3 flex-grow-1 min-w-0">
          <ProductIcon productId={search.product_type} size={56} />
          <div className="min-w-0">
            <h1 className="h3 mb-0 d-flex align-items-center gap-2">
              {search.product_name}
              {search.is_paused === true ? <PausedBadge /> : null}
              {isNoLongerSold(search.product_type, products.data, searchStore) ? (
                <NoLongerSoldBadge />
              ) : null}
            </h1>
            <p className="text-body-secondary mb-0" data-testid="search-location">
              {formatSearchLocation(search)}
            </p>
          </div>
        </div>
        <Button
          variant="outline-danger"
          size="sm"
          className="text-nowrap ms-auto"
          onClick={() => setIsDeleteOpen(true)}
        >
          Delete search
        </Button>
      </header>
      {search.is_paused === true ? (
        <div className="alert alert-secondary py-2">
          <PausedSearchNotice className="mb-0" />
        </div>
      ) : null}
      {isDelayed ? (
        <div className="alert alert-warning py-2" role="status">
          {DELAYED_WARNING}
        </div>
      ) : null}
      <div className="row g-4">
        <div className="col-lg-5">
          {isLarge ? (
            <Card>
              <Card.Header as="h2" className="h6">
                Search Settings
              </Card.Header>
              <Card.Body>{settings}</Card.Body>
            </Card>
          ) : (
            <Accordion>
              <Accordion.Item eventKey="settings">
                <Accordion.Header as="h2">Search Settings</Accordion.Header>
                <Accordion.Body>{settings}</Accordion.Body>
              </Accordion.Item>
            </Accordion>
          )}
        </div>
        <div className="col-lg-7">
          <section aria-labelledby="inventory-heading">
            <div className="d-flex flex-wrap justify-content-between align-items-baseline column-gap-3">
              <h2 id="inventory-heading" className="h5 text-nowrap">
                {isDelayed ? 'Last known stock' : 'Available now'}
              </h2>
              {lastChecked === null ? null : (
                <span className="small text-body-secondary mb-2" data-testid="last-checked">
                  {lastChecked}
                </span>
              )}
            </div>
            {inventory.isPending ? <SpinnerScreen label="Loading inventory..." /> : null}
            {inventory.isError ? (
              <p className="text-danger" role="alert">
                {describeRequestError(
                  inventory.error,
                  "Inventory couldn't be loaded right now. It will refresh automatically.",
                )}
              </p>
            ) : null}
            {inventory.data === undefined ? null : <InventoryList stores={inventory.data.stores} />}
          </section>
          <RestockHistory
            history={history.data}
            productName={search.product_name}
            isPending={history.isPending}
            isError={history.isError}
            now={now}
          />
        </div>
      </div>
      <DeleteSearchModal
        searchId={isDeleteOpen ? search.search_id : null}
        onClose={() => setIsDeleteOpen(false)}
        onDeleted={() => void navigate('/', { replace: true })}
      />
    </>
  );
}
