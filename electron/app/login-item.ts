import type { App } from 'electron';

// "Open at login" from the settings screen. On macOS 13+ the login item is an SMAppService the
// user can remove or leave waiting for approval in System Settings > General > Login Items,
// so what the system reports is the truth, not the saved switch: the app compares them at
// every start. `openAsHidden` no longer works on macOS 13+, so an app opened at login keeps
// its window closed itself (wasOpenedAtLogin).

type LoginItemApp = Pick<App, 'setLoginItemSettings' | 'getLoginItemSettings'>;

/** Turns opening at login on or off; answers whether it is on now. */
export function applyLaunchAtLogin(app: LoginItemApp, enabled: boolean): boolean {
  if (app.getLoginItemSettings().openAtLogin === enabled) return enabled;
  app.setLoginItemSettings({ openAtLogin: enabled });
  return app.getLoginItemSettings().openAtLogin;
}

/** The saved switch checked against the system at start. */
export type LoginItemReconciliation = {
  /** What the settings switch should say now. */
  isEnabled: boolean;
  /** A sentence for the user when the system disagrees with the saved switch. */
  notice: string | null;
};

/** Where the switch is in System Settings, for the notices. */
const LOGIN_ITEMS_PLACE = 'System Settings > General > Login Items';

/** Compares the saved "open at login" with what macOS reports. */
export function reconcileLaunchAtLogin(
  app: LoginItemApp,
  savedEnabled: boolean,
): LoginItemReconciliation {
  const reported = app.getLoginItemSettings();
  // Older systems and other platforms carry no status; openAtLogin is all there is.
  const status = reported.status as string | undefined;
  if (status === 'requires-approval') {
    return {
      isEnabled: savedEnabled,
      notice: savedEnabled
        ? `Shelfwatch can open at login once you allow it in ${LOGIN_ITEMS_PLACE}.`
        : null,
    };
  }
  const isOn = status === undefined ? reported.openAtLogin : status === 'enabled';
  if (savedEnabled && !isOn) {
    return {
      isEnabled: false,
      notice: `Shelfwatch no longer opens at login: it was removed in ${LOGIN_ITEMS_PLACE}. Turn it on again in Settings if you want it.`,
    };
  }
  if (!savedEnabled && isOn) return { isEnabled: true, notice: null };
  return { isEnabled: savedEnabled, notice: null };
}

/** True when macOS started the app as a login item (then no window opens). */
export function wasOpenedAtLogin(app: LoginItemApp): boolean {
  return app.getLoginItemSettings().wasOpenedAtLogin === true;
}
