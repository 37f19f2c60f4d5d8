/**
 * True when a /callback URL's query carries a login answer to complete: an authorization
 * code with its state, or the provider's error. Without one there is nothing to complete,
 * and the login SDK would only fail with "There are no query params available for parsing."
 */
export function hasCallbackParams(search: string): boolean {
  const params = new URLSearchParams(search);
  return (params.has('code') && params.has('state')) || params.has('error');
}
