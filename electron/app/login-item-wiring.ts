import type { DesktopContext } from './desktop-context.ts';
import { reconcileLaunchAtLogin, wasOpenedAtLogin } from './login-item.ts';
import { offerMoveToApplications, type MoveOfferReason } from './move-to-applications.ts';

/**
 * Checks the saved "Open at login" against what macOS reports, with a notice when they
 * differ; answers whether macOS opened the app as a login item (then it stays in the menu bar).
 */
export function wireLoginItem(ctx: DesktopContext): { isOpenedAtLogin: boolean } {
  const { app } = ctx.electron;
  const { store } = ctx;
  const isOpenedAtLogin = wasOpenedAtLogin(app);
  const savedSettings = store.get('settings');
  const loginItem = reconcileLaunchAtLogin(app, savedSettings.launch_at_login);
  if (loginItem.isEnabled !== savedSettings.launch_at_login) {
    store.set('settings', { ...savedSettings, launch_at_login: loginItem.isEnabled });
  }
  if (loginItem.notice !== null) {
    ctx.notices.push({ id: 'login-item', level: 'warning', message: loginItem.notice });
  }
  return { isOpenedAtLogin };
}

/** True for a packed app outside /Applications: Squirrel.Mac may not be able to update it. */
export function isOutsideApplications(ctx: DesktopContext): boolean {
  const { app } = ctx.electron;
  return app.isPackaged && !ctx.isDevelopment && !app.isInApplicationsFolder();
}

/** Offers to move the app to Applications for a reason (see move-to-applications.ts). */
export function offerMove(ctx: DesktopContext, reason: MoveOfferReason): void {
  offerMoveToApplications(
    { app: ctx.electron.app, dialog: ctx.electron.dialog, store: ctx.store, log: ctx.log },
    reason,
  ).catch((error: unknown) => ctx.log('Could not offer to move to Applications', error));
}

/** Offers to move a packed app outside /Applications there (not at login, not in development). */
export function wireMoveToApplications(
  ctx: DesktopContext,
  loginItem: { isOpenedAtLogin: boolean },
): void {
  if (loginItem.isOpenedAtLogin || !isOutsideApplications(ctx)) return;
  offerMove(ctx, { kind: 'launch' });
}
