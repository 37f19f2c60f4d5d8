import path from 'node:path';
import { buildTrayMenu } from '#electron/tray/tray-menu.ts';
import { buildUpdateMenuItems } from '#electron/updates/update-service.ts';
import type { DesktopContext } from './desktop-context.ts';
import type { DesktopWatch } from './watch-wiring.ts';
import { showWindow } from './window-wiring.ts';

/** Where macOS lets a user allow an app's notifications (System Settings > Notifications). */
const NOTIFICATION_SETTINGS_URL =
  'x-apple.systempreferences:com.apple.Notifications-Settings.extension';
/** The tray's "Last check"/"Next check" rows are in minutes: rebuilt this often. */
const TRAY_REFRESH_MS = 30_000;

/** Puts the app in the menu bar and keeps its menu current. */
export function wireTray(
  ctx: DesktopContext,
  parts: { watch: DesktopWatch; restartToUpdate: () => void },
): void {
  const { electron, state, log } = ctx;
  const { watch } = parts;
  const tray = new electron.Tray(
    electron.nativeImage.createFromPath(path.join(ctx.bundleDir, 'tray', 'trayTemplate.png')),
  );
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
        extraItems: buildUpdateMenuItems(state.updateState, parts.restartToUpdate),
        notificationProblem:
          state.notificationProblem === null
            ? null
            : {
                message: state.notificationProblem,
                openSettings: () => {
                  electron.shell
                    .openExternal(NOTIFICATION_SETTINGS_URL)
                    .catch((error: unknown) => log('Could not open System Settings', error));
                },
              },
      },
    );
    tray.setToolTip(menu.tooltip);
    if (menu.title !== undefined) tray.setTitle(menu.title);
    tray.setContextMenu(electron.Menu.buildFromTemplate(menu.template));
  };
  ctx.refreshTray = refreshTray;
  refreshTray();
  // "Last check: 2 minutes ago" must not be stale when the menu opens: rebuilt as the pointer
  // reaches the menu-bar icon, and every half minute for keyboard and VoiceOver users.
  tray.on('mouse-enter', () => refreshTray());
  state.trayRefresh = setInterval(refreshTray, TRAY_REFRESH_MS);
}
