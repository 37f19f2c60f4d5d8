import { resolveCountryBase } from '#shared/upstream/index.ts';
import { createAlertNotifier, type AlertNotifier } from '#electron/notifications/alert-notifier.ts';
import { createNotificationRecheck } from '#electron/notifications/notification-recheck.ts';
import { setTimer, type DesktopContext } from './desktop-context.ts';
import { showPath } from './window-wiring.ts';

/** Apple's store pages; the watch may point at the simulator, the pages stay Apple's. */
const APPLE_WEB_URL = 'https://www.apple.com';
/** The activation id of update notifications starts with this; wireUpdates answers them. */
export const UPDATE_ACTIVATION_PREFIX = 'update:';

/** The native notifier and the check that clears a refusal once the user allowed them. */
export type DesktopNotifications = {
  notifier: AlertNotifier;
  /** Tests again, for a while, whether macOS shows notifications (System Settings opened). */
  watchForFix: () => void;
};

/**
 * Creates the native notifier: a click opens its search (or its store page, or the update's
 * action), a refusal shows in the watch status until a notification shows again.
 */
export function wireNotifications(ctx: DesktopContext): DesktopNotifications {
  const { catalog, state } = ctx;
  const storeSlugs = new Map(
    catalog
      .listStores()
      .flatMap((store) =>
        store.store_slug === null ? [] : [[store.store_id, store.store_slug] as const],
      ),
  );
  const notifier = createAlertNotifier({
    Notification: ctx.electron.Notification,
    isEnabled: () => ctx.store.get('settings').notifications_enabled,
    openSearch: (searchId) => showPath(ctx, `/search/${encodeURIComponent(searchId)}`),
    openUrl: (url) => {
      ctx.openExternal(url).catch((error: unknown) => ctx.log('Could not open a link', error));
    },
    findStorePageUrl: (storeId) => {
      const store = catalog.findStore(storeId);
      const slug = storeSlugs.get(storeId);
      if (store === undefined || slug === undefined) return null;
      return `${resolveCountryBase(APPLE_WEB_URL, store.country_code)}retail/${slug}/`;
    },
    onActivate: (activationId) => {
      if (activationId.startsWith(UPDATE_ACTIVATION_PREFIX)) ctx.openUpdateAction();
    },
    onFailed: (error) => {
      state.notificationProblem = error.trim() === '' ? 'macOS refused them' : error.trim();
      ctx.reportStatusChange();
    },
    onShown: () => {
      if (state.notificationProblem === null) return;
      state.notificationProblem = null;
      ctx.info('Notifications show again');
      ctx.reportStatusChange();
    },
    log: ctx.info,
  });
  const recheck = createNotificationRecheck({
    hasProblem: () => state.notificationProblem !== null,
    showTest: () =>
      notifier.show({
        title: 'Notifications are on',
        body: 'Shelfwatch will alert you here when a model you watch is in stock.',
        silent: true,
      }),
    setTimer,
    now: Date.now,
  });
  // Coming back to the app is when a user who just allowed notifications looks for the change.
  ctx.electron.app.on('did-become-active', () => recheck.recheck());
  return { notifier, watchForFix: () => recheck.watchForFix() };
}

/**
 * Re-attaches clicks to this app's notifications still in Notification Center, early in the
 * start: a click that launched the app arrives on one of them.
 */
export function wireNotificationHistory(ctx: DesktopContext, notifier: AlertNotifier): void {
  notifier
    .attachHistory()
    .then((count) => {
      if (count > 0) ctx.info(`Re-attached ${count} notifications from Notification Center`);
    })
    .catch((error: unknown) => ctx.log('Notification history unavailable', error));
}
