import type { DesktopContext } from './desktop-context.ts';

/** Without a Dock icon macOS does not bring the app's window in front of others by itself. */
export function bringAppForward(ctx: DesktopContext): void {
  if (!ctx.store.get('settings').show_dock_icon) ctx.electron.app.focus({ steal: true });
}

/** Shows or hides the Dock icon (macOS); hidden, the app lives in the menu bar only. */
export function applyDockIcon(ctx: DesktopContext, shown: boolean): void {
  const { dock } = ctx.electron.app;
  if (dock === undefined) return;
  if (shown) dock.show().catch((error: unknown) => ctx.log('Could not show the Dock icon', error));
  else dock.hide();
}

/**
 * Gives the Dock icon the saved setting at start (after the login item is reconciled). An app
 * starts with its Dock icon (no LSUIElement in its Info.plist), so only "hidden" needs a call:
 * dock.show() at every launch would make macOS activate the app and take focus from whatever
 * the user was doing, a login-item start included.
 */
export function wireDockIcon(ctx: DesktopContext): void {
  if (!ctx.store.get('settings').show_dock_icon) applyDockIcon(ctx, false);
}
