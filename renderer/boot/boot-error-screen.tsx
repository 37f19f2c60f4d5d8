/** Shown when /app-config.json cannot be loaded: nothing else can work without it. */
export function BootErrorScreen({ error }: { error: unknown }) {
  const detail = error instanceof Error ? error.message : 'Unknown error.';
  return (
    <main className="container py-5 text-center" role="alert">
      <h1 className="h3">Shelfwatch couldn't start</h1>
      <p>
        The site's settings could not be loaded. Please check your connection and reload the page.
      </p>
      <p className="text-body-secondary small">{detail}</p>
      <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
        Reload
      </button>
    </main>
  );
}
