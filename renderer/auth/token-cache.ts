import type { DecodedToken, ICache, WrappedCacheEntry } from '@auth0/auth0-spa-js';
import type { AuthUser } from './auth-context.tsx';

// The login SDK is the biggest script of the signed-in home (about 60 KB gzipped). A returning
// user whose access token is still valid needs none of it to see My Searches: the SDK keeps its
// tokens in this cache (its documented `cache` option), so the site reads the token and the
// user from here at start and downloads the SDK only when it is really needed (renewal, login,
// logout, the login redirect). Issue 30: the signed-in home under 180 KB of JavaScript.

/** The prefix the SDK gives every key it stores (its CacheKey format: prefix::client::...). */
const KEY_PREFIX = '@@auth0spajs@@';
const USER_KEY_SUFFIX = '@@user@@';
/** A token this close to its expiry is renewed through the SDK instead of sent. */
const EXPIRY_MARGIN_SECONDS = 60;

/**
 * The SDK's token cache, in local storage under the same keys the SDK's own
 * `cacheLocation: 'localstorage'` used, so logins made before it stay valid.
 */
export function createTokenCache(storage: Storage = window.localStorage): ICache {
  return {
    set: (key, entry) => storage.setItem(key, JSON.stringify(entry)),
    get: <T>(key: string): T | undefined => parseEntry<T>(storage.getItem(key)),
    remove: (key) => storage.removeItem(key),
    allKeys: () => listKeys(storage).filter((key) => key.startsWith(KEY_PREFIX)),
  };
}

/** A login the cache proves without the SDK: the user and an access token still valid. */
export type CachedLogin = { user: AuthUser; accessToken: string };

/**
 * The cached login of `clientId` for `audience`, or undefined when the SDK has to decide
 * (no user, no access token, or one that expires within a minute).
 */
export function readCachedLogin(
  clientId: string,
  audience: string,
  storage: Storage = window.localStorage,
  nowMs: number = Date.now(),
): CachedLogin | undefined {
  const userEntry = parseEntry<{ decodedToken?: DecodedToken }>(
    storage.getItem(`${KEY_PREFIX}::${clientId}::${USER_KEY_SUFFIX}`),
  );
  const sub = userEntry?.decodedToken?.user?.sub;
  if (typeof sub !== 'string') return undefined;
  const accessToken = readCachedAccessToken(clientId, audience, storage, nowMs);
  if (accessToken === undefined) return undefined;
  const email = userEntry?.decodedToken?.user.email;
  return { user: { sub, email: typeof email === 'string' ? email : null }, accessToken };
}

/** A still valid access token of `clientId` for `audience` from the cache, if any. */
export function readCachedAccessToken(
  clientId: string,
  audience: string,
  storage: Storage = window.localStorage,
  nowMs: number = Date.now(),
): string | undefined {
  // Token entries are prefix::client::audience::scopes; the scopes are the SDK's to choose.
  // Without an audience the SDK writes "default" in its place.
  const tokenKeyStart = `${KEY_PREFIX}::${clientId}::${audience === '' ? 'default' : audience}::`;
  const nowSeconds = Math.floor(nowMs / 1000);
  for (const key of listKeys(storage)) {
    if (!key.startsWith(tokenKeyStart) || key.endsWith(`::${USER_KEY_SUFFIX}`)) continue;
    const entry = parseEntry<WrappedCacheEntry>(storage.getItem(key));
    const token = entry?.body?.access_token;
    if (typeof token !== 'string' || typeof entry?.expiresAt !== 'number') continue;
    if (entry.expiresAt - EXPIRY_MARGIN_SECONDS > nowSeconds) return token;
  }
  return undefined;
}

function listKeys(storage: Storage): string[] {
  const keys: string[] = [];
  for (let index = 0; index < storage.length; index += 1) {
    const key = storage.key(index);
    if (key !== null) keys.push(key);
  }
  return keys;
}

function parseEntry<T>(json: string | null): T | undefined {
  if (json === null || json === '') return undefined;
  try {
    return JSON.parse(json) as T;
  } catch {
    return undefined;
  }
}
