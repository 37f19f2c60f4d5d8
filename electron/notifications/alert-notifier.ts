import type { LocalAlert } from '#shared/watch/local/index.ts';

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
  /** Apple's page of the store, offered as an "Open Store Page" action. */
  storePageUrl?: string;
};

/** Raises native notifications and routes their clicks. */
export type AlertNotifier = {
  notifyAlert: (alert: LocalAlert) => void;
  show: (notification: AppNotification) => void;
  /** Re-attaches click handlers to this app's notifications left in Notification Center. */
  attachHistory: () => Promise<number>;
  /** Notifications shown and not yet clicked or closed. */
  countPending: () => number;
};

/** The id prefix of a search's notifications; the search id follows it. */
const SEARCH_ID_PREFIX = 'search:';
const OPEN_SEARCH_ACTION = 'Open Search';
const OPEN_STORE_ACTION = 'Open Store Page';

/** Title and body of a stock alert: what is in stock, where, and how far away. */
export function formatAlertNotification(alert: LocalAlert): { title: string; body: string } {
  const distance =
    alert.distanceMiles === null || alert.distanceMiles === 0
      ? ''
      : ` (${alert.distanceMiles < 10 ? alert.distanceMiles.toFixed(1) : Math.round(alert.distanceMiles)} mi away)`;
  const quote = alert.pickupQuote ?? `Available for pickup at ${alert.storeName}`;
  return {
    title: `${alert.displayName} is in stock`,
    body: `${quote}${distance}`,
  };
}

/** The search a notification id of this app names, or null. */
export function readSearchIdOf(notificationId: string | undefined): string | null {
  if (notificationId === undefined || !notificationId.startsWith(SEARCH_ID_PREFIX)) return null;
  const searchId = notificationId.slice(SEARCH_ID_PREFIX.length).split(':')[0];
  return searchId === undefined || searchId === '' ? null : searchId;
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
  /** The store page of an alert, when Apple has one for the store. */
  findStorePageUrl?: (alert: LocalAlert) => string | null;
  /** macOS refused a notification (error as Electron reports it). */
  onFailed?: (error: string) => void;
  /** A notification was shown: whatever failed before works now. */
  onShown?: () => void;
  now?: () => number;
  log?: (message: string) => void;
}): AlertNotifier {
  const pending = new Set<NotificationLike>();
  const now = deps.now ?? Date.now;

  const attach = (
    notification: NotificationLike,
    target: { searchId?: string; storePageUrl?: string },
  ) => {
    pending.add(notification);
    notification.on('click', () => {
      pending.delete(notification);
      if (target.searchId !== undefined) deps.openSearch(target.searchId);
    });
    notification.on('action', (event, index) => {
      pending.delete(notification);
      // Electron 45 puts the index on the event; the second argument is its deprecated form.
      const actionIndex = (event as { actionIndex?: number } | null)?.actionIndex ?? index;
      if (actionIndex === 1 && target.storePageUrl !== undefined) {
        deps.openUrl?.(target.storePageUrl);
      } else if (target.searchId !== undefined) {
        deps.openSearch(target.searchId);
      }
    });
    notification.on('close', () => pending.delete(notification));
    notification.on('failed', (_event, error) => {
      pending.delete(notification);
      deps.log?.(`A notification could not be shown: ${error}`);
      deps.onFailed?.(error);
    });
    notification.on('show', () => deps.onShown?.());
  };

  const show = ({ title, body, searchId, storePageUrl }: AppNotification) => {
    if (!deps.Notification.isSupported()) {
      deps.log?.(`Notifications are not supported here: ${title}`);
      deps.onFailed?.('Notifications are not supported on this Mac.');
      return;
    }
    const actions =
      searchId === undefined
        ? undefined
        : [
            { type: 'button' as const, text: OPEN_SEARCH_ACTION },
            ...(storePageUrl === undefined
              ? []
              : [{ type: 'button' as const, text: OPEN_STORE_ACTION }]),
          ];
    const notification = new deps.Notification({
      title,
      body,
      ...(searchId === undefined
        ? {}
        : {
            id: `${SEARCH_ID_PREFIX}${searchId}:${now()}`,
            groupId: `${SEARCH_ID_PREFIX}${searchId}`,
            actions,
          }),
    });
    attach(notification, { searchId, storePageUrl });
    notification.show();
  };

  return {
    notifyAlert: (alert) => {
      if (!deps.isEnabled()) return;
      show({
        ...formatAlertNotification(alert),
        searchId: alert.searchId,
        storePageUrl: deps.findStorePageUrl?.(alert) ?? undefined,
      });
    },
    show,
    attachHistory: async () => {
      const delivered = (await deps.Notification.getHistory?.()) ?? [];
      let attached = 0;
      for (const notification of delivered) {
        const searchId = readSearchIdOf(notification.id);
        if (searchId === null) continue;
        attach(notification, { searchId });
        attached += 1;
      }
      return attached;
    },
    countPending: () => pending.size,
  };
}
