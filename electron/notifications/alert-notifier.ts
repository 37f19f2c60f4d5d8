import type { LocalAlert } from '#shared/watch/local/index.ts';
import { fromMiles, getDistanceUnit } from '#shared/domain/alert-distance.ts';
import { describePickupQuote } from '#shared/domain/pickup-quote.ts';

// Native notifications through Electron's Notification. Since Electron 44 macOS posts them
// through UNUserNotificationCenter, which refuses an unsigned app or one the user turned off
// in System Settings; Electron then emits 'failed' and shows nothing, so every notification
// listens for it and the app says so (status line, menu bar) instead of failing silently.

/** The slice of Electron's Notification instance the app uses. */
export type NotificationLike = {
  on(event: 'click', listener: () => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'show', listener: () => void): unknown;
  on(event: 'failed', listener: (event: unknown, error: string) => void): unknown;
  on(event: 'action', listener: (event: unknown, actionIndex?: number) => void): unknown;
  show(): void;
  readonly id?: string;
};

/** Options of a notification (Electron's NotificationConstructorOptions, the part used). */
export type NotificationOptions = {
  title: string;
  body: string;
  silent?: boolean;
  /** Maps to the UNNotificationRequest identifier: `search:<id>:<time>` for alerts. */
  id?: string;
  /** Maps to threadIdentifier: one group per search in Notification Center. */
  groupId?: string;
  actions?: { type: 'button'; text: string }[];
};

/** The slice of Electron's Notification class the app uses. */
export type NotificationClass = {
  new (options: NotificationOptions): NotificationLike;
  isSupported: () => boolean;
  /** macOS: notifications still in Notification Center (empty for an unsigned app). */
  getHistory?: () => Promise<NotificationLike[]>;
};

/** A notification to raise; a search id makes its click open that search. */
export type AppNotification = {
  title: string;
  body: string;
  searchId?: string;
  /** The store of a stock alert: its Apple page is offered as "Open Store Page". */
  storeId?: string;
  /**
   * Names a notification that is not about a search (`update:0.2.0`): its click, now or
   * after a relaunch, goes to `onActivate` with this name.
   */
  activationId?: string;
  silent?: boolean;
};

/** Raises native notifications and routes their clicks. */
export type AlertNotifier = {
  /** Shows one notification for a search's released alerts (one or several). */
  notifyAlerts: (searchId: string, alerts: readonly LocalAlert[]) => void;
  show: (notification: AppNotification) => void;
  /** Re-attaches click handlers to this app's notifications left in Notification Center. */
  attachHistory: () => Promise<number>;
  /** Notifications shown and not yet clicked or closed. */
  countPending: () => number;
};

/** The id prefix of a search's notifications; the search id follows it. */
const SEARCH_ID_PREFIX = 'search:';
/** The id prefix of the app's other notifications; the activation id follows it. */
const APP_ID_PREFIX = 'app:';
const OPEN_SEARCH_ACTION = 'Open Search';
const OPEN_STORE_ACTION = 'Open Store Page';
/** Index of "Open Store Page" among a stock alert's actions. */
const OPEN_STORE_ACTION_INDEX = 1;

/** Title and body of a stock alert: what is in stock, where, and how far away. */
export function formatAlertNotification(alert: LocalAlert): { title: string; body: string } {
  const miles = formatDistance(alert.distanceMiles, alert.countryCode);
  const distance = miles === '' ? '' : ` (${miles})`;
  // "Available Wed 23 Sep" is marked "(not today)" so it never reads like today's pickup.
  const quote =
    alert.pickupQuote === null
      ? `Available for pickup at ${alert.storeName}`
      : describePickupQuote(alert.pickupQuote);
  return {
    title: `${alert.displayName} is in stock`,
    body: `${quote}${distance}`,
  };
}

/** Stores a notification of several alerts names before "and N more stores". */
const MAX_STORES_LISTED = 3;

/**
 * "12 mi away" / "19 km away" in the unit of the store's country (one decimal under 10), or ''
 * at the search's own store.
 */
