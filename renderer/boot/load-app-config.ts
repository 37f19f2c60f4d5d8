import type { AppConfig } from '#shared/api/app-config.ts';

/** True for a non-empty string. */
function isText(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/**
 * Checks the fields the site cannot start without. The server validates this answer with
 * appConfigSchema (shared/api/app-config.ts) before sending it; repeating that here would
 * put zod (about 20 KB gzipped) on the landing page, so the browser checks shape only.
 */
export function isUsableAppConfig(value: unknown): value is AppConfig {
  if (typeof value !== 'object' || value === null) return false;
  const config = value as Record<string, unknown>;
  const auth = config.auth as Record<string, unknown> | null | undefined;
  const maker = config.maker as Record<string, unknown> | null | undefined;
  return (
    typeof auth === 'object' &&
    auth !== null &&
    isText(auth.domain) &&
    isText(auth.clientId) &&
    typeof auth.audience === 'string' &&
    typeof config.apiBaseUrl === 'string' &&
    isText(config.supportEmail) &&
    typeof config.supportEndDate === 'string' &&
    typeof maker === 'object' &&
    maker !== null &&
    typeof maker.name === 'string' &&
    typeof maker.url === 'string' &&
    typeof config.isBillingConfigured === 'boolean' &&
    (config.macDownloadUrl === null || typeof config.macDownloadUrl === 'string') &&
    typeof config.cookiePrefix === 'string'
  );
}

/** Fetches /app-config.json from the serving origin and checks it before the app starts. */
export async function loadAppConfig(fetchImpl: typeof fetch = fetch): Promise<AppConfig> {
  const response = await fetchImpl('/app-config.json', { headers: { Accept: 'application/json' } });
  if (!response.ok) {
    throw new Error(`The site settings could not be loaded (HTTP ${response.status}).`);
  }
  const body: unknown = await response.json();
  if (!isUsableAppConfig(body)) {
    throw new Error('The site settings are not in the expected format.');
  }
  return body;
}
