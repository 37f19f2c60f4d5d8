import type { AxiosInstance } from 'axios';
import type {
  PushPublicKey,
  PushSubscription,
  PushSubscriptionInput,
} from '#shared/api/notifications.ts';

/** GET /v2/notifications/push/public-key: the server's VAPID public key (base64url). */
export async function fetchPushPublicKey(publicApi: AxiosInstance): Promise<string> {
  return (await publicApi.get<PushPublicKey>('/notifications/push/public-key')).data.public_key;
}

/** POST /v2/notifications/push/subscriptions: remembers this browser for the signed-in user. */
export async function savePushSubscription(
  privateApi: AxiosInstance,
  subscription: PushSubscriptionInput,
): Promise<PushSubscription> {
  return (
    await privateApi.post<PushSubscription>('/notifications/push/subscriptions', subscription)
  ).data;
}

/** DELETE /v2/notifications/push/subscriptions: forgets this browser's endpoint. */
export async function deletePushSubscription(
  privateApi: AxiosInstance,
  endpoint: string,
): Promise<void> {
  await privateApi.delete('/notifications/push/subscriptions', { data: { endpoint } });
}
