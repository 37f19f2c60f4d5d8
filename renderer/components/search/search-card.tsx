import Card from 'react-bootstrap/Card';
import { Link, useNavigate } from 'react-router-dom';
import type { Search } from '#shared/api/searches.ts';
import { summarizeSearch } from '#shared/domain/search-summary.ts';
import { DropdownMenu } from '#renderer/components/layout/dropdown-menu.tsx';
import { NoLongerSoldBadge } from './no-longer-sold.tsx';
import { PausedBadge, PausedSearchNotice } from './paused-search-notice.tsx';
import { ProductIcon } from './product-icon.tsx';

/** A saved search on My Searches; clicking anywhere but its menu opens the search. */
export function SearchCard({
  search,
  onDelete,
  isNoLongerSold = false,
}: {
  search: Search;
  onDelete: (searchId: string) => void;
  /** Its product type is retired: the search keeps working, the card says so. */
  isNoLongerSold?: boolean;
}) {
  const navigate = useNavigate();
  const path = `/search/${search.search_id}`;
  return (
    <Card
      className="search-card h-100"
      onClick={(event) => {
        // Clicks inside the menu or on the button are handled by those controls.
        if ((event.target as HTMLElement).closest('.dropdown, a, button') === null) {
          void navigate(path);
        }
      }}
    >
      <Card.Header className="d-flex align-items-center justify-content-between bg-transparent">
        <span className="d-flex align-items-center gap-2 min-w-0">
          <span className="fw-semibold text-truncate">{search.store_name}</span>
          {search.is_paused === true ? <PausedBadge /> : null}
          {isNoLongerSold ? <NoLongerSoldBadge /> : null}
        </span>
        <DropdownMenu
          label={<span aria-hidden="true">⋯</span>}
          buttonClassName="btn btn-link btn-sm text-body"
          ariaLabel={`Options for ${search.product_name} at ${search.store_name}`}
        >
          {(close) => (
            <button
              type="button"
              className="dropdown-item"
              onClick={() => {
                close();
                onDelete(search.search_id);
              }}
            >
              Delete search
            </button>
          )}
        </DropdownMenu>
      </Card.Header>
      <Card.Body className="d-flex gap-3 align-items-start">
        <ProductIcon productId={search.product_type} />
        <div>
          <Card.Title as="h2" className="h6 mb-1">
            {search.product_name}
          </Card.Title>
          <Card.Text className="small text-body-secondary">{summarizeSearch(search)}</Card.Text>
          {search.is_paused === true ? <PausedSearchNotice className="small mb-0" /> : null}
        </div>
      </Card.Body>
      <Card.Footer className="bg-transparent border-0 pt-0">
        <Link to={path} className="btn btn-outline-primary btn-sm">
          View inventory
        </Link>
      </Card.Footer>
    </Card>
  );
}
