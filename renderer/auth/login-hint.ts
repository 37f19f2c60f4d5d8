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
