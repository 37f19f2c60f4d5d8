// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BrowserNotificationsSwitch,
  PUSH_TEXTS,
} from '#renderer/components/account/browser-notifications-switch.tsx';
import { SERVICE_WORKER_URL, urlBase64ToUint8Array } from '#renderer/host/web-push.ts';
import {
  createFakeApi,
  renderWithApp,
  type FakeAnswer,
  type FakeRoute,
} from '#tests/renderer/test-harness.tsx';

// Real delivery needs a push service, which headless Chromium here doesn't have: these tests
// stand in for the browser's side (service worker, PushManager, Notification) and check what
// the switch asks of it and what it sends to the API.

const KEY_BYTES = Uint8Array.from({ length: 65 }, (_, index) => (index * 7 + 4) % 256);
const PUBLIC_KEY = Buffer.from(KEY_BYTES).toString('base64url');
const ENDPOINT = 'https://push.example.net/send/abc123';
const SUBSCRIPTION_JSON = {
  endpoint: ENDPOINT,
  expirationTime: null,
  keys: { p256dh: 'B'.repeat(87), auth: 'a'.repeat(22) },
};

/** A browser subscription stand-in made with `keyBytes`. */
function fakeSubscription(keyBytes: Uint8Array = KEY_BYTES) {
  return {
    endpoint: ENDPOINT,
    options: { applicationServerKey: keyBytes.slice().buffer, userVisibleOnly: true },
    toJSON: () => SUBSCRIPTION_JSON,
    unsubscribe: vi.fn(() => Promise.resolve(true)),
  };
}

type FakeSubscription = ReturnType<typeof fakeSubscription>;

/** Installs service worker, PushManager and Notification stand-ins; returns their spies. */
function installBrowserPush(
  options: {
    permission?: NotificationPermission;
    answer?: NotificationPermission;
    existing?: FakeSubscription | null;
  } = {},
) {
  let current: FakeSubscription | null = options.existing ?? null;
  const created = fakeSubscription();
  const pushManager = {
    getSubscription: vi.fn(() => Promise.resolve(current)),
    subscribe: vi.fn((_options: PushSubscriptionOptionsInit) => {
      current = created;
      return Promise.resolve(created);
    }),
  };
  const registration = { pushManager };
  const serviceWorker = {
    register: vi.fn((_url: string, _options?: RegistrationOptions) =>
      Promise.resolve(registration),
    ),
    ready: Promise.resolve(registration),
    getRegistration: vi.fn(() => Promise.resolve(current === null ? undefined : registration)),
  };
  Object.defineProperty(navigator, 'serviceWorker', { value: serviceWorker, configurable: true });
  vi.stubGlobal('PushManager', class {});
  const notification = {
    permission: options.permission ?? 'default',
    requestPermission: vi.fn(() => {
      notification.permission = options.answer ?? 'granted';
      return Promise.resolve(notification.permission);
    }),
  };
  vi.stubGlobal('Notification', notification);
  return { serviceWorker, pushManager, notification, created };
}

/** Renders the switch over a fake API with the key and subscription routes. */
function renderSwitch(routes: Record<string, FakeRoute> = {}) {
  const posted: unknown[] = [];
  const deleted: unknown[] = [];
  const api = createFakeApi({
    'GET /notifications/push/public-key': () => ({ status: 200, body: { public_key: PUBLIC_KEY } }),
    'POST /notifications/push/subscriptions': ({ body }) => {
      posted.push(body);
      return { status: 201, body: { id: 's1', endpoint: ENDPOINT, created_at: '' } };
    },
    'DELETE /notifications/push/subscriptions': ({ body }) => {
      deleted.push(body);
      return { status: 204 };
    },
    ...routes,
  });
  renderWithApp([{ path: '/', element: <BrowserNotificationsSwitch /> }], { api });
  return { api, posted, deleted };
}

