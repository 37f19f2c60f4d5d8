/**
 * The one type the renderer uses to talk to its host. The website implements it with
 * browser APIs; the macOS app implements it in its preload over typed IPC.
 */
export type HostBridge = {
  /** 'web' in a browser, 'desktop' inside the macOS app. */
  kind: 'web' | 'desktop';
  /** Opens an external address (billing portal, store page) outside the app. */
  openExternal: (url: string) => Promise<void>;
  /** Shows a notification the way the host can (desktop: native; web: Notification API). */
  showNotification: (notification: {
    title: string;
    body: string;
    searchId?: string;
  }) => Promise<void>;
};
