// Shelfwatch service worker: shows stock alerts pushed by the server (server/notify/push-channel.ts
// sends JSON { title, body, url, tag }) and opens the search when one is clicked.
// Plain JS on purpose: the build copies it as is to /sw.js so its scope is the whole site.
/* global self, clients */

const FALLBACK = { title: 'Shelfwatch', body: 'Stock changed for one of your searches.', url: '/' };

/** Reads the push payload; a missing or malformed one still shows something (userVisibleOnly). */
function readPayload(event) {
  if (!event.data) return FALLBACK;
  try {
    const payload = event.data.json();
    return {
      title: typeof payload.title === 'string' ? payload.title : FALLBACK.title,
      body: typeof payload.body === 'string' ? payload.body : FALLBACK.body,
      url: typeof payload.url === 'string' ? payload.url : FALLBACK.url,
      tag: typeof payload.tag === 'string' ? payload.tag : undefined,
    };
  } catch {
    return { ...FALLBACK, body: event.data.text() || FALLBACK.body };
  }
}

/**
 * Only this site's pages open from a notification, whatever the payload says: the path is kept
 * and put on this origin (the server's public URL may name the site by another host name).
 */
function toSiteUrl(url) {
  try {
    const target = new URL(url, self.location.origin);
    return self.location.origin + target.pathname + target.search + target.hash;
  } catch {
    return self.location.origin + '/';
  }
}

// A new version takes over at once: the worker holds no caches that could go stale.
self.addEventListener('install', () => {
  self.skipWaiting();
});
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  const payload = readPayload(event);
  event.waitUntil(
    self.registration.showNotification(payload.title, {
      body: payload.body,
      // The same tag replaces an earlier alert for the same store and model instead of stacking.
      tag: payload.tag,
      renotify: payload.tag !== undefined,
      data: { url: toSiteUrl(payload.url) },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url =
    (event.notification.data && event.notification.data.url) || self.location.origin + '/';
  event.waitUntil(
    (async () => {
      const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
      // Reuse a tab already on the search; otherwise any site tab, navigated; else a new one.
      const onSearch = windows.find((client) => client.url === url);
      if (onSearch) return onSearch.focus();
      const anyTab = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (anyTab) {
        try {
          const focused = await anyTab.focus();
          const navigated = await focused.navigate(url);
          if (navigated) return navigated;
        } catch {
          // navigate() only works on tabs this worker controls; open a new one instead.
        }
      }
      return clients.openWindow(url);
    })(),
  );
});
