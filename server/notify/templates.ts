import { escapeHtml } from '#server/base/escape-html.ts';
import { formatDistance, getDistanceUnit } from '#shared/domain/alert-distance.ts';
import {
  FALLBACK_TIME_ZONE,
  formatAlertClock,
  formatAlertTime,
} from '#shared/domain/alert-time.ts';
import { describePickupQuote } from '#shared/domain/pickup-quote.ts';
import { formatAppleStoreName, type ItemLinkBuilders } from './alert-links.ts';
import type { AlertItem, AlertPayload } from './alert-types.ts';

/** Links an alert points to; built by the worker from config, the catalog and the signed token. */
export type AlertLinks = ItemLinkBuilders & {
  searchUrl: string;
  unsubscribeUrl: string;
};

/** How the recipient reads times: their account's IANA zone (UTC until they have one). */
export type RenderOptions = { timeZone: string };

/** The rendered parts of an alert email. */
export type EmailContent = { subject: string; text: string; html: string };

/** The notification a service worker shows for a push alert. */
export type PushContent = { title: string; body: string; url: string; tag: string };

/** "Apple Fifth Avenue (New York, NY)": the store as people say it. */
export function describeStore(item: AlertItem): string {
  const place = item.storeState === null ? item.storeCity : `${item.storeCity}, ${item.storeState}`;
  return `${formatAppleStoreName(item.storeName)} (${place})`;
}

/** Whether a pair is at the search's own store (distance 0, or unknown in old rows). */
function isOwnStore(item: AlertItem): boolean {
  return item.distanceMiles === null || item.distanceMiles <= 0;
}

/** "1.2 mi" / "3.4 km" in the store country's unit; "your store" for the search's own. */
export function describeShortDistance(item: AlertItem): string {
  return isOwnStore(item)
    ? 'your store'
    : formatDistance(item.distanceMiles ?? 0, getDistanceUnit(item.countryCode));
}

/** Distance from the search's own store, as the email's Distance line reads. */
function describeDistance(item: AlertItem): string {
  return isOwnStore(item)
    ? 'your search’s store'
    : `${describeShortDistance(item)} from your search’s store`;
}

/** "iPhone 16 Pro 256GB at Fifth Avenue, 1.2 mi": the subject's and a text's lead. */
export function describeHeadline(item: AlertItem): string {
  return `${item.modelName} at ${item.storeName}, ${describeShortDistance(item)}`;
}

/** "Gone at 10:42" for a pair that sold out before the message left; empty otherwise. */
export function describeGone(item: AlertItem, options: RenderOptions): string {
  return item.goneAt == null ? '' : `gone at ${formatAlertClock(item.goneAt, options.timeZone)}`;
}

/** "3 models at 2 stores": what a wave lists, counted as people would. */
function describeSpread(items: readonly AlertItem[]): string {
  const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
  const models = new Set(items.map((item) => item.partNumber)).size;
  const stores = new Set(items.map((item) => item.storeId)).size;
  return `${count(models, 'model')} at ${count(stores, 'store')}`;
}

/** The opening a quiet-hours summary carries: why it comes late, and that stock may have moved. */
const HELD_NOTE =
  'Held during your quiet hours: these became available while you asked not to be disturbed, and some may have sold out since.';

/** Why a message collected several restocks: the search's cadence, and where to change it. */
function describeCadenceNote(payload: AlertPayload): string | undefined {
  const minutes = payload.cadenceMinutes;
  if (minutes == null || payload.heldUntil !== null) return undefined;
  return `This search sends at most one message every ${minutes} minutes, with everything that came in meanwhile; change it in the search’s settings.`;
}

/** The subject: model, store and distance of the best match, and how many more. */
function buildSubject(payload: AlertPayload): string {
  const [best, ...others] = payload.items as [AlertItem, ...AlertItem[]];
  const prefix = payload.heldUntil === null ? '' : 'Quiet hours summary: ';
  const more = others.length === 0 ? '' : `, and ${others.length} more`;
  return `${prefix}${describeHeadline(best)}${more}`;
}

