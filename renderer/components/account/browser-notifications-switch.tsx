import { useEffect, useState, type ReactNode } from 'react';
import Form from 'react-bootstrap/Form';
import { useApi } from '#renderer/api/api-client.ts';
import { readErrorStatus } from '#renderer/api/api-errors.ts';
import {
  deletePushSubscription,
  fetchPushPublicKey,
  savePushSubscription,
} from '#renderer/api/push-calls.ts';
import {
  PushPermissionError,
  findPushSubscription,
  isWebPushSupported,
  readNotificationPermission,
  requestNotificationPermission,
  subscribeToPush,
  toSubscriptionInput,
  unsubscribeFromPush,
} from '#renderer/host/web-push.ts';
import { isAppleMobileDevice, needsHomeScreenForPush } from '#renderer/host/home-screen.ts';

/** Texts of the switch's states. */
export const PUSH_TEXTS = {
  label: 'Browser notifications',
  unsupported: "This browser can't show notifications",
  homeScreen: 'Add to Home Screen, then turn on notifications',
  homeScreenHow:
    'On iPhone and iPad, Safari shows notifications only for sites on the Home Screen: tap Share, then Add to Home Screen, open Shelfwatch from its icon and turn this switch on (iOS 16.4 or later).',
  iosTooOld: 'Notifications from Home Screen apps need iOS 16.4 or later.',
  denied: 'Notifications are blocked for this site in your browser settings',
  dismissed: 'Notifications were not allowed, so nothing changed.',
  enabling: 'Turning on...',
  disabling: 'Turning off...',
  off: 'Get alerts for all your searches in this browser, even with the tab closed.',
  on: 'This browser shows an alert for all your searches.',
  enableFailed: "Couldn't turn on browser notifications. Please try again.",
  disableFailed: "Couldn't turn off browser notifications everywhere. Please try again.",
} as const;

/**
 * Where the switch stands; 'checking' while the browser's subscription is looked up,
 * 'home-screen' on iOS in a Safari tab (push works only once the site is on the Home Screen).
 */
type PushState = 'checking' | 'home-screen' | 'unsupported' | 'denied' | 'off' | 'on';

/** What the browser says on mount: unsupported, blocked, or whether this browser is subscribed. */
async function readInitialState(): Promise<PushState> {
  if (needsHomeScreenForPush()) return 'home-screen';
  if (!isWebPushSupported()) return 'unsupported';
  if (readNotificationPermission() === 'denied') return 'denied';
  // Permission may have been revoked since: a subscription alone doesn't mean alerts show.
  if (readNotificationPermission() !== 'granted') return 'off';
  return (await findPushSubscription()) === null ? 'off' : 'on';
}

/**
 * "Browser notifications": subscribes this browser to web push for the signed-in user (all
 * their searches; the server keeps subscriptions per user, not per search).
 */
export function BrowserNotificationsSwitch() {
  const { publicApi, privateApi } = useApi();
  const [state, setState] = useState<PushState>('checking');
  const [busy, setBusy] = useState<'enabling' | 'disabling' | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    let isCurrent = true;
    readInitialState().then(
      (initial) => {
        if (isCurrent) setState(initial);
      },
      (error: unknown) => {
        console.error('Push subscription state unknown', error);
        if (isCurrent) setState('off');
      },
    );
    return () => {
      isCurrent = false;
    };
  }, []);

  const enable = async () => {
    try {
      await requestNotificationPermission();
    } catch (error) {
      if (error instanceof PushPermissionError && error.permission === 'denied') {
        setState('denied');
      } else {
        setMessage(PUSH_TEXTS.dismissed);
      }
      return;
    }
    let subscription: PushSubscription | null = null;
    try {
      subscription = await subscribeToPush(await fetchPushPublicKey(publicApi));
      await savePushSubscription(privateApi, toSubscriptionInput(subscription));
      setState('on');
    } catch (error) {
      console.error('Browser notifications could not be turned on', error);
      // A browser subscription the server doesn't know would read as "on" next time: drop it.
      await subscription?.unsubscribe().catch(() => false);
      setMessage(PUSH_TEXTS.enableFailed);
    }
  };

  const disable = async () => {
    try {
      // Unsubscribing locally first stops notifications here at once, whatever the server says.
      const endpoint = await unsubscribeFromPush();
      setState('off');
      if (endpoint !== null) await deletePushSubscription(privateApi, endpoint);
    } catch (error) {
      // 404: the server had already forgotten it, which is what we wanted.
      if (readErrorStatus(error) === 404) return;
      console.error('Browser notifications could not be turned off', error);
      // The server drops the endpoint by itself once the push service answers 410 Gone.
      setMessage(PUSH_TEXTS.disableFailed);
    }
  };

  const toggle = async (isOn: boolean) => {
    setMessage(null);
    setBusy(isOn ? 'enabling' : 'disabling');
    try {
      await (isOn ? enable() : disable());
    } finally {
      setBusy(null);
    }
  };

  const isBlocked = state === 'unsupported' || state === 'denied' || state === 'home-screen';
  let status: ReactNode = null;
  if (busy !== null) status = PUSH_TEXTS[busy];
  else if (state === 'home-screen') {
    status = (
      <>
        <strong className="d-block">{PUSH_TEXTS.homeScreen}</strong>
        {PUSH_TEXTS.homeScreenHow}
      </>
    );
  } else if (state === 'unsupported') {
    // Opened from the Home Screen on an iOS before 16.4: say what would make it work.
    status = isAppleMobileDevice() ? PUSH_TEXTS.iosTooOld : PUSH_TEXTS.unsupported;
  } else if (state === 'denied') status = PUSH_TEXTS.denied;
  else if (state === 'on' && message === null) status = PUSH_TEXTS.on;
  else if (state === 'off' && message === null) status = PUSH_TEXTS.off;

  return (
    <div aria-busy={busy !== null}>
      <Form.Check
        type="switch"
        id="setting-browser-notifications"
        label={PUSH_TEXTS.label}
        checked={state === 'on'}
        disabled={isBlocked || state === 'checking' || busy !== null}
        aria-describedby="browser-notifications-status"
        onChange={(event) => void toggle(event.target.checked)}
      />
      <p
        id="browser-notifications-status"
        className="small text-body-secondary ms-4 mb-0"
        role="status"
        aria-live="polite"
      >
        {status}
        {message === null ? null : <span className="text-danger">{message}</span>}
      </p>
    </div>
  );
}
