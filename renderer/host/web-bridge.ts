import type { HostBridge } from '#shared/bridge.ts';

/** The website's host: the browser itself. */
export function createWebBridge(): HostBridge {
  return {
    kind: 'web',
    openExternal: (url) => {
      // Billing portals and checkout pages replace the tab: the provider sends the user back.
      window.location.assign(url);
      return Promise.resolve();
    },
    showNotification: async ({ title, body }) => {
      if (typeof Notification === 'undefined') {
        return;
      }
      const permission =
        Notification.permission === 'default'
          ? await Notification.requestPermission()
          : Notification.permission;
      if (permission === 'granted') {
        new Notification(title, { body });
      }
    },
  };
}
