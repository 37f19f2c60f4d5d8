import type { Session, WebContents } from 'electron';
import { isAppUrl } from '#electron/protocol/app-protocol.ts';
import { isSafeExternalUrl } from './external-url.ts';

// The window only ever shows app:// pages. A link to the website or a store page opens in the
// browser instead; everything else (file:, other schemes, pop-ups, <webview>) is refused, so
// a page that slipped past the CSP can neither leave the app origin nor open a new window
// with the preload's bridge in it.

/** What the guard needs to decide and to hand links to the browser. */
export type NavigationGuardOptions = {
  isAppUrl: (url: string) => boolean;
  openExternal: (url: string) => Promise<unknown>;
  log?: (message: string, error?: unknown) => void;
};

type GuardedContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

/** Installs the navigation, redirect, window.open and webview guards on a window's contents. */
export function guardWebContents(contents: GuardedContents, options: NavigationGuardOptions): void {
  const log = options.log ?? ((message, error) => console.error(message, error ?? ''));
  const openInBrowser = (url: string) => {
    if (!isSafeExternalUrl(url)) return;
    options.openExternal(url).catch((error: unknown) => log('Could not open a link', error));
  };

  // A click on a link in the window: web links go to the browser, the window stays put.
  contents.on('will-navigate', (event, url) => {
    if (options.isAppUrl(url)) return;
    event.preventDefault();
    openInBrowser(url);
  });
  // Redirects and subframe navigations are not user clicks, so they open nothing; they are
  // only stopped from leaving the app origin.
  contents.on('will-redirect', (event, url) => {
    if (!options.isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (!options.isAppUrl(event.url)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    openInBrowser(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

type PermissionSession = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>;

/** The one permission the app's pages get: notifications (the website's alert switch). */
const ALLOWED_PERMISSION = 'notifications';

/**
 * Denies every permission request and check (camera, location, clipboard, ...) except
 * notifications asked by the app's own pages.
 */
export function denyPermissions(session: PermissionSession): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(permission === ALLOWED_PERMISSION && isAppUrl(details.requestingUrl));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => {
    return permission === ALLOWED_PERMISSION && isAppUrl(requestingOrigin);
  });
}
