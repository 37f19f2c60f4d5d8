import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  createAlertNotifier,
  formatAlertBatchNotification,
  formatAlertNotification,
  readNotificationTarget,
  readSearchIdOf,
  type NotificationOptions,
} from '#electron/notifications/alert-notifier.ts';
import type { LocalAlert } from '#shared/watch/local/index.ts';

const SEARCH_ID = '7b0c8f6e-2d4a-4a51-9a37-0c1f5e2b9d10';
const alert: LocalAlert = {
  searchId: SEARCH_ID,
  productType: 'iphone17pro',
  storeId: 'R095',
  storeName: 'Fifth Avenue',
  partNumber: 'MG8H4LL/A',
  displayName: 'iPhone 17 Pro 256GB Cosmic Orange',
  pickupQuote: 'Today at Fifth Avenue',
  distanceMiles: null,
  observedAt: 0,
};

/** Electron's Notification as macOS treats it: 'failed' when refused, 'show' when posted. */
function createNotificationClass(options: { error?: string; history?: string[] } = {}) {
  const created: (EventEmitter & { options: NotificationOptions; id?: string })[] = [];
  class FakeNotification extends EventEmitter {
    readonly id?: string;
    constructor(readonly options: NotificationOptions) {
      super();
      this.id = options.id;
      created.push(this);
    }
    static isSupported = () => true;
    static getHistory = () =>
      Promise.resolve(
        (options.history ?? []).map((id) => new FakeNotification({ title: '', body: '', id })),
      );
    show() {
      if (options.error !== undefined) this.emit('failed', {}, options.error);
      else this.emit('show', {});
    }
  }
  return { Notification: FakeNotification, created };
}

function setUp(options: { error?: string; history?: string[] } = {}) {
  const { Notification, created } = createNotificationClass(options);
  const events: string[] = [];
  const notifier = createAlertNotifier({
    Notification,
    isEnabled: () => true,
    openSearch: (id) => events.push(`open ${id}`),
    openUrl: (url) => events.push(`url ${url}`),
    findStorePageUrl: (storeId) =>
      storeId === 'R095' ? 'https://www.apple.com/retail/fifthavenue/' : null,
    onActivate: (activationId) => events.push(`activate ${activationId}`),
    onFailed: (error) => events.push(`failed ${error}`),
    onShown: () => events.push('shown'),
    now: () => 1_000,
  });
  return { notifier, created, events };
}

