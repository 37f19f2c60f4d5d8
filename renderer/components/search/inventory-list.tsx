import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import ListGroup from 'react-bootstrap/ListGroup';
import type { InventoryStore } from '#shared/api/inventory.ts';
import { compareModelNames } from '#shared/domain/model-order.ts';

/** "12.3 mi" for a nearby store; the search's own store has no distance. */
function formatDistance(miles: number | null): string | null {
  return miles === null ? null : `${miles < 10 ? miles.toFixed(1) : Math.round(miles)} mi`;
}

/** Preferred models first, then by size (256GB before 1TB), as the settings list them. */
function orderAvailableModels(models: InventoryStore['available_models']) {
  return [...models].sort(
    (a, b) =>
      Number(b.is_preferred) - Number(a.is_preferred) ||
      compareModelNames(a.display_name, b.display_name),
  );
}

/** Stores with their available models; preferred ones badged (a heart on small screens). */
export function InventoryList({ stores }: { stores: readonly InventoryStore[] }) {
  if (stores.length === 0) {
    return <p className="text-body-secondary py-3">No inventory found</p>;
  }
  return (
    <div className="d-flex flex-column gap-3">
      {stores.map((store) => {
        const distance = formatDistance(store.distance_miles);
        return (
          <Card key={store.store_id}>
            <Card.Header className="bg-transparent">
              <h3 className="h6 mb-0">{store.store_name}</h3>
              <span className="small text-body-secondary">
                {store.store_state === null
                  ? store.store_city
                  : `${store.store_city}, ${store.store_state}`}
                {distance === null ? null : ` · ${distance}`}
              </span>
            </Card.Header>
            {store.available_models.length === 0 ? (
              <Card.Body className="small text-body-secondary">No models available</Card.Body>
            ) : (
              <ListGroup variant="flush">
                {orderAvailableModels(store.available_models).map((model) => (
                  <ListGroup.Item
                    key={model.part_number}
                    className="d-flex justify-content-between align-items-center gap-2"
                  >
                    <span className="model-name">{model.display_name}</span>
                    {model.is_preferred ? (
                      <>
                        <Badge bg="success" className="d-none d-sm-inline-block flex-shrink-0">
                          Preferred
                        </Badge>
                        <span
                          className="d-sm-none text-danger flex-shrink-0 preferred-heart"
                          title="Preferred"
                        >
                          <span aria-hidden="true">♥</span>
                          <span className="visually-hidden">Preferred</span>
                        </span>
                      </>
                    ) : null}
                  </ListGroup.Item>
                ))}
              </ListGroup>
            )}
          </Card>
        );
      })}
    </div>
  );
}
