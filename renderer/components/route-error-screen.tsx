import { isRouteErrorResponse, Link, useRouteError } from 'react-router-dom';
import { ChunkLoadErrorScreen } from './chunk-load-error-screen.tsx';
import { isChunkLoadError } from './chunk-loading.ts';
import { NotFoundMessage } from './not-found-message.tsx';

/** Error boundary of every route: chunk-load failures get a retry, others a way home. */
export function RouteErrorScreen() {
  const error = useRouteError();
  if (isChunkLoadError(error)) {
    return <ChunkLoadErrorScreen onRetry={() => window.location.reload()} />;
  }
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <NotFoundMessage />;
  }
  console.error('Unhandled error while showing a page', error);
  return (
    <div className="text-center py-5" role="alert">
      <h1 className="h3">Something went wrong</h1>
      <p className="text-body-secondary">
        This page ran into a problem. Reloading usually fixes it.
      </p>
      <Link to="/" className="btn btn-primary" reloadDocument>
        Go to the home page
      </Link>
    </div>
  );
}
