import { resolveCountryBase } from '#shared/upstream/index.ts';
import { createAlertNotifier, type AlertNotifier } from '#electron/notifications/alert-notifier.ts';
import type { DesktopContext } from './desktop-context.ts';
import { showPath } from './window-wiring.ts';

/** Apple's store pages; the watch may point at the simulator, the pages stay Apple's. */
const APPLE_WEB_URL = 'https://www.apple.com';

/** Creates the native notifier: a click opens its search, a refusal shows in the watch status. */
export function wireNotifications(ctx: DesktopContext): AlertNotifier {
  const { catalog, state } = ctx;
  const storeSlugs = new Map(
    catalog
      .listStores()
      .flatMap((store) =>
        store.store_slug === null ? [] : [[store.store_id, store.store_slug] as const],
      ),
  );
  return createAlertNotifier({
    Notification: ctx.electron.Notification,
    isEnabled: () => ctx.store.get('settings').notifications_enabled,
    openSearch: (searchId) => showPath(ctx, `/search/${encodeURIComponent(searchId)}`),
    openUrl: (url) => {
      ctx.openExternal(url).catch((error: unknown) => ctx.log('Could not open a link', error));
    },
    findStorePageUrl: (alert) => {
      const store = catalog.findStore(alert.storeId);
      const slug = storeSlugs.get(alert.storeId);
      if (store === undefined || slug === undefined) return null;
      return `${resolveCountryBase(APPLE_WEB_URL, store.country_code)}retail/${slug}/`;
    },
    onFailed: (error) => {
      state.notificationProblem = error.trim() === '' ? 'macOS refused them' : error.trim();
      ctx.reportStatusChange();
    },
    onShown: () => {
      if (state.notificationProblem === null) return;
      state.notificationProblem = null;
      ctx.reportStatusChange();
    },
    log: ctx.log,
  });
}

/** Re-attaches clicks to this app's notifications still in Notification Center. */
export function wireNotificationHistory(ctx: DesktopContext, notifier: AlertNotifier): void {
  notifier
    .attachHistory()
    .catch((error: unknown) => ctx.log('Notification history unavailable', error));
}
