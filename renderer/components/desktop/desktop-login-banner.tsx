import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { useDesktopLogin } from '#renderer/auth/desktop-auth-provider.tsx';

/** In the app: "finish logging in in your browser" with Cancel, or why the login failed. */
export function DesktopLoginBanner() {
  const login = useDesktopLogin();
  if (login === null) return null;
  if (login.isInFlight) {
    return (
      <Alert variant="info" className="rounded-0 mb-0 py-2 d-flex align-items-center gap-2">
        <Spinner animation="border" size="sm" aria-hidden="true" />
        <span role="status">
          Finish logging in in your browser. Shelfwatch keeps watching meanwhile.
        </span>
        <Button variant="link" size="sm" className="ms-auto p-0" onClick={login.cancel}>
          Cancel
        </Button>
      </Alert>
    );
  }
  if (login.error !== null) {
    return (
      <Alert
        variant="warning"
        className="rounded-0 mb-0 py-2"
        dismissible
        onClose={login.clearError}
      >
        <span role="alert">{login.error}</span> Your searches on this Mac keep working.
      </Alert>
    );
  }
  return null;
}
