import electronUpdater from 'electron-updater';
import type { AlertNotifier } from '#electron/notifications/alert-notifier.ts';
import {
  createUpdateService,
  formatUpdateNotification,
  type UpdateFeed,
  type UpdateState,
} from '#electron/updates/update-service.ts';
import type { AccountBridge } from './account-bridge.ts';
import { setTimer, type DesktopContext } from './desktop-context.ts';
import type { QuittingControl } from './lifecycle-wiring.ts';
import { isOutsideApplications, offerMove } from './login-item-wiring.ts';
import { UPDATE_ACTIVATION_PREFIX } from './notification-wiring.ts';
import { showWindow } from './window-wiring.ts';

/** An update that cannot be installed where the app runs is mentioned once a day at most. */
export const BLOCKED_UPDATE_TELL_INTERVAL_MS = 24 * 60 * 60_000;

/** What the tray and the update notification do about an update. */
export type UpdateControls = {
  restartToUpdate: () => void;
  /** Offers the move because the user asked (tray, notification). */
  moveToApplications: () => void;
  canMoveToApplications: () => boolean;
};

/** One state change as support reads it in the log. */
function describeForLog(next: UpdateState): string {
  const version = next.version === null ? '' : ` ${next.version}`;
  return `Update ${next.status}${version}${next.message === null ? '' : `: ${next.message}`}`;
}

/**
 * Creates the update service when there is a feed (it starts later, with the watch loop);
 * answers what the tray and the notification do. A "Restart to Update" that does not quit
 * puts the app back to watching and says why; an update that cannot be installed where the
 * app runs says so (once a day at most) and offers the move to Applications once per version.
 */
export function wireUpdates(
  ctx: DesktopContext,
  parts: { notifier: AlertNotifier; account: AccountBridge; quitting: QuittingControl },
): UpdateControls {
  const { config, state, store } = ctx;
  const canMoveToApplications = () => isOutsideApplications(ctx);
  const moveToApplications = () =>
    offerMove(ctx, { kind: 'asked', version: state.updateState.version });
  const notify = (update: UpdateState) =>
    parts.notifier.show({
      ...formatUpdateNotification(update),
      activationId: `${UPDATE_ACTIVATION_PREFIX}${update.version ?? ''}`,
    });
  const tellBlocked = (update: UpdateState) => {
    const prompts = store.get('prompts');
    const now = Date.now();
    const toldAt = prompts.update_blocked_told_at ?? null;
    if (toldAt !== null && now - toldAt < BLOCKED_UPDATE_TELL_INTERVAL_MS) return;
    store.set('prompts', { ...prompts, update_blocked_told_at: now });
    // A version not offered yet gets the offer itself; a known one a quieter notification.
    if (canMoveToApplications() && prompts.move_offered_version !== update.version) {
      offerMove(ctx, { kind: 'update', version: update.version ?? '' });
    } else notify(update);
  };
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
    if (ctx.updaterLogger !== null) autoUpdater.logger = ctx.updaterLogger;
    state.updates = createUpdateService({
      updater: autoUpdater,
      nativeUpdater: ctx.electron.autoUpdater,
      feed,
      isLoginInFlight: () => parts.account.isLoginInFlight(),
      setTimer,
      log: ctx.log,
      onStateChange: (next) => {
        const previous = state.updateState;
        state.updateState = next;
        const isNew = next.status !== previous.status || next.version !== previous.version;
        if (isNew) ctx.info(describeForLog(next));
        if (isNew && next.status === 'ready') notify(next);
        // A refusal of the user's own "Restart to Update" is answered by onInstallFailed.
        if (isNew && next.status === 'blocked' && !state.isQuitting) tellBlocked(next);
        ctx.reportStatusChange();
      },
      onInstallFailed: (failed) => {
        parts.quitting.cancelQuitting();
        // Squirrel closed the window on its way out: bring back what explains the failure.
        if (canMoveToApplications()) offerMove(ctx, { kind: 'asked', version: failed.version });
        else showWindow(ctx);
      },
    });
  }
  const restartToUpdate = () => {
    const { updates } = state;
    if (updates?.getState().status !== 'ready') return;
    // Squirrel closes the windows before before-quit: closing must not merely hide them.
    parts.quitting.markQuitting();
    if (!updates.restartToUpdate()) parts.quitting.cancelQuitting();
  };
  const confirmRestart = async () => {
    const { response } = await ctx.electron.dialog.showMessageBox({
      type: 'question',
      buttons: ['Restart to Update', 'Later'],
      defaultId: 0,
      cancelId: 1,
      message: `Install Shelfwatch ${state.updateState.version ?? ''} now?`,
      detail: 'Shelfwatch quits, installs the update and opens again. Your searches are kept.',
    });
    if (response === 0) restartToUpdate();
  };
  // The notification's click does what its update needs now, even long after it was posted.
  ctx.openUpdateAction = () => {
    const { status } = state.updateState;
    if (status === 'ready') {
      confirmRestart().catch((error: unknown) => ctx.log('Could not offer the restart', error));
    } else if ((status === 'blocked' || status === 'failed') && canMoveToApplications()) {
      moveToApplications();
    } else showWindow(ctx);
  };
  return { restartToUpdate, moveToApplications, canMoveToApplications };
}
