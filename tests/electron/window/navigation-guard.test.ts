import { describe, expect, it, vi } from 'vitest';
import { isAppUrl } from '#electron/protocol/app-protocol.ts';
import { denyPermissions, guardWebContents } from '#electron/window/navigation-guard.ts';
import { createFakeSession, createFakeWebContents } from '../fakes.ts';

/** Guarded fake contents with a recording openExternal. */
function createGuarded() {
  const fake = createFakeWebContents();
  const openExternal = vi.fn(async (_url: string) => undefined);
  guardWebContents(fake.contents, { isAppUrl, openExternal, log: vi.fn() });
  return { ...fake, openExternal };
}

describe('navigation guard', () => {
  it('lets the window move between app pages', () => {
    const guarded = createGuarded();
    expect(guarded.emitNavigation('will-navigate', 'app://shelfwatch/settings')).toBe(false);
    expect(guarded.emitNavigation('will-redirect', 'app://shelfwatch/')).toBe(false);
    expect(guarded.openExternal).not.toHaveBeenCalled();
  });

  it('prevents navigation away from the app and opens web links in the browser instead', () => {
    const guarded = createGuarded();
    expect(guarded.emitNavigation('will-navigate', 'https://shelfwatch.app/pricing')).toBe(true);
    expect(guarded.openExternal).toHaveBeenCalledWith('https://shelfwatch.app/pricing');
  });

  it('prevents navigation to file:, javascript: and other schemes without opening anything', () => {
    const guarded = createGuarded();
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share']) {
      expect(guarded.emitNavigation('will-navigate', url), url).toBe(true);
    }
    expect(guarded.openExternal).not.toHaveBeenCalled();
  });

  it('prevents redirects and subframe navigations out of the app', () => {
    const guarded = createGuarded();
    expect(guarded.emitNavigation('will-redirect', 'https://evil.example/')).toBe(true);
    expect(guarded.emitNavigation('will-frame-navigate', 'https://evil.example/')).toBe(true);
    expect(guarded.emitNavigation('will-frame-navigate', 'app://shelfwatch/')).toBe(false);
  });

  it('denies every window.open and hands only web addresses to the browser', () => {
    const guarded = createGuarded();
    expect(guarded.openWindow('https://www.apple.com/store')).toEqual({ action: 'deny' });
    expect(guarded.openWindow('app://shelfwatch/settings')).toEqual({ action: 'deny' });
    expect(guarded.openWindow('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(guarded.openWindow('javascript:alert(1)')).toEqual({ action: 'deny' });
    expect(guarded.openExternal.mock.calls).toEqual([['https://www.apple.com/store']]);
  });

  it('prevents attaching a webview', () => {
    expect(createGuarded().emitAttachWebview()).toBe(true);
  });

  it('logs a browser that failed to open instead of leaving the promise unhandled', async () => {
    const fake = createFakeWebContents();
    const log = vi.fn();
    const failure = new Error('no handler');
    guardWebContents(fake.contents, { isAppUrl, openExternal: () => Promise.reject(failure), log });
    fake.openWindow('https://shelfwatch.app/');
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith(expect.any(String), failure));
  });
});

describe('permissions', () => {
  it('denies every permission request except notifications from the app itself', () => {
    const fake = createFakeSession();
    denyPermissions(fake.session);
    expect(fake.requestPermission('notifications', 'app://shelfwatch/search/1')).toBe(true);
    for (const permission of ['media', 'geolocation', 'clipboard-read', 'openExternal', 'hid']) {
      expect(fake.requestPermission(permission, 'app://shelfwatch/'), permission).toBe(false);
    }
    expect(fake.requestPermission('notifications', 'https://evil.example/')).toBe(false);
  });

  it('answers permission checks the same way', () => {
    const fake = createFakeSession();
    denyPermissions(fake.session);
    expect(fake.checkPermission('notifications', 'app://shelfwatch')).toBe(true);
    expect(fake.checkPermission('media', 'app://shelfwatch')).toBe(false);
    expect(fake.checkPermission('notifications', 'https://evil.example')).toBe(false);
  });
});
