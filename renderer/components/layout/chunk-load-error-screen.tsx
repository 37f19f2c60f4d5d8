import Button from 'react-bootstrap/Button';

/** Shown when a route's code fails to load; retrying reloads so a new deploy's files are used. */
export function ChunkLoadErrorScreen({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="text-center py-5" role="alert">
      <h1 className="h3">This page didn't load</h1>
      <p className="text-body-secondary">
        A part of Shelfwatch could not be downloaded. Check your connection and try again.
      </p>
      <Button variant="primary" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}