afterEach(() => {
  cleanup();
  Reflect.deleteProperty(navigator, 'serviceWorker');
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('urlBase64ToUint8Array', () => {
  it('decodes unpadded base64url VAPID keys', () => {
    expect(urlBase64ToUint8Array(PUBLIC_KEY)).toEqual(KEY_BYTES);
    expect([...urlBase64ToUint8Array('-_8')]).toEqual([0xfb, 0xff]);
  });
});

describe('browser notifications switch', () => {
  it('explains and stays off in a browser without push', async () => {
    renderSwitch();
    expect(await screen.findByText(PUSH_TEXTS.unsupported)).toBeTruthy();
    const toggle = screen.getByLabelText(PUSH_TEXTS.label);
    expect(toggle).toHaveProperty('disabled', true);
    expect(toggle).toHaveProperty('checked', false);
  });

  it('says notifications are blocked when the site is denied', async () => {
    installBrowserPush({ permission: 'denied' });
    renderSwitch();
    expect(await screen.findByText(PUSH_TEXTS.denied)).toBeTruthy();
    expect(screen.getByLabelText(PUSH_TEXTS.label)).toHaveProperty('disabled', true);
  });

  it('subscribes with the VAPID key and posts the subscription, busy meanwhile', async () => {
    const browser = installBrowserPush();
    let answer: (value: FakeAnswer) => void = () => undefined;
    const posted: unknown[] = [];
    renderSwitch({
      'POST /notifications/push/subscriptions': ({ body }) => {
        posted.push(body);
        return new Promise<FakeAnswer>((resolve) => (answer = resolve));
      },
    });
    const toggle = await screen.findByLabelText(PUSH_TEXTS.label);
    await waitFor(() => expect(toggle).toHaveProperty('disabled', false));
    fireEvent.click(toggle);
    expect(await screen.findByText(PUSH_TEXTS.enabling)).toBeTruthy();
    expect(toggle).toHaveProperty('disabled', true);
    await waitFor(() => expect(posted).toEqual([SUBSCRIPTION_JSON]));
    expect(browser.notification.requestPermission).toHaveBeenCalledOnce();
    expect(browser.serviceWorker.register).toHaveBeenCalledWith(SERVICE_WORKER_URL, {
      scope: '/',
    });
    const subscribeOptions = browser.pushManager.subscribe.mock.calls[0][0];
    expect(subscribeOptions.userVisibleOnly).toBe(true);
    expect(subscribeOptions.applicationServerKey).toEqual(KEY_BYTES);
    await act(async () =>
      answer({ status: 201, body: { id: 's1', endpoint: ENDPOINT, created_at: '' } }),
    );
    expect(await screen.findByText(PUSH_TEXTS.on)).toBeTruthy();
    expect(toggle).toHaveProperty('checked', true);
    expect(toggle).toHaveProperty('disabled', false);
  });

  it('changes nothing when permission is refused at the prompt', async () => {
    const browser = installBrowserPush({ answer: 'denied' });
    const { posted } = renderSwitch();
    const toggle = await screen.findByLabelText(PUSH_TEXTS.label);
    await waitFor(() => expect(toggle).toHaveProperty('disabled', false));
    fireEvent.click(toggle);
    expect(await screen.findByText(PUSH_TEXTS.denied)).toBeTruthy();
    expect(toggle).toHaveProperty('checked', false);
    expect(browser.serviceWorker.register).not.toHaveBeenCalled();
    expect(posted).toEqual([]);
  });

  it('shows an error and drops the browser subscription when the server refuses it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const browser = installBrowserPush({ permission: 'granted' });
    renderSwitch({
      'POST /notifications/push/subscriptions': () => ({
        status: 400,
        body: {
          code: 'invalid_input',
          reason: "Some of the information sent isn't valid.",
          message: 'Push endpoints are HTTPS URLs',
        },
      }),
    });
    const toggle = await screen.findByLabelText(PUSH_TEXTS.label);
    await waitFor(() => expect(toggle).toHaveProperty('disabled', false));
    fireEvent.click(toggle);
    expect(await screen.findByText(PUSH_TEXTS.enableFailed)).toBeTruthy();
    expect(toggle).toHaveProperty('checked', false);
    expect(browser.created.unsubscribe).toHaveBeenCalledOnce();
  });

  it('replaces a subscription made with an old server key', async () => {
    const old = fakeSubscription(Uint8Array.from({ length: 65 }, () => 1));
    const browser = installBrowserPush({ permission: 'granted', existing: null });
    browser.pushManager.getSubscription.mockResolvedValueOnce(old);
    const { posted } = renderSwitch();
    const toggle = await screen.findByLabelText(PUSH_TEXTS.label);
    await waitFor(() => expect(toggle).toHaveProperty('disabled', false));
    fireEvent.click(toggle);
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(old.unsubscribe).toHaveBeenCalledOnce();
    expect(browser.pushManager.subscribe).toHaveBeenCalledOnce();
  });

  it('starts on for a subscribed browser and unsubscribes and deletes when turned off', async () => {
    const existing = fakeSubscription();
    installBrowserPush({ permission: 'granted', existing });
    const { deleted } = renderSwitch();
    const toggle = await screen.findByLabelText(PUSH_TEXTS.label);
    await waitFor(() => expect(toggle).toHaveProperty('checked', true));
    fireEvent.click(toggle);
    await waitFor(() => expect(deleted).toEqual([{ endpoint: ENDPOINT }]));
    expect(existing.unsubscribe).toHaveBeenCalledOnce();
    await waitFor(() => expect(toggle).toHaveProperty('checked', false));
    expect(screen.queryByText(PUSH_TEXTS.disableFailed)).toBeNull();
  });

  it('stays off without complaint when the server had already forgotten the endpoint', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    installBrowserPush({ permission: 'granted', existing: fakeSubscription() });
    renderSwitch({
      'DELETE /notifications/push/subscriptions': () => ({
        status: 404,
        body: {
          code: 'not_found',
          reason: "We couldn't find this push subscription.",
          message: 'Push subscription not found',
        },
      }),
    });
    const toggle = await screen.findByLabelText(PUSH_TEXTS.label);
    await waitFor(() => expect(toggle).toHaveProperty('checked', true));
    fireEvent.click(toggle);
    await waitFor(() => expect(toggle).toHaveProperty('checked', false));
    await waitFor(() => expect(toggle).toHaveProperty('disabled', false));
    expect(screen.queryByText(PUSH_TEXTS.disableFailed)).toBeNull();
  });
});

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1';

