import { classifyPickupQuote } from '#shared/domain/pickup-quote.ts';
import type { ChannelAlert } from './channel-message.ts';

/** Builds a link for one item of an alert (its store page, Apple's buy page). */
export type ItemLinks = {
  storeUrl: (item: ChannelAlert['items'][number]) => string | undefined;
  buyUrl: (item: ChannelAlert['items'][number]) => string | undefined;
};

/**
 * The JSON body of a stock alert (documented field by field in docs/channels.md). `id` is the
 * outbox key: a resend after a crash carries the same id, so receivers can deduplicate.
 */
export function buildWebhookAlertBody(
  alert: ChannelAlert,
  links: ItemLinks & { searchUrl: string },
  delivery: { id: string; createdAt: string },
): string {
  return JSON.stringify({
    type: 'stock.available',
    id: delivery.id,
    created_at: delivery.createdAt,
    search: { id: alert.searchId, url: links.searchUrl, product_name: alert.productName },
    items: alert.items.map((item) => ({
      model_name: item.modelName,
      part_number: item.partNumber,
      store: {
        id: item.storeId,
        name: item.storeName,
        city: item.storeCity,
        state: item.storeState,
        country_code: item.countryCode,
        url: links.storeUrl(item) ?? null,
      },
      distance_miles: item.distanceMiles,
      pickup_quote: item.pickupQuote,
      pickup_day: classifyPickupQuote(item.pickupQuote),
      observed_at: item.observedAt,
      gone_at: item.goneAt ?? null,
      buy_url: links.buyUrl(item) ?? null,
    })),
    held_until: alert.heldUntil,
  });
}

/** The JSON body of a test message. */
export function buildWebhookTestBody(delivery: {
  id: string;
  createdAt: string;
  searchesUrl: string;
}): string {
  return JSON.stringify({
    type: 'test',
    id: delivery.id,
    created_at: delivery.createdAt,
    message: 'This channel is set up. Stock alerts for your searches will arrive here.',
    searches_url: delivery.searchesUrl,
  });
}
