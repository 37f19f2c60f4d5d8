import { sql } from 'kysely';
import type { Db } from '#server/db/database.ts';
import {
  insertAvailabilityEvents,
  upsertSnapshots,
} from '#server/db/repositories/availability-repository.ts';
import { listProductModels } from '#server/db/repositories/catalog-repository.ts';
import { loadOrCreateSecret } from '#server/db/repositories/secrets-repository.ts';
import { findOrCreateUserByIdentity } from '#server/db/repositories/users-repository.ts';
import { recordUpstreamRequest } from '#server/db/repositories/upstream-requests-repository.ts';
import { listProductTables } from '#server/backup/product-tables.ts';
import { upsertPushSubscription } from '#server/db/repositories/notify-repository.ts';
import { enqueueAlerts } from '#server/notify/outbox.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { createUserSearch } from '#server/searches/searches-service.ts';

const ISSUER = 'http://localhost:4000/';

/**
 * Fills a migrated database the way the product does: catalog, accounts, searches with
 * preferred models, availability snapshots and restock events, queued alerts, browser
 * push subscriptions, generated secrets and upstream request log rows (serial ids).
 */
export async function seedProductData(db: Db, prefix = 'shopper'): Promise<void> {
  await seedCatalog(db);
  const models = await listProductModels(db, 'iphone16pro', 'US');
  const [first, second] = models;
  if (first === undefined || second === undefined)
    throw new Error('catalog has no iPhone 16 Pro models');
  const observedAt = new Date('2025-03-01T10:00:00.123456Z');
  for (const [index, storeId] of ['R095', 'R075'].entries()) {
    const user = await findOrCreateUserByIdentity(db, {
      issuer: ISSUER,
      subject: `${prefix}-${index}`,
      email: `${prefix}-${index}@example.com`,
    });
    const search = await createUserSearch(db, user, {
      product_type: 'iphone16pro',
      store_id: storeId,
      send_email_updates: true,
      max_distance_miles: 12.5,
      product_models: [
        { part_number: first.part_number, is_preferred: true },
        { part_number: second.part_number, is_preferred: index === 0 },
      ],
    });
    await upsertSnapshots(db, [
      {
        store_id: storeId,
        part_number: first.part_number,
        status: 'available',
        pickup_quote: 'Today',
        observed_at: observedAt,
      },
      {
        store_id: storeId,
        part_number: second.part_number,
        status: 'unavailable',
        pickup_quote: null,
        observed_at: observedAt,
      },
    ]);
    await insertAvailabilityEvents(db, [
      {
        store_id: storeId,
        part_number: first.part_number,
        from_status: 'unavailable',
        to_status: 'available',
        pickup_quote: 'Today',
        observed_at: observedAt,
      },
    ]);
    await enqueueAlerts(db, [
      {
        idempotencyKey: `${prefix}-${index}:email`,
        channel: 'email',
        userId: user.id,
        searchId: search.id,
        payload: {
          searchId: search.id,
          productName: 'iPhone 16 Pro',
          items: [
            {
              modelName: 'a "quoted"\ttabbed\nmulti-line name \\ with a backslash',
              partNumber: first.part_number,
              storeId,
              storeName: 'Fifth Avenue',
              storeCity: 'New York',
              storeState: 'NY',
              storeSlug: 'fifthavenue',
              countryCode: 'US',
              distanceMiles: null,
              pickupQuote: 'Today',
              observedAt: observedAt.toISOString(),
              eventId: null,
            },
          ],
          heldUntil: null,
        },
      },
    ]);
    await upsertPushSubscription(db, user.id, {
      endpoint: `https://push.example.com/${prefix}-${index}`,
      keys: { p256dh: `p256dh-${index}`, auth: `auth-${index}` },
    });
  }
  await loadOrCreateSecret(db, `${prefix}-signing-key`, () => ({ kty: 'oct', k: 'c2VjcmV0' }));
  await recordUpstreamRequest(db, {
    host: 'www.apple.com',
    requestedAt: observedAt,
    durationMs: 120,
    failureKind: null,
    coolDownUntil: null,
  });
}

/** An md5 of every row of every product table, by table: equal maps mean equal contents. */
export async function fingerprintTables(db: Db): Promise<Record<string, string>> {
  const fingerprints: Record<string, string> = {};
  for (const { name } of await listProductTables(db)) {
    const result = await sql<{ digest: string; rows: number }>`
      SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) AS digest,
        count(*)::int AS rows
      FROM ${sql.table(`public.${name}`)} t`.execute(db);
    const row = result.rows[0];
    fingerprints[name] = `${row?.rows ?? 0}:${row?.digest ?? ''}`;
  }
  return fingerprints;
}

/** The product tables holding at least one row. */
export function listFilledTables(fingerprints: Record<string, string>): string[] {
  return Object.entries(fingerprints)
    .filter(([, value]) => !value.startsWith('0:'))
    .map(([name]) => name)
    .sort();
}
