import type { AlertItem, AlertPayload } from './alert-types.ts';
import { escapeHtml } from '#server/base/escape-html.ts';

/** Links an alert points to; built by the worker from config and the signed token. */
export type AlertLinks = {
  searchUrl: string;
  /** Apple's store pages, to which a store's slug is appended; one link per listed store. */
  storePageBaseUrl: string;
  unsubscribeUrl: string;
};

/** The rendered parts of an alert email. */
export type EmailContent = { subject: string; text: string; html: string };

/** The notification a service worker shows for a push alert. */
export type PushContent = { title: string; body: string; url: string; tag: string };

/** "Apple Fifth Avenue (New York, NY)": the store as people say it. */
function describeStore(item: AlertItem): string {
  const place = item.storeState === null ? item.storeCity : `${item.storeCity}, ${item.storeState}`;
  return `Apple ${item.storeName} (${place})`;
}

/** Distance from the search's own store; null means the alert is about that store itself. */
function describeDistance(item: AlertItem): string {
  if (item.distanceMiles === null || item.distanceMiles <= 0) {
    return 'your search’s store';
  }
  return `${item.distanceMiles.toFixed(1)} miles from your search’s store`;
}

/** Minute precision in UTC: mail clients show it verbatim and the recipient's zone is unknown. */
function formatObservedAt(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The store's page on Apple's site, when the catalog knows its slug. */
export function buildStorePageUrl(baseUrl: string, item: AlertItem): string | undefined {
  return item.storeSlug === null ? undefined : `${baseUrl}${encodeURIComponent(item.storeSlug)}`;
}

/** "3 models at 2 stores": what a wave lists, counted as people would. */
function describeSpread(items: readonly AlertItem[]): string {
  const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
  const models = new Set(items.map((item) => item.partNumber)).size;
  const stores = new Set(items.map((item) => item.storeId)).size;
  return `${count(models, 'model')} at ${count(stores, 'store')}`;
}

/** The verb after describeSpread: "1 model at 2 stores is", "2 models at 1 store are". */
function describeSpreadVerb(items: readonly AlertItem[]): string {
  return new Set(items.map((item) => item.partNumber)).size === 1 ? 'is' : 'are';
}

/** "1 more" / "2 more": the count of pairs besides the best match. */
function describeOthers(count: number): string {
  return `${count} more`;
}

/** The opening a quiet-hours summary carries: why it comes late, and that stock may have moved. */
const HELD_NOTE =
  'Held during your quiet hours: these became available while you asked not to be disturbed, and some may have sold out since.';

/** Subject, plain text and HTML of an availability email: one model, or the whole wave. */
export function renderAlertEmail(payload: AlertPayload, links: AlertLinks): EmailContent {
  const [best, ...others] = payload.items as [AlertItem, ...AlertItem[]];
  const prefix = payload.heldUntil === null ? '' : 'Quiet hours summary: ';
  const subject =
    others.length === 0
      ? `${prefix}${best.modelName} is available for pickup at Apple ${best.storeName}`
      : `${prefix}${best.modelName} and ${describeOthers(others.length)} are available for pickup near you`;
  const footer = [
    '',
    'Stock moves fast; reserve soon if you want it.',
    `Stop email alerts for this search: ${links.unsubscribeUrl}`,
  ];
  const describeItemText = (item: AlertItem): string[] => [
    `Store: ${describeStore(item)}`,
    `Distance: ${describeDistance(item)}`,
    `Pickup: ${item.pickupQuote ?? 'Pickup time not stated'}`,
    `Seen: ${formatObservedAt(item.observedAt)}`,
  ];
  const storePageLines = (item: AlertItem): string[] => {
    const storeUrl = buildStorePageUrl(links.storePageBaseUrl, item);
    return storeUrl === undefined ? [] : [`Store page: ${storeUrl}`];
  };
  const text = [
    ...(payload.heldUntil === null ? [] : [HELD_NOTE, '']),
    ...(others.length === 0
      ? [
          `${best.modelName} (${best.partNumber}) is available for in-store pickup.`,
          '',
          ...describeItemText(best),
          '',
          `Your search: ${links.searchUrl}`,
          ...storePageLines(best),
        ]
      : [
          `${payload.productName}: ${describeSpread(payload.items)} ${describeSpreadVerb(payload.items)} available for in-store pickup, nearest first:`,
          ...payload.items.flatMap((item, index) => [
            '',
            `${index + 1}. ${item.modelName} (${item.partNumber})`,
            ...[...describeItemText(item), ...storePageLines(item)].map((line) => `   ${line}`),
          ]),
          '',
          `Your search: ${links.searchUrl}`,
        ]),
    ...footer,
  ].join('\n');

  const row = (label: string, value: string): string =>
    `<tr><th align="left" style="padding:2px 12px 2px 0">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`;
  const itemTable = (item: AlertItem): string =>
    [
      '<table>',
      row('Store', describeStore(item)),
      row('Distance', describeDistance(item)),
      row('Pickup', item.pickupQuote ?? 'Pickup time not stated'),
      row('Seen', formatObservedAt(item.observedAt)),
      '</table>',
    ].join('');
  const storeLink = (item: AlertItem): string => {
    const url = buildStorePageUrl(links.storePageBaseUrl, item);
    return url === undefined ? '' : `<a href="${escapeHtml(url)}">Store page</a>`;
  };
  const held =
    payload.heldUntil === null ? '' : `<p style="color:#555">${escapeHtml(HELD_NOTE)}</p>`;
  const body =
    others.length === 0
      ? [
          `<h1 style="font-size:20px">${escapeHtml(best.modelName)} is available</h1>`,
          `<p>${escapeHtml(payload.productName)} · part ${escapeHtml(best.partNumber)}</p>`,
          itemTable(best),
          `<p><a href="${escapeHtml(links.searchUrl)}">Open your search</a>`,
          storeLink(best) === '' ? '' : ` · ${storeLink(best)}`,
          '</p>',
        ]
      : [
          `<h1 style="font-size:20px">${escapeHtml(best.modelName)} and ${describeOthers(others.length)} are available</h1>`,
          `<p>${escapeHtml(payload.productName)} · ${describeSpread(payload.items)}, nearest first</p>`,
          '<ol>',
          ...payload.items.map(
            (item) =>
              `<li><p><strong>${escapeHtml(item.modelName)}</strong> · part ${escapeHtml(item.partNumber)}</p>${itemTable(item)}${storeLink(item) === '' ? '' : `<p>${storeLink(item)}</p>`}</li>`,
          ),
          '</ol>',
          `<p><a href="${escapeHtml(links.searchUrl)}">Open your search</a></p>`,
        ];
  const html = [
    '<!doctype html><html><body style="font-family:-apple-system,Helvetica,Arial,sans-serif">',
    held,
    ...body,
    '<p style="color:#666;font-size:12px">Stock moves fast; reserve soon if you want it. ',
    `<a href="${escapeHtml(links.unsubscribeUrl)}">Stop email alerts for this search</a></p>`,
    '</body></html>',
  ].join('');
  return { subject, text, html };
}

/**
 * One SMS (kept short: every 153 characters is another billed segment): the best match,
 * and how many other pairs the wave found.
 */
export function renderAlertText(payload: AlertPayload, searchUrl: string): string {
  const [best, ...others] = payload.items as [AlertItem, ...AlertItem[]];
  const distance =
    best.distanceMiles === null || best.distanceMiles <= 0
      ? ''
      : `, ${best.distanceMiles.toFixed(1)} mi`;
  const pickup = best.pickupQuote === null ? '' : ` ${best.pickupQuote}.`;
  const more = others.length === 0 ? '' : ` Plus ${describeOthers(others.length)} nearby.`;
  const lead = payload.heldUntil === null ? 'Shelfwatch' : 'Shelfwatch quiet hours summary';
  return `${lead}: ${best.modelName} available at ${describeStore(best)}${distance}.${pickup}${more} ${searchUrl} Reply STOP to opt out.`;
}

/** The push notification; the tag makes a repeat replace rather than stack on the device. */
export function renderAlertPush(payload: AlertPayload, searchUrl: string): PushContent {
  const [best, ...others] = payload.items as [AlertItem, ...AlertItem[]];
  const pickup = best.pickupQuote === null ? '' : ` · ${best.pickupQuote}`;
  const more = others.length === 0 ? '' : ` · plus ${describeOthers(others.length)} nearby`;
  return {
    title:
      others.length === 0
        ? `${best.modelName} is available`
        : `${best.modelName} and ${describeOthers(others.length)} are available`,
    body: `${describeStore(best)}${pickup}${more}`,
    url: searchUrl,
    tag: `shelfwatch:${payload.searchId}:${best.storeId}:${best.partNumber}`,
  };
}
