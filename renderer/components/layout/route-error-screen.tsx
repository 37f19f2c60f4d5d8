import { Link } from 'react-router-dom';
import { ChunkLoadErrorScreen } from './chunk-load-error-screen.tsx';
import { isChunkLoadError } from './chunk-loading.ts';

/**
 * What a screen's error boundary (router.tsx) shows: chunk-load failures get a retry, others a
 * way home. Unknown paths never get here: the `*` route shows "not found".
 */
export function RouteErrorScreen({ error }: { error: unknown }) {
  if (isChunkLoadError(error)) {
    return <ChunkLoadErrorScreen onRetry={() => window.location.reload()} />;
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
