import type { LocalAlert } from '#shared/watch/local/index.ts';

/** The slice of Electron's Notification instance the app uses. */
export type NotificationLike = {
  on(event: 'click', listener: () => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  show(): void;
};

/** The slice of Electron's Notification class the app uses. */
export type NotificationClass = {
  new (options: { title: string; body: string; silent?: boolean }): NotificationLike;
  isSupported: () => boolean;
};

/** A notification to raise; a search id makes its click open that search. */
export type AppNotification = { title: string; body: string; searchId?: string };

/** Raises native notifications and routes their clicks. */
export type AlertNotifier = {
  notifyAlert: (alert: LocalAlert) => void;
  show: (notification: AppNotification) => void;
  /** Notifications shown and not yet clicked or closed. */
  countPending: () => number;
};

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

/**
 * Creates the notifier. Electron drops a Notification's click handler when the object is
 * garbage collected, so shown notifications are kept until clicked or closed.
 */
export function createAlertNotifier(deps: {
  Notification: NotificationClass;
  isEnabled: () => boolean;
  openSearch: (searchId: string) => void;
  log?: (message: string) => void;
}): AlertNotifier {
  const pending = new Set<NotificationLike>();
  const show = ({ title, body, searchId }: AppNotification) => {
    if (!deps.Notification.isSupported()) {
      deps.log?.(`Notifications are not supported here: ${title}`);
      return;
    }
    const notification = new deps.Notification({ title, body });
    pending.add(notification);
    notification.on('click', () => {
      pending.delete(notification);
      if (searchId !== undefined) deps.openSearch(searchId);
    });
    notification.on('close', () => pending.delete(notification));
    notification.show();
  };
  return {
    notifyAlert: (alert) => {
      if (!deps.isEnabled()) return;
      show({ ...formatAlertNotification(alert), searchId: alert.searchId });
    },
    show,
    countPending: () => pending.size,
  };
}
