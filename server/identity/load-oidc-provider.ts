/** What the identity provider reports: plain lines, routed to the application's log. */
export type IdpLogger = { info(message: string): void; warn(message: string): void };

/** The oidc-provider module. */
export type OidcProviderModule = typeof import('oidc-provider');

let loading: Promise<OidcProviderModule> | undefined;

/**
 * Imports oidc-provider once. On import it prints "Unsupported runtime, use Node.js 22" to
 * stderr on Node 20; it works there, so that one line becomes an info entry in our log instead
 * of an alarming console warning.
 */
export async function loadOidcProvider(logger: IdpLogger): Promise<OidcProviderModule> {
  loading ??= importRoutingRuntimeWarning(logger);
  return await loading;
}

async function importRoutingRuntimeWarning(logger: IdpLogger): Promise<OidcProviderModule> {
  const originalWarn = console.warn;
  console.warn = (...args: unknown[]): void => {
    const text = args.map(String).join(' ');
    if (text.includes('Unsupported runtime')) {
      logger.info(
        `oidc-provider supports Node.js 22 and later officially; running on ${process.version}.`,
      );
      return;
    }
    originalWarn(...args);
  };
  try {
    return await import('oidc-provider');
  } finally {
    console.warn = originalWarn;
  }
}
