import { z } from 'zod';
import type { AlertItem, AlertPayload } from './alert-types.ts';

const itemFields = {
  modelName: z.string(),
  partNumber: z.string(),
  storeId: z.string(),
  storeName: z.string(),
  storeCity: z.string(),
  storeState: z.string().nullable(),
  storeSlug: z.string().nullable(),
  countryCode: z.string(),
  distanceMiles: z.number().nullable(),
  pickupQuote: z.string().nullable(),
  observedAt: z.string(),
};

const itemSchema = z.object({
  ...itemFields,
  eventId: z.string().nullable().default(null),
  goneAt: z.string().nullable().optional(),
}) satisfies z.ZodType<AlertItem, unknown>;

const wavePayloadSchema = z.object({
  searchId: z.string(),
  productName: z.string(),
  items: z.array(itemSchema).min(1),
  heldUntil: z.string().nullable().default(null),
  cadenceMinutes: z.number().nullable().optional(),
});

/** Rows written before waves existed carried one pair at the top level. */
const singlePayloadSchema = z
  .object({ searchId: z.string(), productName: z.string(), ...itemFields })
  .transform(({ searchId, productName, ...item }): AlertPayload => ({
    searchId,
    productName,
    items: [{ ...item, eventId: null }],
    heldUntil: null,
  }));

const payloadSchema = z.union([wavePayloadSchema, singlePayloadSchema]);

/** Reads an outbox row's JSON (either shape) into a wave, or says why it cannot. */
export function parseAlertPayload(
  json: unknown,
): { isValid: true; payload: AlertPayload } | { isValid: false; reason: string } {
  const parsed = payloadSchema.safeParse(json);
  if (!parsed.success) {
    return { isValid: false, reason: parsed.error.issues[0]?.message ?? 'unknown' };
  }
  return { isValid: true, payload: { ...parsed.data, items: sortNearestFirst(parsed.data.items) } };
}

/**
 * The search's own store first, then by distance, then by model name, pairs found gone at send
 * time last: items[0] is the best match.
 */
export function sortNearestFirst(items: readonly AlertItem[]): AlertItem[] {
  const distance = (item: AlertItem): number =>
    item.distanceMiles === null || item.distanceMiles <= 0 ? 0 : item.distanceMiles;
  const gone = (item: AlertItem): number => (item.goneAt == null ? 0 : 1);
  return [...items].sort(
    (a, b) =>
      gone(a) - gone(b) ||
      distance(a) - distance(b) ||
      a.storeName.localeCompare(b.storeName) ||
      a.modelName.localeCompare(b.modelName),
  );
}

/** Whether a pair is at the search's own store (not a nearby one). */
export function isAtSearchStore(item: AlertItem): boolean {
  return item.distanceMiles === null || item.distanceMiles <= 0;
}

/**
 * Adds a later wave's pairs to a held summary: one line per (store, part), the latest
 * sighting winning, so a replayed or repeated restock does not list a pair twice.
 */
export function mergeAlertItems(
  held: readonly AlertItem[],
  added: readonly AlertItem[],
): AlertItem[] {
  const byPair = new Map<string, AlertItem>();
  for (const item of [...held, ...added]) {
    const key = `${item.storeId}|${item.partNumber}`;
    const known = byPair.get(key);
    if (known === undefined || known.observedAt <= item.observedAt) byPair.set(key, item);
  }
  return sortNearestFirst([...byPair.values()]);
}