function formatDistance(miles: number | null, countryCode: string | undefined): string {
  if (miles === null || miles === 0) return '';
  const unit = getDistanceUnit(countryCode ?? 'US');
  const value = fromMiles(miles, unit);
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${unit} away`;
}

/**
 * Title and body of one notification for a search's released alerts: one alert reads as
 * formatAlertNotification; several name the first model and how many more, and the body
 * lists each store (nearest first as raised) with its models, so one glance says where to go.
 */
export function formatAlertBatchNotification(alerts: readonly LocalAlert[]): {
  title: string;
  body: string;
} {
  const [first] = alerts;
  if (first === undefined) return { title: '', body: '' };
  if (alerts.length === 1) return formatAlertNotification(first);
  const models = [...new Set(alerts.map((alert) => alert.displayName))];
  const byStore = new Map<string, LocalAlert[]>();
  for (const alert of alerts)
    byStore.set(alert.storeId, [...(byStore.get(alert.storeId) ?? []), alert]);
  const title =
    models.length === 1
      ? `${first.displayName} is in stock at ${byStore.size} stores`
      : `${first.displayName} and ${models.length - 1} more are in stock`;
  const lines = [...byStore.values()].slice(0, MAX_STORES_LISTED).map((storeAlerts) => {
    const [storeAlert] = storeAlerts;
    const distance = formatDistance(storeAlert?.distanceMiles ?? null, storeAlert?.countryCode);
    const where = `${storeAlert?.storeName ?? ''}${distance === '' ? '' : ` (${distance})`}`;
    return `${where}: ${[...new Set(storeAlerts.map((alert) => alert.displayName))].join(', ')}`;
  });
  const moreStores = byStore.size - MAX_STORES_LISTED;
  if (moreStores > 0) lines.push(`and ${moreStores} more ${moreStores === 1 ? 'store' : 'stores'}`);
  return { title, body: lines.join('\n') };
}

/**
 * The id of a search's notification: `search:<search id>:<time>[:<store id>]`. Notification
 * Center keeps only the id, title and body of a delivered notification (not its actions), so
 * the store travels in the id for "Open Store Page" to work after a relaunch.
 */
export function buildSearchNotificationId(
  searchId: string,
  time: number,
  storeId?: string,
): string {
  return `${SEARCH_ID_PREFIX}${searchId}:${time}${storeId === undefined ? '' : `:${storeId}`}`;
}

/** The search (and store) a notification id of this app names, or null. */
export function readNotificationTarget(
  notificationId: string | undefined,
): { searchId: string; storeId?: string } | null {
  if (notificationId === undefined || !notificationId.startsWith(SEARCH_ID_PREFIX)) return null;
  const [searchId, , storeId] = notificationId.slice(SEARCH_ID_PREFIX.length).split(':');
  if (searchId === undefined || searchId === '') return null;
  return storeId === undefined || storeId === '' ? { searchId } : { searchId, storeId };
}

/** The search a notification id of this app names, or null. */
export function readSearchIdOf(notificationId: string | undefined): string | null {
  return readNotificationTarget(notificationId)?.searchId ?? null;
}

/**
 * Creates the notifier. Electron drops a Notification's click handler when the object is
 * garbage collected, so shown notifications are kept until clicked or closed.
 */
export function createAlertNotifier(deps: {
  Notification: NotificationClass;
  isEnabled: () => boolean;
  openSearch: (searchId: string) => void;
  /** Opens an address of the allow-list (the store page action). */
  openUrl?: (url: string) => void;
  /** Apple's page of a store, when it has one. */
  findStorePageUrl?: (storeId: string) => string | null;
  /** A click on a notification that is not about a search, by its activation id. */
  onActivate?: (activationId: string) => void;
  /** macOS refused a notification (error as Electron reports it). */
  onFailed?: (error: string) => void;
  /** A notification was shown: whatever failed before works now. */
  onShown?: () => void;
  now?: () => number;
  log?: (message: string) => void;
}): AlertNotifier {
  const pending = new Set<NotificationLike>();
  const now = deps.now ?? Date.now;

  const attach = (notification: NotificationLike, id: string | undefined) => {
    const target = readNotificationTarget(id);
    const activate = (actionIndex?: number) => {
      pending.delete(notification);
      if (target === null) {
        if (id?.startsWith(APP_ID_PREFIX) === true) {
          deps.onActivate?.(id.slice(APP_ID_PREFIX.length));
        }
        return;
      }
      const pageUrl =
        actionIndex === OPEN_STORE_ACTION_INDEX && target.storeId !== undefined
          ? (deps.findStorePageUrl?.(target.storeId) ?? null)
          : null;
      if (pageUrl !== null) deps.openUrl?.(pageUrl);
      else deps.openSearch(target.searchId);
    };
    pending.add(notification);
    notification.on('click', () => activate());
    notification.on('action', (event, index) => {
      // Electron 45 puts the index on the event; the second argument is its deprecated form.
      activate((event as { actionIndex?: number } | null)?.actionIndex ?? index);
    });
    notification.on('close', () => pending.delete(notification));
    notification.on('failed', (_event, error) => {
      pending.delete(notification);
      deps.log?.(`A notification could not be shown: ${error}`);
      deps.onFailed?.(error);
    });
    notification.on('show', () => deps.onShown?.());
  };

  const show = ({ title, body, searchId, storeId, activationId, silent }: AppNotification) => {
    if (!deps.Notification.isSupported()) {
      deps.log?.(`Notifications are not supported here: ${title}`);
      deps.onFailed?.('Notifications are not supported on this Mac.');
      return;
    }
    const hasStorePage =
      storeId !== undefined && (deps.findStorePageUrl?.(storeId) ?? null) !== null;
    const options: NotificationOptions =
      searchId === undefined
        ? {
            title,
            body,
            silent,
            ...(activationId === undefined ? {} : { id: `${APP_ID_PREFIX}${activationId}` }),
          }
        : {
            title,
            body,
            silent,
            id: buildSearchNotificationId(searchId, now(), hasStorePage ? storeId : undefined),
            groupId: `${SEARCH_ID_PREFIX}${searchId}`,
            actions: [
              { type: 'button', text: OPEN_SEARCH_ACTION },
              ...(hasStorePage ? [{ type: 'button' as const, text: OPEN_STORE_ACTION }] : []),
            ],
          };
    const notification = new deps.Notification(options);
    attach(notification, options.id);
    notification.show();
  };

  return {
    notifyAlerts: (searchId, alerts) => {
      if (!deps.isEnabled() || alerts.length === 0) return;
      // "Open Store Page" only when every alert is at one store.
      const stores = new Set(alerts.map((alert) => alert.storeId));
      const storeId = stores.size === 1 ? alerts[0]?.storeId : undefined;
      show({ ...formatAlertBatchNotification(alerts), searchId, storeId });
    },
    show,
    attachHistory: async () => {
      const delivered = (await deps.Notification.getHistory?.()) ?? [];
      let attached = 0;
      for (const notification of delivered) {
        const isOurs =
          readNotificationTarget(notification.id) !== null ||
          notification.id?.startsWith(APP_ID_PREFIX) === true;
        if (!isOurs) continue;
        attach(notification, notification.id);
        attached += 1;
      }
      return attached;
    },
    countPending: () => pending.size,
  };
}
