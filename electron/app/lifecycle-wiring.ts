import type { DesktopContext } from './desktop-context.ts';
import type { DesktopWatch } from './watch-wiring.ts';
import { showWindow } from './window-wiring.ts';

/** Marks the app as quitting, and takes it back when a quit did not happen. */
export type QuittingControl = {
  /** Every way out calls this: Quit (before-quit), Squirrel's restart, "Restart to Update". */
  markQuitting: () => void;
  /**
   * The quit did not happen ("Restart to Update" that Squirrel.Mac refused, or that never
   * quit): closing the window hides it again and the watch loop and update checks go on.
   */
  cancelQuitting: () => void;
};

/**
 * Listens for a second launch, a Dock click and every way of quitting; answers the controls
 * that mark the app as quitting and take that back.
 */
export function wireLifecycle(ctx: DesktopContext, watch: DesktopWatch): QuittingControl {
  const { app, autoUpdater } = ctx.electron;
  const { state } = ctx;
  const markQuitting = () => {
    if (state.isQuitting) return;
    state.isQuitting = true;
    watch.persistBeforeQuit();
    watch.watcher.stop();
    state.updates?.stop();
    watch.wake.stop();
    watch.appNap.stop();
  };
  const cancelQuitting = () => {
    if (!state.isQuitting) return;
    state.isQuitting = false;
    ctx.info('The quit did not happen: watching again');
    // start() plans a check at once; reschedule() moves it to its time after the last check.
    watch.watcher.start();
    watch.watcher.reschedule();
    state.updates?.resume();
    ctx.reportStatusChange();
  };
  app.on('second-instance', () => showWindow(ctx));
  app.on('activate', () => showWindow(ctx));
  // The app lives in the menu bar: closing the last window does not quit it.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', markQuitting);
  autoUpdater.on('before-quit-for-update', markQuitting);
  return { markQuitting, cancelQuitting };
}
