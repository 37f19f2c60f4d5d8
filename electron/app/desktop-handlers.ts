import type { DesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import {
  clampCheckIntervalMinutes,
  desktopSettingsSchema,
  type DesktopNotice,
  type DesktopSettings,
  type DesktopWatchStatus,
} from '#shared/desktop/local-search.ts';
import { DesktopError } from '#electron/ipc/desktop-error.ts';
import type { IpcHandlers } from '#electron/ipc/ipc-router.ts';
import type { AppNotification } from '#electron/notifications/alert-notifier.ts';
import type { LocalSearchService } from '#electron/searches/local-search-service.ts';
import type { AccountBridge } from './account-bridge.ts';

/** What the IPC handlers call into; each part is built by ipc-wiring.ts. */
export type DesktopHandlerDeps = {
  searches: LocalSearchService;
  catalog: DesktopCatalog;
  watch: {
    getStatus: () => DesktopWatchStatus;
    checkNow: () => Promise<unknown>;
    setPaused: (paused: boolean) => Promise<DesktopWatchStatus>;
    /** The interval changed: plan the next check from the last one. */
    reschedule: () => void;
  };
  settings: {
    read: () => DesktopSettings;
    write: (settings: DesktopSettings) => void;
    applyLaunchAtLogin: (enabled: boolean) => boolean | void;
    /** Shows or hides the Dock icon. */
    applyDockIcon?: (shown: boolean) => void;
  };
  account: AccountBridge;
  takeNotices: () => DesktopNotice[];
  openExternal: (url: string) => Promise<boolean>;
  showNotification: (notification: AppNotification) => void;
};

/** One handler per request channel; payloads arrive parsed by the IPC router. */
export function createDesktopHandlers(deps: DesktopHandlerDeps): IpcHandlers {
  const { searches, catalog, watch, settings } = deps;
  return {
    'searches:list': () => searches.list(),
    'searches:get': ({ id }) => searches.get(id),
    'searches:create': (input) => searches.create(input),
    'searches:update': ({ id, update }) => searches.update(id, update),
    'searches:remove': ({ id }) => searches.remove(id),
    'searches:inventory': ({ id }) => searches.inventory(id),
    'searches:history': ({ id, days }) => searches.history(id, days),
    'catalog:products': () => catalog.listProducts(),
    'catalog:stores': () => catalog.listStores(),
    'catalog:countries': () => catalog.listCountries(),
    'watch:status': () => watch.getStatus(),
    'watch:check-now': async () => {
      await watch.checkNow();
      return watch.getStatus();
    },
    'watch:set-paused': ({ paused }) => watch.setPaused(paused),
    'settings:get': () => settings.read(),
    'settings:update': (patch) => {
      const current = settings.read();
      const next = desktopSettingsSchema.parse({
        ...current,
        ...patch,
        check_interval_minutes: clampCheckIntervalMinutes(
          patch.check_interval_minutes ?? current.check_interval_minutes,
        ),
      });
      if (next.launch_at_login !== current.launch_at_login) {
        settings.applyLaunchAtLogin(next.launch_at_login);
      }
      if (next.show_dock_icon !== current.show_dock_icon) {
        settings.applyDockIcon?.(next.show_dock_icon);
      }
      settings.write(next);
      if (next.check_interval_minutes !== current.check_interval_minutes) watch.reschedule();
      return next;
    },
    'notices:take': () => deps.takeNotices(),
    'shell:open-external': async ({ url }) => {
      if (!(await deps.openExternal(url))) {
        throw new DesktopError(
          'invalid_input',
          "Only Apple's and Shelfwatch's secure (https) web addresses can be opened.",
          {
            field: 'url',
          },
        );
      }
      return null;
    },
    'notifications:show': (notification) => {
      deps.showNotification(notification);
      return null;
    },
    'auth:status': () => deps.account.status(),
    'auth:login': () => deps.account.login(),
    'auth:cancel': () => deps.account.cancelLogin(),
    'auth:logout': () => deps.account.logout(),
    'api:request': (request) => deps.account.request(request),
  };
}
