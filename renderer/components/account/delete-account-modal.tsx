import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { useDeleteAccount } from '#renderer/api/account-queries.ts';
import { describeRequestError, readErrorBody } from '#renderer/api/api-errors.ts';

/** Shown when the deletion fails and says nothing more specific. */
export const ACCOUNT_DELETE_FAILED_TEXT =
  "Your account couldn't be deleted. Nothing was removed; please try again in a few minutes.";

/**
 * "Delete my account" confirmation: what goes, then a second, explicit Delete button. Stays
 * open (and cannot be dismissed) while the request runs; on failure it says why and stays
 * open to retry; on success `onDeleted` runs (the caller logs out).
 */
export function DeleteAccountModal({
  isOpen,
  hasSubscription,
  onClose,
  onDeleted,
}: {
  isOpen: boolean;
  /** Whether to mention that the paid subscription is cancelled too. */
  hasSubscription: boolean;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const deletion = useDeleteAccount();
  const close = () => {
    if (deletion.isPending) return;
    deletion.reset();
    onClose();
  };
  const confirmDelete = () => {
    deletion.mutate(undefined, {
      onSuccess: onDeleted,
      onError: (error) => console.error('Account could not be deleted', error),
    });
  };
  return (
    <Modal show={isOpen} onHide={close} centered aria-labelledby="delete-account-title">
      <Modal.Header closeButton={!deletion.isPending}>
        <Modal.Title as="h2" className="h5" id="delete-account-title">
          Delete your account?
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>
          This permanently deletes your account, your searches, your alert settings and your login
          {hasSubscription ? ', and cancels your subscription' : ''}. It cannot be undone.
        </p>
        {deletion.isError ? (
          <p className="text-danger mb-0" role="alert">
            {describeRequestError(
              deletion.error,
              // A 503 says which outside step failed (the subscription, the login) and that nothing was deleted.
              readErrorBody(deletion.error).reason ?? ACCOUNT_DELETE_FAILED_TEXT,
            )}
          </p>
        ) : null}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={close} disabled={deletion.isPending}>
          Cancel
        </Button>
        <Button variant="danger" onClick={confirmDelete} disabled={deletion.isPending}>
          {deletion.isPending ? (
            <>
              <Spinner animation="border" size="sm" aria-hidden="true" className="me-2" />
              Deleting...
            </>
          ) : (
            'Delete'
          )}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
