import { IPC_EVENT_CHANNELS } from '#shared/desktop/ipc-contract.ts';
import { openExternalSafely } from '#electron/window/external-url.ts';
import { createAccountBridge, type AccountBridge } from './account-bridge.ts';
import type { DesktopContext } from './desktop-context.ts';
import { startDesktopLogin } from './login-wiring.ts';
import { sendToWindow } from './window-wiring.ts';

/** Creates the account bridge the window logs in and calls the API through. */
export function wireAccount(ctx: DesktopContext): AccountBridge {
  // Links from the window go through the allow-list (ctx.openExternal); the login page of
  // the configured provider is opened by the main process itself, so any safe address passes.
  const openLoginPage = (url: string) => openExternalSafely(ctx.electron.shell, url);
  return createAccountBridge({
    session: ctx.session,
    startLogin: () =>
      startDesktopLogin({
        settings: ctx.loginSettings,
        session: ctx.session,
        openExternal: openLoginPage,
        loopbackPorts: ctx.config.authLoopbackPorts,
      }),
    apiBaseUrl: ctx.config.siteUrl,
    fetch: ctx.fetch,
    onChange: () => {
      sendToWindow(ctx, IPC_EVENT_CHANNELS.authChanged);
      sendToWindow(ctx, IPC_EVENT_CHANNELS.watchChanged);
    },
    log: ctx.log,
  });
}
