import type { App } from 'electron';

// "Open at login" from the settings screen. On macOS 13+ the system may hold the request for
// the user's approval, so what the system reports afterwards is the truth, not the request.

/** Turns opening at login on or off; answers whether it is on now. */
export function applyLaunchAtLogin(
  app: Pick<App, 'setLoginItemSettings' | 'getLoginItemSettings'>,
  enabled: boolean,
): boolean {
  if (app.getLoginItemSettings().openAtLogin === enabled) return enabled;
  app.setLoginItemSettings({ openAtLogin: enabled });
  return app.getLoginItemSettings().openAtLogin;
}
