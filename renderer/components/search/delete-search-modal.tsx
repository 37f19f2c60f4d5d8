import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { useDeleteSearch } from '#renderer/api/search-queries.ts';

/** "Are you sure?" for deleting a search; closes when the request settles, either way. */
export function DeleteSearchModal({
  searchId,
  onClose,
  onDeleted,
}: {
  searchId: string | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const deletion = useDeleteSearch();
  const confirmDelete = () => {
    if (searchId === null) return;
    deletion.mutate(searchId, {
      onSuccess: () => onDeleted?.(),
      onError: (error) => console.error('Search could not be deleted', error),
      onSettled: () => {
        onClose();
        deletion.reset();
      },
    });
  };
  return (
    <Modal
      show={searchId !== null}
      onHide={deletion.isPending ? () => undefined : onClose}
      centered
    >
      <Modal.Header closeButton={!deletion.isPending}>
        <Modal.Title as="h2" className="h5">
          Delete search
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>Are you sure you want to delete this search?</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose} disabled={deletion.isPending}>
          Cancel
        </Button>
        <Button variant="danger" onClick={confirmDelete} disabled={deletion.isPending}>
          {deletion.isPending ? (
            <>
              <Spinner animation="border" size="sm" aria-hidden="true" className="me-2" />
              Deleting...
            </>
          ) : (
            'Delete search'
          )}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
