import path from 'node:path';
import type { BrowserWindow } from 'electron';
import { IPC_EVENT_CHANNELS } from '#shared/desktop/ipc-contract.ts';
import { APP_ORIGIN, isAppUrl } from '#electron/protocol/app-protocol.ts';
import { denyPermissions, guardWebContents } from '#electron/window/navigation-guard.ts';
import { buildMainWindowOptions, selectWindowBackground } from '#electron/window/window-options.ts';
import { restoreBounds, trackWindowBounds } from '#electron/window/window-state.ts';
import { setTimer, type DesktopContext } from './desktop-context.ts';
import { bringAppForward } from './dock-icon.ts';

/** Sends an event to the window, if one is open. */
export function sendToWindow(ctx: DesktopContext, channel: string, payload?: unknown): void {
  const { window } = ctx.state;
  if (window !== null && !window.isDestroyed()) window.webContents.send(channel, payload);
}

function createWindow(ctx: DesktopContext, initialPath: string): BrowserWindow {
  const { electron, store, state } = ctx;
  const created = new electron.BrowserWindow(
    buildMainWindowOptions({
      preloadPath: path.join(ctx.bundleDir, 'preload.cjs'),
      bounds: restoreBounds(store.get('window')?.bounds, electron.screen.getAllDisplays()),
      isDark: electron.nativeTheme.shouldUseDarkColors,
    }),
  );
  state.isWindowLoaded = false;
  created.webContents.on('did-finish-load', () => {
    if (state.window === created) state.isWindowLoaded = true;
  });
  guardWebContents(created.webContents, { isAppUrl, openExternal: ctx.openExternal });
  trackWindowBounds(created, (bounds) => store.set('window', { bounds }), setTimer);
  created.once('ready-to-show', () => created.show());
  // Closing the window keeps the app watching from the menu bar; Quit ends it.
  created.on('close', (event) => {
    if (!state.isQuitting) {
      event.preventDefault();
      created.hide();
    }
  });
  created.on('closed', () => {
    state.window = null;
  });
  loadPath(ctx, created, initialPath);
  return created;
}

/** Brings the window forward on a path of the app, opening it there if it is closed. */
export function showPath(ctx: DesktopContext, appPath: string): void {
  const { state } = ctx;
  if (state.window === null || state.window.isDestroyed()) {
    state.window = createWindow(ctx, appPath);
    return;
  }
  if (state.window.isMinimized()) state.window.restore();
  state.window.show();
  state.window.focus();
  bringAppForward(ctx);
  // A page still loading has no listener yet: a notification click that launched the app
  // arrives then, and would be lost as an event. Loading the path itself cannot be.
  if (state.isWindowLoaded) sendToWindow(ctx, IPC_EVENT_CHANNELS.navigate, { path: appPath });
  else loadPath(ctx, state.window, appPath);
}

function loadPath(ctx: DesktopContext, window: BrowserWindow, appPath: string): void {
  window.loadURL(`${APP_ORIGIN}${appPath}`).catch((error: unknown) => {
    ctx.log('The window could not load the app', error);
  });
}

/** Brings the window forward where it was, opening it on My Searches if it is closed. */
export function showWindow(ctx: DesktopContext): void {
  const { state } = ctx;
  if (state.window === null || state.window.isDestroyed()) state.window = createWindow(ctx, '/');
  else {
    if (state.window.isMinimized()) state.window.restore();
    state.window.show();
    state.window.focus();
    bringAppForward(ctx);
  }
}

/** Denies the window's pages every permission but notifications. */
export function wirePermissions(ctx: DesktopContext): void {
  denyPermissions(ctx.electron.session.defaultSession);
}

/**
 * Opens the first window, unless macOS opened the app as a login item, and keeps its
 * background with the system appearance (seen before the page paints and while resizing).
 */
export function wireWindow(ctx: DesktopContext, loginItem: { isOpenedAtLogin: boolean }): void {
  const { nativeTheme } = ctx.electron;
  nativeTheme.on('updated', () => {
    const { window } = ctx.state;
    if (window === null || window.isDestroyed()) return;
    window.setBackgroundColor(selectWindowBackground(nativeTheme.shouldUseDarkColors));
  });
  if (!loginItem.isOpenedAtLogin && ctx.state.window === null) {
    ctx.state.window = createWindow(ctx, '/');
  }
}