/** Subject, plain text and HTML of an availability email: one model, or the whole wave. */
export function renderAlertEmail(
  payload: AlertPayload,
  links: AlertLinks,
  options: RenderOptions = { timeZone: FALLBACK_TIME_ZONE },
): EmailContent {
  const items = payload.items;
  const [best] = items as [AlertItem, ...AlertItem[]];
  const cadenceNote = describeCadenceNote(payload);
  const isSingle = items.length === 1;
  const rows = (item: AlertItem): [string, string][] => [
    ['Store', describeStore(item)],
    ['Distance', describeDistance(item)],
    ['Pickup', describePickupQuote(item.pickupQuote)],
    ['Seen', formatAlertTime(item.observedAt, options.timeZone)],
    ...(item.goneAt == null
      ? []
      : [['Now', `Sold out again, ${describeGone(item, options)}`] as [string, string]]),
  ];
  const itemLinks = (item: AlertItem): [string, string][] => {
    const buy = links.buyUrl(item);
    const store = links.storeUrl(item);
    return [
      ...(buy === undefined
        ? []
        : [[`Buy ${item.modelName} on apple.com`, buy] as [string, string]]),
      ...(store === undefined ? [] : [['Store page', store] as [string, string]]),
    ];
  };
  const intro = isSingle
    ? `${best.modelName} (${best.partNumber}) is available for in-store pickup.`
    : `${payload.productName}: ${describeSpread(items)} available for in-store pickup, nearest first:`;
  const text = [
    ...(payload.heldUntil === null ? [] : [HELD_NOTE, '']),
    intro,
    ...items.flatMap((item, index) => {
      const indent = isSingle ? '' : '   ';
      return [
        '',
        ...(isSingle ? [] : [`${index + 1}. ${item.modelName} (${item.partNumber})`]),
        ...rows(item).map(([label, value]) => `${indent}${label}: ${value}`),
        ...itemLinks(item).map(([label, url]) => `${indent}${label}: ${url}`),
      ];
    }),
    '',
    `Your search: ${links.searchUrl}`,
    ...(cadenceNote === undefined ? [] : [cadenceNote]),
    `Times are in ${options.timeZone}; change the time zone in My Account.`,
    '',
    'Stock moves fast; reserve soon if you want it.',
    `Stop email alerts for this search: ${links.unsubscribeUrl}`,
  ].join('\n');

  const table = (item: AlertItem): string =>
    [
      '<table>',
      ...rows(item).map(
        ([label, value]) =>
          `<tr><th align="left" style="padding:2px 12px 2px 0">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
      ),
      '</table>',
    ].join('');
  const anchors = (item: AlertItem): string => {
    const list = itemLinks(item).map(
      ([label, url]) => `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`,
    );
    return list.length === 0 ? '' : `<p>${list.join(' · ')}</p>`;
  };
  const held =
    payload.heldUntil === null ? '' : `<p style="color:#555">${escapeHtml(HELD_NOTE)}</p>`;
  const body = isSingle
    ? [
        `<h1 style="font-size:20px">${escapeHtml(describeHeadline(best))}</h1>`,
        `<p>${escapeHtml(payload.productName)} · part ${escapeHtml(best.partNumber)}</p>`,
        table(best),
        anchors(best),
      ]
    : [
        `<h1 style="font-size:20px">${escapeHtml(buildSubject({ ...payload, heldUntil: null }))}</h1>`,
        `<p>${escapeHtml(payload.productName)} · ${describeSpread(items)}, nearest first</p>`,
        '<ol>',
        ...items.map(
          (item) =>
            `<li><p><strong>${escapeHtml(item.modelName)}</strong> · part ${escapeHtml(item.partNumber)}</p>${table(item)}${anchors(item)}</li>`,
        ),
        '</ol>',
      ];
  const html = [
    '<!doctype html><html><body style="font-family:-apple-system,Helvetica,Arial,sans-serif">',
    held,
    ...body,
    `<p><a href="${escapeHtml(links.searchUrl)}">Open your search</a></p>`,
    cadenceNote === undefined ? '' : `<p style="color:#555">${escapeHtml(cadenceNote)}</p>`,
    `<p style="color:#666;font-size:12px">Times are in ${escapeHtml(options.timeZone)}. Stock moves fast; reserve soon if you want it. `,
    `<a href="${escapeHtml(links.unsubscribeUrl)}">Stop email alerts for this search</a></p>`,
    '</body></html>',
  ].join('');
  return { subject: buildSubject(payload), text, html };
}

/**
 * One SMS (kept short: every 153 characters is another billed segment): the best match with
 * its distance, pickup day and seen time, how many other pairs the wave found, and the buy link.
 */
export function renderAlertText(
  payload: AlertPayload,
  links: Pick<AlertLinks, 'searchUrl' | 'buyUrl'>,
  options: RenderOptions = { timeZone: FALLBACK_TIME_ZONE },
): string {
  const [best, ...others] = payload.items as [AlertItem, ...AlertItem[]];
  const gone = describeGone(best, options);
  const pickup = ` ${describePickupQuote(best.pickupQuote)}${gone === '' ? '' : `, ${gone}`}.`;
  const seen = ` Seen ${formatAlertClock(best.observedAt, options.timeZone)}.`;
  const more = others.length === 0 ? '' : ` Plus ${others.length} more nearby.`;
  const lead = payload.heldUntil === null ? 'Shelfwatch' : 'Shelfwatch quiet hours summary';
  const buy = links.buyUrl(best);
  return `${lead}: ${describeHeadline(best)}.${pickup}${seen}${more} ${buy === undefined ? '' : `Buy: ${buy} `}${links.searchUrl} Reply STOP to opt out.`;
}

/** The push notification; the tag makes a repeat replace rather than stack on the device. */
export function renderAlertPush(
  payload: AlertPayload,
  searchUrl: string,
  options: RenderOptions = { timeZone: FALLBACK_TIME_ZONE },
): PushContent {
  const [best, ...others] = payload.items as [AlertItem, ...AlertItem[]];
  const gone = describeGone(best, options);
  const more = others.length === 0 ? '' : ` · plus ${others.length} more nearby`;
  return {
    title:
      others.length === 0
        ? describeHeadline(best)
        : `${describeHeadline(best)}, and ${others.length} more`,
    body: `${describeStore(best)} · ${describePickupQuote(best.pickupQuote)}${gone === '' ? '' : ` · ${gone}`} · seen ${formatAlertClock(best.observedAt, options.timeZone)}${more}`,
    url: searchUrl,
    tag: `shelfwatch:${payload.searchId}:${best.storeId}:${best.partNumber}`,
  };
}
