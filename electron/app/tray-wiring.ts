import path from 'node:path';
import type { Menu, MenuItemConstructorOptions } from 'electron';
import { buildTrayMenu } from '#electron/tray/tray-menu.ts';
import { buildUpdateMenuItems } from '#electron/updates/update-service.ts';
import type { DesktopContext } from './desktop-context.ts';
import type { DesktopNotifications } from './notification-wiring.ts';
import type { UpdateControls } from './updates-wiring.ts';
import type { DesktopWatch } from './watch-wiring.ts';
import { showWindow } from './window-wiring.ts';

/** Where macOS lets a user allow an app's notifications (System Settings > Notifications). */
const NOTIFICATION_SETTINGS_URL =
  'x-apple.systempreferences:com.apple.Notifications-Settings.extension';
/**
 * "Last check: 2 minutes ago" changes once a minute: the menu is compared this often and
 * rebuilt only if its text changed (and never while it is open).
 */
const TRAY_TEXT_REFRESH_MS = 60_000;

/** What a menu shows, without its click handlers: equal keys need no rebuild. */
function describeTemplate(template: MenuItemConstructorOptions[]): string {
  return JSON.stringify(
    template.map((item) => [item.type ?? 'normal', item.label ?? '', item.enabled ?? true]),
  );
}

/**
 * Puts the app in the menu bar and keeps its menu current: rebuilt when what it shows changes
 * (a check, an update, a refusal, the minute its "2 minutes ago" turns), as the pointer reaches
 * the icon, and never while it is open: macOS would swap the menu under the pointer, closing
 * a submenu or moving the item being reached for. A change while it is open waits for it to close.
 */
export function wireTray(
  ctx: DesktopContext,
  parts: { watch: DesktopWatch; updates: UpdateControls; notifications: DesktopNotifications },
): void {
  const { electron, state, log } = ctx;
  const { watch } = parts;
  const tray = new electron.Tray(
    electron.nativeImage.createFromPath(path.join(ctx.bundleDir, 'tray', 'trayTemplate.png')),
  );
  let isMenuOpen = false;
  let isStale = false;
  let shownKey: string | null = null;

  const openNotificationSettings = () => {
    electron.shell
      .openExternal(NOTIFICATION_SETTINGS_URL)
      .catch((error: unknown) => log('Could not open System Settings', error));
    parts.notifications.watchForFix();
  };
  const listenToMenu = (menu: Menu) => {
    menu.on('menu-will-show', () => {
      isMenuOpen = true;
    });
    menu.on('menu-will-close', () => {
      isMenuOpen = false;
      if (!isStale) return;
      isStale = false;
      refreshTray();
    });
  };
  const refreshTray = () => {
    const menu = buildTrayMenu(
      watch.getStatus(),
      Date.now(),
      {
        open: () => showWindow(ctx),
        checkNow: () => void watch.checkNow(),
        togglePause: () => void watch.setPaused(!state.isUserPaused),
        quit: () => electron.app.quit(),
      },
      {
        extraItems: buildUpdateMenuItems(state.updateState, {
          restart: parts.updates.restartToUpdate,
          moveToApplications: parts.updates.canMoveToApplications()
            ? parts.updates.moveToApplications
            : null,
        }),
        notificationProblem:
          state.notificationProblem === null
            ? null
            : { message: state.notificationProblem, openSettings: openNotificationSettings },
      },
    );
    // The icon's text and tooltip change in place; only the menu waits for it to close.
    tray.setToolTip(menu.tooltip);
    if (menu.title !== undefined) tray.setTitle(menu.title);
    if (isMenuOpen) {
      isStale = true;
      return;
    }
    const key = describeTemplate(menu.template);
    if (key === shownKey) return;
    shownKey = key;
    const built = electron.Menu.buildFromTemplate(menu.template);
    listenToMenu(built);
    tray.setContextMenu(built);
  };
  ctx.refreshTray = refreshTray;
  refreshTray();
  tray.on('mouse-enter', () => refreshTray());
  const timer = setInterval(refreshTray, TRAY_TEXT_REFRESH_MS);
  // The process must not stay alive for the menu's clock alone.
  timer.unref();
}
