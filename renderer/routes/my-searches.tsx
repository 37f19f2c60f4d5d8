import { lazy, Suspense, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { describeRequestError } from '../api/api-errors.ts';
import { useProducts, useStores } from '../api/catalog-queries.ts';
import { useMySearches } from '../api/search-queries.ts';
import { loadChunk } from '#renderer/components/layout/chunk-loading.ts';
import { DesktopWatchPanel } from '#renderer/components/desktop/desktop-watch-panel.tsx';
import { isNoLongerSold } from '#renderer/components/search/no-longer-sold.tsx';
import { SearchCard } from '#renderer/components/search/search-card.tsx';
import { SpinnerScreen } from '#renderer/components/layout/spinner-screen.tsx';
import { usePageTitle } from '#renderer/components/hooks/use-page-title.ts';
import { useHost } from '../host/host-context.tsx';
import { TimeZoneDefault } from '#renderer/components/account/time-zone-field.tsx';
import { useSearchModalsStore } from '../state/search-modals-store.ts';

/** Shown when the list can't be loaded (most often: no paid plan, a final 403). */
export const SEARCH_LIST_ERROR_TEXT =
  'An error occurred when attempting to fetch this resource. Please confirm you have an active subscription.';

// react-select only loads once someone opens the create dialog.
const CreateSearchModal = lazy(() =>
  loadChunk(() => import('#renderer/components/search/create-search-modal.tsx')).then((module) => ({
    default: module.CreateSearchModal,
  })),
);
// The dialogs' code (react-bootstrap's Modal) loads when one is first opened, not with the list.
const DeleteSearchModal = lazy(() =>
  loadChunk(() => import('#renderer/components/search/delete-search-modal.tsx')).then((module) => ({
    default: module.DeleteSearchModal,
  })),
);

/** My Searches: the signed-in home page. */
export function MySearchesScreen() {
  usePageTitle('My Searches');
  const searches = useMySearches();
  // Searches of types the catalog no longer offers (anywhere, or in their store's country) keep
  // working and say so.
  const products = useProducts();
  const stores = useStores();
  const modals = useSearchModalsStore();
  const host = useHost();
  // Once opened, the dialog stays mounted so it can fade out instead of vanishing.
  const [hasCreateLoaded, setHasCreateLoaded] = useState(false);
  if (modals.isCreateOpen && !hasCreateLoaded) {
    setHasCreateLoaded(true);
  }
  const [hasDeleteLoaded, setHasDeleteLoaded] = useState(false);
  if (modals.deletingSearchId !== null && !hasDeleteLoaded) {
    setHasDeleteLoaded(true);
  }

  // In the app, why the account's searches are missing beside the Mac's (e.g. no paid plan).
  const notice = searches.data?.notice ?? null;
  let content;
  if (searches.isPending) {
    content = <SpinnerScreen label="Loading your searches..." />;
  } else if (searches.isError) {
    content = (
      <p className="text-danger" role="alert">
        {describeRequestError(searches.error, SEARCH_LIST_ERROR_TEXT)}
      </p>
    );
  } else if (searches.data.searches.length === 0) {
    content = <p className="lead text-center py-5">Add a search!</p>;
  } else {
    content = (
      <div className="row row-cols-1 row-cols-md-2 row-cols-lg-3 g-3">
        {searches.data.searches.map((search) => (
          <div className="col" key={search.search_id}>
            <SearchCard
              search={search}
              onDelete={modals.askDeleteSearch}
              isNoLongerSold={isNoLongerSold(
                search.product_type,
                products.data,
                stores.data?.find((store) => store.store_id === search.store_id),
              )}
            />
          </div>
        ))}
      </div>
    );
  }

  return (
    <section>
      {host.kind === 'web' ? <TimeZoneDefault /> : null}
      <div className="d-flex align-items-center justify-content-between mb-3">
        <h1 className="h2 mb-0">My Searches</h1>
        <Button
          variant="primary"
          onClick={modals.openCreateSearch}
          className="d-none d-sm-inline-block"
        >
          Create new search
        </Button>
        <Button
          variant="primary"
          onClick={modals.openCreateSearch}
          className="d-sm-none rounded-circle fs-4 lh-1 px-3"
          aria-label="Create new search"
        >
          +
        </Button>
      </div>
      {host.desktop === undefined ? null : <DesktopWatchPanel desktop={host.desktop} />}
      {notice === null ? null : (
        <p className="small text-body-secondary" role="status">
          {notice}
        </p>
      )}
      {content}
      {hasCreateLoaded ? (
        <Suspense fallback={null}>
          <CreateSearchModal isOpen={modals.isCreateOpen} onClose={modals.closeCreateSearch} />
        </Suspense>
      ) : null}
      {hasDeleteLoaded ? (
        <Suspense fallback={null}>
          <DeleteSearchModal
            searchId={modals.deletingSearchId}
            onClose={modals.closeDeleteSearch}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
