import type { DesktopContext } from './desktop-context.ts';
import type { DesktopWatch } from './watch-wiring.ts';
import { showWindow } from './window-wiring.ts';

/**
 * Listens for a second launch, a Dock click and every way of quitting; answers the function
 * that marks the app as quitting, which "Restart to Update" calls too.
 */
export function wireLifecycle(ctx: DesktopContext, watch: DesktopWatch): () => void {
  const { app, autoUpdater } = ctx.electron;
  const { state } = ctx;
  const markQuitting = () => {
    if (state.isQuitting) return;
    state.isQuitting = true;
    watch.watcher.stop();
    state.updates?.stop();
    watch.wake.stop();
    watch.appNap.stop();
    if (state.trayRefresh !== null) clearInterval(state.trayRefresh);
  };
  app.on('second-instance', () => showWindow(ctx));
  app.on('activate', () => showWindow(ctx));
  // The app lives in the menu bar: closing the last window does not quit it.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', markQuitting);
  autoUpdater.on('before-quit-for-update', markQuitting);
  return markQuitting;
}
