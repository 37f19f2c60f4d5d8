import type { AlertPayload } from './types.ts';

/** Links an alert points to; built by the worker from config and the signed token. */
export type AlertLinks = {
  searchUrl: string;
  storeUrl: string | undefined;
  unsubscribeUrl: string;
};

/** The rendered parts of an alert email. */
export type EmailContent = { subject: string; text: string; html: string };

/** The notification a service worker shows for a push alert. */
export type PushContent = { title: string; body: string; url: string; tag: string };

/** "Apple Fifth Avenue (New York, NY)": the store as people say it. */
function describeStore(payload: AlertPayload): string {
  const place =
    payload.storeState === null ? payload.storeCity : `${payload.storeCity}, ${payload.storeState}`;
  return `Apple ${payload.storeName} (${place})`;
}

/** Distance from the search's own store; null means the alert is about that store itself. */
function describeDistance(payload: AlertPayload): string {
  if (payload.distanceMiles === null || payload.distanceMiles <= 0) {
    return 'your search’s store';
  }
  return `${payload.distanceMiles.toFixed(1)} miles from your search’s store`;
}

/** Minute precision in UTC: mail clients show it verbatim and the recipient's zone is unknown. */
function formatObservedAt(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** Subject, plain text and HTML of an availability email. */
export function renderAlertEmail(payload: AlertPayload, links: AlertLinks): EmailContent {
  const store = describeStore(payload);
  const pickup = payload.pickupQuote ?? 'Pickup time not stated';
  const subject = `${payload.modelName} is available for pickup at Apple ${payload.storeName}`;
  const text = [
    `${payload.modelName} (${payload.partNumber}) is available for in-store pickup.`,
    '',
    `Store: ${store}`,
    `Distance: ${describeDistance(payload)}`,
    `Pickup: ${pickup}`,
    `Seen: ${formatObservedAt(payload.observedAt)}`,
    '',
    `Your search: ${links.searchUrl}`,
    ...(links.storeUrl === undefined ? [] : [`Store page: ${links.storeUrl}`]),
    '',
    'Stock moves fast; reserve soon if you want it.',
    `Stop email alerts for this search: ${links.unsubscribeUrl}`,
  ].join('\n');
  const row = (label: string, value: string): string =>
    `<tr><th align="left" style="padding:2px 12px 2px 0">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`;
  const html = [
    '<!doctype html><html><body style="font-family:-apple-system,Helvetica,Arial,sans-serif">',
    `<h1 style="font-size:20px">${escapeHtml(payload.modelName)} is available</h1>`,
    `<p>${escapeHtml(payload.productName)} · part ${escapeHtml(payload.partNumber)}</p>`,
    '<table>',
    row('Store', store),
    row('Distance', describeDistance(payload)),
    row('Pickup', pickup),
    row('Seen', formatObservedAt(payload.observedAt)),
    '</table>',
    `<p><a href="${escapeHtml(links.searchUrl)}">Open your search</a>`,
    links.storeUrl === undefined ? '' : ` · <a href="${escapeHtml(links.storeUrl)}">Store page</a>`,
    '</p>',
    '<p style="color:#666;font-size:12px">Stock moves fast; reserve soon if you want it. ',
    `<a href="${escapeHtml(links.unsubscribeUrl)}">Stop email alerts for this search</a></p>`,
    '</body></html>',
  ].join('');
  return { subject, text, html };
}

/** One SMS (kept short: every 153 characters is another billed segment). */
export function renderAlertText(payload: AlertPayload, searchUrl: string): string {
  const distance =
    payload.distanceMiles === null || payload.distanceMiles <= 0
      ? ''
      : `, ${payload.distanceMiles.toFixed(1)} mi`;
  const pickup = payload.pickupQuote === null ? '' : ` ${payload.pickupQuote}.`;
  return `Shelfwatch: ${payload.modelName} available at ${describeStore(payload)}${distance}.${pickup} ${searchUrl} Reply STOP to opt out.`;
}

/** The push notification; the tag makes a repeat replace rather than stack on the device. */
export function renderAlertPush(payload: AlertPayload, searchUrl: string): PushContent {
  const pickup = payload.pickupQuote === null ? '' : ` · ${payload.pickupQuote}`;
  return {
    title: `${payload.modelName} is available`,
    body: `${describeStore(payload)}${pickup}`,
    url: searchUrl,
    tag: `shelfwatch:${payload.searchId}:${payload.storeId}:${payload.partNumber}`,
  };
}