/** Makes the page look like iPhone Safari, in a tab or opened from the Home Screen. */
function emulateIphone(options: { isStandalone: boolean }) {
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(IPHONE_SAFARI);
  Object.defineProperty(navigator, 'standalone', {
    value: options.isStandalone,
    configurable: true,
  });
}

describe('browser notifications switch on iPhone', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'standalone');
  });

  it('explains Add to Home Screen in a Safari tab, with the switch off', async () => {
    emulateIphone({ isStandalone: false });
    renderSwitch();
    expect(await screen.findByText(PUSH_TEXTS.homeScreen)).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain(PUSH_TEXTS.homeScreenHow);
    expect(screen.getByLabelText(PUSH_TEXTS.label)).toHaveProperty('disabled', true);
  });

  it('explains Add to Home Screen even where the tab has push objects', async () => {
    installBrowserPush();
    emulateIphone({ isStandalone: false });
    renderSwitch();
    expect(await screen.findByText(PUSH_TEXTS.homeScreen)).toBeTruthy();
  });

  it('works as on desktop when opened from the Home Screen', async () => {
    const browser = installBrowserPush();
    emulateIphone({ isStandalone: true });
    const { posted } = renderSwitch();
    const toggle = await screen.findByLabelText(PUSH_TEXTS.label);
    await waitFor(() => expect(toggle).toHaveProperty('disabled', false));
    expect(screen.getByText(PUSH_TEXTS.off)).toBeTruthy();
    fireEvent.click(toggle);
    await waitFor(() => expect(posted).toEqual([SUBSCRIPTION_JSON]));
    expect(browser.notification.requestPermission).toHaveBeenCalledOnce();
    expect(await screen.findByText(PUSH_TEXTS.on)).toBeTruthy();
    expect(screen.queryByText(PUSH_TEXTS.homeScreen)).toBeNull();
  });

  it('names the iOS version push needs when the Home Screen app has no push', async () => {
    emulateIphone({ isStandalone: true });
    renderSwitch();
    expect(await screen.findByText(PUSH_TEXTS.iosTooOld)).toBeTruthy();
  });
});
