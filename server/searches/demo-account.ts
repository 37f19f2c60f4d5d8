import { randomBytes } from 'node:crypto';
import type { Db } from '#server/db/database.ts';
import {
  findStoreWithCountry,
  listProductModels,
} from '#server/db/repositories/catalog-repository.ts';
import {
  findOrCreateUserByIdentity,
  updateUserPlan,
} from '#server/db/repositories/users-repository.ts';
import { changeIdpPassword, createIdpAccount, findIdpAccount } from '#server/identity/index.ts';
import { createUserSearch } from './searches-service.ts';

/** The demo login of the embedded default. */
export const DEMO_EMAIL = 'demo@shelfwatch.local';

/** Sample searches of the demo account: product, store, preferred models. */
const DEMO_SEARCHES = [
  { product_type: 'iphone16pro', store_id: 'R095', preferredCount: 3 },
  { product_type: 'iphone16promax', store_id: 'R075', preferredCount: 2 },
] as const;

/**
 * Creates the demo account once (Best plan, two searches) so a newcomer can sign in and
 * look around. Returns the password that works now: a configured one is applied to an
 * existing account too (so the printed login is never wrong); without one, an existing
 * account keeps its password and undefined is returned.
 */
export async function ensureDemoAccount(
  db: Db,
  options: { issuer: string; password: string | undefined },
): Promise<{ isCreated: boolean; email: string; password: string | undefined }> {
  const existing = await findIdpAccount(db, { email: DEMO_EMAIL });
  if (existing !== undefined) {
    if (options.password !== undefined) {
      await changeIdpPassword(db, existing.id, options.password);
    }
    return { isCreated: false, email: DEMO_EMAIL, password: options.password };
  }
  const password = options.password ?? randomBytes(9).toString('base64url');
  const account = await createIdpAccount(db, {
    email: DEMO_EMAIL,
    password,
    isEmailVerified: true,
  });
  const user = await findOrCreateUserByIdentity(db, {
    issuer: options.issuer,
    subject: account.id,
    email: DEMO_EMAIL,
  });
  await updateUserPlan(db, user.id, 'best');
  const bestUser = { ...user, plan: 'best' as const };
  for (const search of DEMO_SEARCHES) {
    const store = await findStoreWithCountry(db, search.store_id);
    const models =
      store === undefined
        ? []
        : await listProductModels(db, search.product_type, store.country_code);
    await createUserSearch(db, bestUser, {
      product_type: search.product_type,
      store_id: search.store_id,
      include_nearby_store_results: true,
      send_email_updates: true,
      product_models: models
        .slice(0, search.preferredCount)
        .map((model) => ({ part_number: model.part_number, is_preferred: true })),
    });
  }
  return { isCreated: true, email: DEMO_EMAIL, password };
}
