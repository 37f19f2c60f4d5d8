import type { AxiosInstance } from 'axios';
import type { LOOKUP_KEYS, PostCheckoutResponse } from '#shared/api/billing.ts';

/** POST /v2/account/post_checkout: what happened at checkout and for whom. */
export async function postCheckout(
  publicApi: AxiosInstance,
  sessionId: string,
): Promise<PostCheckoutResponse> {
  return (
    await publicApi.post<PostCheckoutResponse>('/account/post_checkout', { session_id: sessionId })
  ).data;
}

/** POST /v2/account/create-portal-session: the billing portal address, if any came back. */
export async function createPortalSession(privateApi: AxiosInstance): Promise<string | undefined> {
  return (await privateApi.post<{ session_url?: string }>('/account/create-portal-session', {}))
    .data.session_url;
}

/** A price lookup key of the payment provider (iw-basic-monthly and so on). */
export type LookupKey = (typeof LOOKUP_KEYS)[number];

/** POST /v2/account/create-checkout-session: the checkout address, if any came back. */
export async function createCheckoutSession(
  publicApi: AxiosInstance,
  input: { lookup_key: LookupKey; auth0_id: string },
): Promise<string | undefined> {
  const response = await publicApi.post<{ checkout_url?: string }>(
    '/account/create-checkout-session',
    input,
    {
      headers: { 'Content-Type': 'application/json' },
    },
  );
  return response.data.checkout_url;
}
