import Spinner from 'react-bootstrap/Spinner';

/** A centred spinner for screens waiting on login, data or code. */
export function SpinnerScreen({ label = 'Loading...' }: { label?: string }) {
  return (
    <div
      className="d-flex justify-content-center align-items-center py-5"
      role="status"
      aria-live="polite"
    >
      <Spinner animation="border" variant="primary" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
