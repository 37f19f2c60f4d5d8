import electronUpdater from 'electron-updater';
import type { AlertNotifier } from '#electron/notifications/alert-notifier.ts';
import {
  createUpdateService,
  formatUpdateNotification,
  type UpdateFeed,
} from '#electron/updates/update-service.ts';
import type { AccountBridge } from './account-bridge.ts';
import { setTimer, type DesktopContext } from './desktop-context.ts';

/**
 * Creates the update service when there is a feed (it starts later, with the watch loop);
 * answers "Restart to Update" for the tray.
 */
export function wireUpdates(
  ctx: DesktopContext,
  parts: { notifier: AlertNotifier; account: AccountBridge; markQuitting: () => void },
): () => void {
  const { config, state } = ctx;
  // A feed given at run time, else the one electron-builder packed into the app.
  const feed: UpdateFeed =
    config.updateUrl !== null
      ? { url: config.updateUrl }
      : ctx.electron.app.isPackaged
        ? 'packed'
        : null;
  if (feed !== null) {
    // The getter builds the Squirrel.Mac updater on first use, so only an app with a feed has one.
    const { autoUpdater } = electronUpdater;
    state.updates = createUpdateService({
      updater: autoUpdater,
      feed,
      isLoginInFlight: () => parts.account.isLoginInFlight(),
      setTimer,
      log: ctx.log,
      onStateChange: (updateState) => {
        if (updateState.status === 'ready' && state.updateState.status !== 'ready') {
          parts.notifier.show(formatUpdateNotification(updateState));
        }
        state.updateState = updateState;
        ctx.refreshTray();
      },
    });
  }
  const restartToUpdate = () => {
    const { updates } = state;
    if (updates?.getState().status !== 'ready') return;
    parts.markQuitting();
    updates.restartToUpdate();
  };
  return restartToUpdate;
}
