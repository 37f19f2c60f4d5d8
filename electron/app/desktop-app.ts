import type { BrowserWindow } from 'electron';
import { wireAccount } from './account-wiring.ts';
import { createDesktopContext, type DesktopAppOptions } from './desktop-context.ts';
import { wireDockIcon } from './dock-icon.ts';
import type { ElectronApi } from './electron-api.ts';
import { wireIpc } from './ipc-wiring.ts';
import { wireLifecycle } from './lifecycle-wiring.ts';
import { wireLoginItem, wireMoveToApplications } from './login-item-wiring.ts';
import { wireMenu } from './menu-wiring.ts';
import { wireNotificationHistory, wireNotifications } from './notification-wiring.ts';
import { wirePower } from './power-wiring.ts';
import { wireAppScheme, wireProtocol } from './protocol-wiring.ts';
import { wireTray } from './tray-wiring.ts';
import { wireUpdates } from './updates-wiring.ts';
import { wireWatcher } from './watch-wiring.ts';
import { showPath, wirePermissions, wireWindow } from './window-wiring.ts';

export type { DesktopAppOptions } from './desktop-context.ts';
export type { ElectronApi } from './electron-api.ts';

/** The running app, for the entry point and tests. */
export type DesktopAppHandle = {
  getWindow: () => BrowserWindow | null;
  showPath: (appPath: string) => void;
};

/** The log's first line of a run: which version, and whether it can update where it runs. */
function describeStart(app: ElectronApi['app'], isDevelopment: boolean): string {
  const where = isDevelopment
    ? 'in development'
    : app.isInApplicationsFolder()
      ? 'from Applications'
      : 'outside Applications (it cannot update itself there)';
  return `Shelfwatch ${app.getVersion()} started ${where}`;
}

/**
 * Starts the macOS app: one window on the app:// protocol, the menu-bar item, native
 * notifications, the local watch loop (paused while the Mac sleeps) and the IPC handlers.
 * Answers null when another instance already runs (that one is brought to the front).
 */
export async function startDesktopApp(
  electron: ElectronApi,
  options: DesktopAppOptions,
): Promise<DesktopAppHandle | null> {
  wireAppScheme(electron);
  if (!electron.app.requestSingleInstanceLock()) {
    electron.app.quit();
    return null;
  }
  await electron.app.whenReady();
  const ctx = await createDesktopContext(electron, options);
  ctx.info(describeStart(electron.app, ctx.isDevelopment));
  const notifications = wireNotifications(ctx);
  const { notifier } = notifications;
  // Early: a notification click that launched the app arrives on one of these.
  wireNotificationHistory(ctx, notifier);
  const watch = wireWatcher(ctx, notifier);
  const account = wireAccount(ctx);
  // Handlers, protocol and permissions are in place before any window asks for them.
  wireIpc(ctx, { notifier, watch, account });
  wireProtocol(ctx);
  wirePermissions(ctx);
  wireMenu(ctx, watch);
  wirePower(ctx, watch);
  const quitting = wireLifecycle(ctx, watch);
  const updates = wireUpdates(ctx, { notifier, account, quitting });
  // The login item decides whether a window opens, and the Dock icon is settled before it does.
  const loginItem = wireLoginItem(ctx);
  wireDockIcon(ctx);
  wireWindow(ctx, loginItem);
  wireTray(ctx, { watch, updates, notifications });
  // Checks begin last: their first status report finds the tray and the window in place.
  watch.watcher.start();
  ctx.state.updates?.start();
  wireMoveToApplications(ctx, loginItem);
  return { getWindow: () => ctx.state.window, showPath: (appPath) => showPath(ctx, appPath) };
}
