import { useEffect, useState } from 'react';
import Accordion from 'react-bootstrap/Accordion';
import Breadcrumb from 'react-bootstrap/Breadcrumb';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { Search } from '#shared/api/searches.ts';
import { formatLastChecked } from '#shared/domain/last-checked.ts';
import { applySettingChange, type SettingChange } from '#shared/domain/search-settings.ts';
import { formatSearchLocation } from '#shared/domain/store-labels.ts';
import { useMyAccount } from '../api/account-queries.ts';
import { readErrorStatus } from '../api/api-errors.ts';
import { useProducts, useStores } from '../api/catalog-queries.ts';
import { useSearch, useSearchInventory, useUpdateSearch } from '../api/search-queries.ts';
import { DeleteSearchModal } from '../components/delete-search-modal.tsx';
import { InventoryList } from '../components/inventory-list.tsx';
import { NotFoundMessage } from '../components/not-found-message.tsx';
import { ProductIcon } from '../components/product-icon.tsx';
import { SearchSettings, type SaveStatus } from '../components/search-settings.tsx';
import { SpinnerScreen } from '../components/spinner-screen.tsx';
import { useMediaQuery } from '../components/use-media-query.ts';
import { usePageTitle } from '../components/use-page-title.ts';

/** A clock that ticks every 30 s so "Last checked N minutes ago" stays true. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

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
        text="Something went wrong while loading this search. Please try again in a moment."
        linkTo="/"
        linkText="Back to My Searches"
      />
    );
  }
  return <SearchDetail search={search.data} />;
}

/** The loaded search: header, settings and live inventory. */
function SearchDetail({ search }: { search: Search }) {
  const navigate = useNavigate();
  const isLarge = useMediaQuery('(min-width: 992px)');
  const now = useNow();
  const inventory = useSearchInventory(search.search_id, true);
  const account = useMyAccount();
  const products = useProducts();
  const stores = useStores();
  const update = useUpdateSearch(search.search_id);
  const [saveStatus, setSaveStatus] = useState<SaveStatus>('idle');
  const [isDeleteOpen, setIsDeleteOpen] = useState(false);

  const changeSetting = (change: SettingChange) => {
    setSaveStatus('saving');
    update.mutate(applySettingChange(search, change), {
      onSuccess: () => setSaveStatus('saved'),
      onError: (error) => {
        console.error('Search settings could not be saved', error);
        setSaveStatus('failed');
      },
    });
  };

  const settings = (
    <SearchSettings
      key={`${search.product_type}-${search.store_id}`}
      search={search}
      products={products.data ?? []}
      stores={stores.data ?? []}
      isTextAllowed={account.data?.capabilities.text_notifications_allowed ?? false}
      saveStatus={saveStatus}
      onChange={changeSetting}
    />
  );
  const lastChecked = formatLastChecked(inventory.data?.last_checked_at ?? null, now);

  return (
    <>
      <Breadcrumb>
        <Breadcrumb.Item linkAs={Link} linkProps={{ to: '/' }}>
          My Searches
        </Breadcrumb.Item>
        <Breadcrumb.Item active>{search.product_name}</Breadcrumb.Item>
      </Breadcrumb>
      <header className="d-flex align-items-center gap-3 mb-4">
        <ProductIcon productId={search.product_type} size={56} />
        <div className="flex-grow-1">
          <h1 className="h3 mb-0">{search.product_name}</h1>
          <p className="text-body-secondary mb-0">{formatSearchLocation(search)}</p>
        </div>
        <Button variant="outline-danger" size="sm" onClick={() => setIsDeleteOpen(true)}>
          Delete search
        </Button>
      </header>
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
        <section className="col-lg-7" aria-labelledby="inventory-heading">
          <div className="d-flex justify-content-between align-items-baseline">
            <h2 id="inventory-heading" className="h5">
              Available now
            </h2>
            {lastChecked === null ? null : (
              <span className="small text-body-secondary">{lastChecked}</span>
            )}
          </div>
          {inventory.data?.is_stale === true ? (
            <p className="small text-warning-emphasis" role="status">
              Checks for this search are running late, so alerts may be delayed and the stock below
              may be out of date.
            </p>
          ) : null}
          {inventory.isPending ? <SpinnerScreen label="Loading inventory..." /> : null}
          {inventory.isError ? (
            <p className="text-danger" role="alert">
              Inventory couldn't be loaded right now. It will refresh automatically.
            </p>
          ) : null}
          {inventory.data === undefined ? null : <InventoryList stores={inventory.data.stores} />}
        </section>
      </div>
      <DeleteSearchModal
        searchId={isDeleteOpen ? search.search_id : null}
        onClose={() => setIsDeleteOpen(false)}
        onDeleted={() => void navigate('/', { replace: true })}
      />
    </>
  );
}
