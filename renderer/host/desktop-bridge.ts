import { DESKTOP_BRIDGE_GLOBAL, type DesktopHost, type HostBridge } from '#shared/bridge.ts';

/**
 * The macOS app's bridge when the renderer runs inside it (its preload exposes the bridge on
 * window before any script runs), else null: the website then uses the browser's host.
 */
export function readDesktopBridge(): HostBridge | null {
  const candidate = (window as unknown as Record<string, unknown>)[DESKTOP_BRIDGE_GLOBAL];
  if (typeof candidate !== 'object' || candidate === null) return null;
  const bridge = candidate as HostBridge;
  return bridge.kind === 'desktop' && bridge.desktop !== undefined ? bridge : null;
}

/** The desktop part of a host, or a programming error when called on the website. */
export function requireDesktop(host: HostBridge): DesktopHost {
  if (host.desktop === undefined) throw new Error('This screen is only available in the app');
  return host.desktop;
}
