import type { PushSubscriptionInput } from '#shared/api/notifications.ts';

// Web push in the browser: the service worker, Notification permission and PushManager.
// Kept beside the web bridge rather than on HostBridge because only the website has it: the
// macOS app raises native notifications from its own watch loop (HostBridge.showNotification).

/** Where the build puts the service worker (renderer/public/sw.js); root scope covers every page. */
export const SERVICE_WORKER_URL = '/sw.js';

/** Permission was not granted: 'denied' is final (browser settings), 'default' means dismissed. */
export class PushPermissionError extends Error {
  /** Keeps which answer the browser gave. */
  constructor(readonly permission: 'denied' | 'default') {
    super(`Notification permission ${permission}`);
    this.name = 'PushPermissionError';
  }
}

/** Whether this browser can receive push messages at all (service workers, PushManager, Notification). */
export function isWebPushSupported(): boolean {
  // Browsers hide navigator.serviceWorker on insecure origins, so this also rules out plain http.
  return (
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    navigator.serviceWorker !== undefined &&
    typeof PushManager !== 'undefined' &&
    typeof Notification !== 'undefined'
  );
}

/** The site's notification permission as the browser reports it now. */
export function readNotificationPermission(): NotificationPermission {
  return Notification.permission;
}

/** Decodes a base64url VAPID key into the bytes PushManager.subscribe() wants. */
export function urlBase64ToUint8Array(base64Url: string): Uint8Array<ArrayBuffer> {
  const padding = '='.repeat((4 - (base64Url.length % 4)) % 4);
  const base64 = (base64Url + padding).replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
}

/** True when the subscription was made with exactly these key bytes. */
function hasServerKey(subscription: PushSubscription, key: Uint8Array): boolean {
  const current = subscription.options.applicationServerKey;
  if (current === null) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === key.length && bytes.every((byte, index) => byte === key[index]);
}

/** The body POST /v2/notifications/push/subscriptions expects, from the browser's subscription. */
export function toSubscriptionInput(subscription: PushSubscription): PushSubscriptionInput {
  const json = subscription.toJSON();
  const p256dh = json.keys?.p256dh;
  const auth = json.keys?.auth;
  if (json.endpoint === undefined || p256dh === undefined || auth === undefined) {
    throw new Error('The browser returned a push subscription without keys');
  }
  return {
    endpoint: json.endpoint,
    expirationTime: json.expirationTime ?? null,
    keys: { p256dh, auth },
  };
}

/** This browser's current push subscription for the site, without registering anything. */
export async function findPushSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/**
 * Asks for permission. Call it first thing in the click handler: Safari and Firefox only
 * show the prompt while the user's gesture is still fresh, so no request may come before it.
 */
export async function requestNotificationPermission(): Promise<void> {
  const permission =
    Notification.permission === 'default'
      ? await Notification.requestPermission()
      : Notification.permission;
  if (permission !== 'granted') {
    throw new PushPermissionError(permission);
  }
}

/** Registers /sw.js and subscribes with the server's VAPID key; reuses a subscription made with the same key. */
export async function subscribeToPush(publicKey: string): Promise<PushSubscription> {
  await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
  // subscribe() needs an active worker; `ready` waits until the registration has one.
  const registration = await navigator.serviceWorker.ready;
  const key = urlBase64ToUint8Array(publicKey);
  const existing = await registration.pushManager.getSubscription();
  if (existing !== null) {
    if (hasServerKey(existing, key)) {
      return existing;
    }
    // The server's keys changed (a new install): the old subscription can't receive its messages.
    await existing.unsubscribe();
  }
  // userVisibleOnly: browsers require every push to show a notification, which sw.js does.
  return await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: key,
  });
}

/** Cancels this browser's subscription; the endpoint it had, or null when there was none. */
export async function unsubscribeFromPush(): Promise<string | null> {
  const subscription = await findPushSubscription();
  if (subscription === null) {
    return null;
  }
  await subscription.unsubscribe();
  return subscription.endpoint;
}