describe('stock alert notifications', () => {
  it('groups by search and offers Open Search and Open Store Page', () => {
    const { notifier, created, events } = setUp();
    notifier.notifyAlerts(SEARCH_ID, [alert]);
    expect(created[0]?.options).toMatchObject({
      title: 'iPhone 17 Pro 256GB Cosmic Orange is in stock',
      id: `search:${SEARCH_ID}:1000:R095`,
      groupId: `search:${SEARCH_ID}`,
      actions: [
        { type: 'button', text: 'Open Search' },
        { type: 'button', text: 'Open Store Page' },
      ],
    });
    created[0]?.emit('action', { actionIndex: 1 });
    notifier.notifyAlerts(SEARCH_ID, [alert]);
    created[1]?.emit('action', { actionIndex: 0 });
    notifier.notifyAlerts(SEARCH_ID, [alert]);
    created[2]?.emit('click');
    expect(events).toEqual([
      'shown',
      'url https://www.apple.com/retail/fifthavenue/',
      'shown',
      `open ${SEARCH_ID}`,
      'shown',
      `open ${SEARCH_ID}`,
    ]);
    expect(notifier.countPending()).toBe(0);
  });

  it('shows a released batch as one notification naming the first model and how many more', () => {
    const { notifier, created, events } = setUp();
    const batch: LocalAlert[] = [
      alert,
      { ...alert, partNumber: 'MG8J4LL/A', displayName: 'iPhone 17 Pro 512GB Cosmic Orange' },
      {
        ...alert,
        storeId: 'R238',
        storeName: 'Grand Central',
        partNumber: 'MG8K4LL/A',
        displayName: 'iPhone 17 Pro 256GB Silver',
        distanceMiles: 1.24,
      },
    ];
    notifier.notifyAlerts(SEARCH_ID, batch);
    expect(created).toHaveLength(1);
    expect(created[0]?.options).toMatchObject({
      title: 'iPhone 17 Pro 256GB Cosmic Orange and 2 more are in stock',
      body:
        'Fifth Avenue: iPhone 17 Pro 256GB Cosmic Orange, iPhone 17 Pro 512GB Cosmic Orange\n' +
        'Grand Central (1.2 mi away): iPhone 17 Pro 256GB Silver',
      // Two stores: no one store page to offer.
      id: `search:${SEARCH_ID}:1000`,
      actions: [{ type: 'button', text: 'Open Search' }],
    });
    created[0]?.emit('click');
    expect(events).toEqual(['shown', `open ${SEARCH_ID}`]);
  });

  it('gives a nearby store’s distance in the unit of its country', () => {
    const london = {
      ...alert,
      storeId: 'R163',
      storeName: 'Covent Garden',
      distanceMiles: 1.24,
      countryCode: 'GB',
    };
    const sydney = { ...london, storeName: 'Sydney', distanceMiles: 12, countryCode: 'AU' };
    expect(formatAlertNotification(london).body).toContain('(1.2 mi away)');
    expect(formatAlertNotification(sydney).body).toContain('(19 km away)');
    expect(formatAlertNotification({ ...sydney, countryCode: undefined }).body).toContain(
      '(12 mi away)',
    );
  });

  it('names one model at several stores by its store count, and one alert as before', () => {
    const elsewhere = { ...alert, storeId: 'R238', storeName: 'Grand Central', distanceMiles: 1 };
    expect(formatAlertBatchNotification([alert, elsewhere]).title).toBe(
      'iPhone 17 Pro 256GB Cosmic Orange is in stock at 2 stores',
    );
    expect(formatAlertBatchNotification([alert])).toEqual(formatAlertNotification(alert));
    const many = ['A', 'B', 'C', 'D', 'E'].map((name, index) => ({
      ...alert,
      storeId: `R${index}`,
      storeName: name,
    }));
    expect(formatAlertBatchNotification(many).body.split('\n')).toEqual([
      'A: iPhone 17 Pro 256GB Cosmic Orange',
      'B: iPhone 17 Pro 256GB Cosmic Orange',
      'C: iPhone 17 Pro 256GB Cosmic Orange',
      'and 2 more stores',
    ]);
  });

  it("reports macOS's refusal instead of failing silently", () => {
    const { notifier, events } = setUp({ error: 'Notifications are not allowed' });
    notifier.notifyAlerts(SEARCH_ID, [alert]);
    expect(events).toEqual(['failed Notifications are not allowed']);
    expect(notifier.countPending()).toBe(0);
  });

  it('re-attaches clicks to its notifications left in Notification Center after a relaunch', async () => {
    const { notifier, created, events } = setUp({
      history: [`search:${SEARCH_ID}:5`, 'update-ready', 'search:'],
    });
    expect(await notifier.attachHistory()).toBe(1);
    created.find((notification) => notification.id === `search:${SEARCH_ID}:5`)?.emit('click');
    expect(events).toEqual([`open ${SEARCH_ID}`]);
  });

  it('keeps "Open Store Page" on a notification re-attached after a relaunch', async () => {
    const id = `search:${SEARCH_ID}:5:R095`;
    const { notifier, created, events } = setUp({ history: [id] });
    expect(await notifier.attachHistory()).toBe(1);
    // Notification Center keeps no actions: the store comes from the id.
    created.find((notification) => notification.id === id)?.emit('action', { actionIndex: 1 });
    expect(events).toEqual(['url https://www.apple.com/retail/fifthavenue/']);
  });

  it('offers no store page for a store Apple has no page for, and opens the search instead', () => {
    const { notifier, created, events } = setUp();
    notifier.notifyAlerts(SEARCH_ID, [{ ...alert, storeId: 'R999' }]);
    expect(created[0]?.options.id).toBe(`search:${SEARCH_ID}:1000`);
    expect(created[0]?.options.actions).toEqual([{ type: 'button', text: 'Open Search' }]);
    created[0]?.emit('action', { actionIndex: 1 });
    expect(events).toEqual(['shown', `open ${SEARCH_ID}`]);
  });

  it("routes a click on the app's other notifications by their activation id, also after a relaunch", async () => {
    const { notifier, created, events } = setUp({ history: ['app:update:0.2.0'] });
    notifier.show({ title: 'Shelfwatch 0.2.0 is ready', body: '', activationId: 'update:0.2.0' });
    expect(created[0]?.options.id).toBe('app:update:0.2.0');
    created[0]?.emit('click');
    expect(await notifier.attachHistory()).toBe(1);
    created[1]?.emit('click');
    expect(events).toEqual(['shown', 'activate update:0.2.0', 'activate update:0.2.0']);
  });

  it('reads the search of a notification id', () => {
    expect(readSearchIdOf(`search:${SEARCH_ID}:12`)).toBe(SEARCH_ID);
    expect(readSearchIdOf('search:')).toBeNull();
    expect(readSearchIdOf(undefined)).toBeNull();
    expect(readSearchIdOf('other')).toBeNull();
    expect(readNotificationTarget(`search:${SEARCH_ID}:12:R095`)).toEqual({
      searchId: SEARCH_ID,
      storeId: 'R095',
    });
  });
});
