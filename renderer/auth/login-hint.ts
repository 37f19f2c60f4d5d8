/**
 * True when this browser may hold a login: the SDK's is.authenticated cookie (current or
 * legacy name) or its token cache in local storage. Without either, the SDK's own
 * checkSession would answer "signed out" without any network call, so the site can say so
 * without downloading the SDK at all: that keeps the login library off the landing page.
 */
export function hasLoginHint(
  clientId: string,
  cookies: string = document.cookie,
  storage: Storage = window.localStorage,
): boolean {
  const names = [
    `auth0.${clientId}.is.authenticated`,
    `_legacy_auth0.${clientId}.is.authenticated`,
    'auth0.is.authenticated',
  ];
  const cookieNames = cookies.split(';').map((part) => part.trim().split('=')[0] ?? '');
  if (names.some((name) => cookieNames.includes(name))) {
    return true;
  }
  for (let index = 0; index < storage.length; index += 1) {
    if (storage.key(index)?.startsWith('@@auth0spajs@@') === true) {
      return true;
    }
  }
  return false;
}

/**
 * hasLoginHint for any client, answerable before the site's settings (and so its client id)
 * have loaded: at boot, a browser that may be signed in gets a spinner instead of the
 * pre-rendered landing page, which it would most likely not keep.
 */
export function hasAnyLoginHint(
  cookies: string = document.cookie,
  storage: Storage = window.localStorage,
): boolean {
  const cookieNames = cookies.split(';').map((part) => part.trim().split('=')[0] ?? '');
  if (cookieNames.some((name) => /^(_legacy_)?auth0\.(.+\.)?is\.authenticated$/.test(name))) {
    return true;
  }
  return hasLoginHint('', '', storage);
}
