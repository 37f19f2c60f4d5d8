import { IPC_EVENT_CHANNELS } from '#shared/desktop/ipc-contract.ts';
import { selectWatchedSearches } from '#electron/searches/local-search-service.ts';
import { openExternalSafely } from '#electron/window/external-url.ts';
import { createAccountBridge, type AccountBridge } from './account-bridge.ts';
import type { DesktopContext } from './desktop-context.ts';
import { startDesktopLogin } from './login-wiring.ts';
import { sendToWindow } from './window-wiring.ts';

/**
 * Logged out, the watch loop checks the free search only (selectWatchedSearches); the others
 * stay saved. The user is told which, once, rather than left wondering why they went quiet.
 */
function noteUnwatchedSearches(ctx: DesktopContext): void {
  const saved = ctx.store.get('searches').length;
  const unwatched = saved - selectWatchedSearches(ctx.store.get('searches'), false).length;
  ctx.info(`Logged out: ${unwatched} of ${saved} searches no longer watched`);
  if (unwatched === 0) return;
  ctx.notices.push({
    id: `logged-out-${Date.now()}`,
    level: 'info',
    message: `You're logged out, so Shelfwatch now watches only your first search. Your other ${unwatched === 1 ? 'search is' : `${unwatched} searches are`} kept and watched again when you log in.`,
  });
}

/** Creates the account bridge the window logs in and calls the API through. */
export function wireAccount(ctx: DesktopContext): AccountBridge {
  let wasSignedIn = ctx.session.isSignedIn();
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
      const isSignedIn = ctx.session.isSignedIn();
      if (wasSignedIn && !isSignedIn) noteUnwatchedSearches(ctx);
      // The address is redacted in the log; the line says a login happened and whose kind.
      if (!wasSignedIn && isSignedIn)
        ctx.info(`Logged in as ${ctx.session.getUser()?.email ?? 'a user'}`);
      wasSignedIn = isSignedIn;
      // The window refetches everything on auth:changed, the notices included.
      sendToWindow(ctx, IPC_EVENT_CHANNELS.authChanged);
      ctx.reportStatusChange();
    },
    log: ctx.log,
  });
}
