import { Link, useSearchParams } from 'react-router-dom';
import { usePageTitle } from '#renderer/components/hooks/use-page-title.ts';

/** Text shown when /error has no error_message. */
export const UNKNOWN_ERROR_TEXT = 'An unknown error occurred.';

/** /error?error_message=...: a product error with a way to the account page. */
export function ErrorRoute() {
  usePageTitle('Shelfwatch error');
  const [searchParams] = useSearchParams();
  const message = searchParams.get('error_message');
  return (
    <div className="text-center py-5">
      <h1 className="h3">Shelfwatch error</h1>
      <p role="alert">{message === null || message === '' ? UNKNOWN_ERROR_TEXT : message}</p>
      <Link to="/account" className="btn btn-primary">
        Go to My Account
      </Link>
    </div>
  );
}
