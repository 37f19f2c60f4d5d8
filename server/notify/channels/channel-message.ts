import type { AlertItem } from '#server/notify/alert-types.ts';
import { formatAppleStoreName } from '#server/notify/alert-links.ts';
import {
  describeGone,
  describeHeadline,
  describeShortDistance,
  type RenderOptions,
} from '#server/notify/templates.ts';
import { FALLBACK_TIME_ZONE, formatAlertClock } from '#shared/domain/alert-time.ts';
import { describePickupQuote } from '#shared/domain/pickup-quote.ts';
/** One model available at one store, as a channel message shows it (the wave's own item type). */
export type ChannelAlertItem = Omit<AlertItem, 'eventId'>;

/** What a channel message is about: one search's restock wave (one item or several). */
export type ChannelAlert = {
  searchId: string;
  productName: string;
  items: ChannelAlertItem[];
  heldUntil: string | null;
};

/** The links a message offers for its first (nearest) item. */
export type ChannelLinks = {
  searchUrl: string;
  storeUrl: string | undefined;
  /** Apple's buy page of the model's product, in the store's country. */
  buyUrl: string | undefined;
};

/** A button or link of a message. */
export type ChannelAction = { label: string; url: string };

/** A message ready for any channel: a title, plain-text lines and up to three actions. */
export type ChannelMessage = {
  title: string;
  text: string;
  actions: ChannelAction[];
  /** Where tapping the message itself goes. */
  clickUrl: string;
};

/** "Apple Fifth Avenue (New York, NY)". */
export function describeItemStore(item: ChannelAlertItem): string {
  const place = item.storeState === null ? item.storeCity : `${item.storeCity}, ${item.storeState}`;
  return `${formatAppleStoreName(item.storeName)} (${place})`;
}

/**
 * One line per item: model, store, distance (the country's unit), pickup day as Apple quotes
 * it, the time it was seen in the user's zone, and "gone at" when it sold out before sending.
 */
export function describeItem(
  item: ChannelAlertItem,
  options: RenderOptions = { timeZone: FALLBACK_TIME_ZONE },
): string {
  const wave = { ...item, eventId: null };
  const gone = describeGone(wave, options);
  return `${item.modelName} at ${describeItemStore(item)}, ${describeShortDistance(wave)} · ${describePickupQuote(item.pickupQuote)} · seen ${formatAlertClock(item.observedAt, options.timeZone)}${gone === '' ? '' : ` · ${gone}`}`;
}

/** The message every channel renders from: wording shared so all channels say the same. */
export function buildChannelMessage(
  alert: ChannelAlert,
  links: ChannelLinks,
  options: RenderOptions = { timeZone: FALLBACK_TIME_ZONE },
): ChannelMessage {
  const [first] = alert.items;
  const count = alert.items.length;
  const title =
    first === undefined
      ? `${alert.productName} is available`
      : count === 1
        ? describeHeadline({ ...first, eventId: null })
        : `${describeHeadline({ ...first, eventId: null })}, and ${count - 1} more`;
  const lines = alert.items.slice(0, 10).map((item) => describeItem(item, options));
  if (count > 10) lines.push(`…and ${count - 10} more on your search page.`);
  if (alert.heldUntil !== null) lines.push('Held through your quiet hours.');
  lines.push(`Times in ${options.timeZone}.`);
  lines.push('Stock moves fast; reserve soon if you want it.');
  return {
    title,
    text: lines.join('\n'),
    actions: listActions(links),
    clickUrl: links.searchUrl,
  };
}

/** Open search, Open store page and Apple's buy page, those that exist. */
export function listActions(links: ChannelLinks): ChannelAction[] {
  return [
    { label: 'Open search', url: links.searchUrl },
    ...(links.storeUrl === undefined ? [] : [{ label: 'Open store page', url: links.storeUrl }]),
    ...(links.buyUrl === undefined ? [] : [{ label: 'Buy on apple.com', url: links.buyUrl }]),
  ];
}

/** The message a "Send a test" button sends. */
export function buildTestMessage(searchesUrl: string): ChannelMessage {
  return {
    title: 'Shelfwatch test message',
    text: 'This channel is set up. Stock alerts for your searches will arrive here.',
    actions: [{ label: 'Open My Searches', url: searchesUrl }],
    clickUrl: searchesUrl,
  };
}
