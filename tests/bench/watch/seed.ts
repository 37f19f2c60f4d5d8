// Seeds the crowd through the product's repositories, a thousand users per transaction.
import type { Db } from '#server/db/database.ts';
import {
  insertPreferredParts,
  insertSearches,
} from '#server/db/repositories/searches-repository.ts';
import { insertUsers } from '#server/db/repositories/users-repository.ts';
import type { Combo, PlannedUser } from './skew.ts';

/** A seeded search, as the flips and the staleness weights need it. */
export type SeededSearch = {
  id: string;
  email: string;
  combo: Combo;
  preferredParts: string[];
  isAlerting: boolean;
};

const USERS_PER_TRANSACTION = 1000;

/** Inserts the users, their searches and preferred models; returns the searches. */
export async function seedCrowd(
  db: Db,
  users: readonly PlannedUser[],
  label: string,
): Promise<SeededSearch[]> {
  const seeded: SeededSearch[] = [];
  for (let start = 0; start < users.length; start += USERS_PER_TRANSACTION) {
    const batch = users.slice(start, start + USERS_PER_TRANSACTION);
    await db.transaction().execute(async (trx) => {
      const rows = await insertUsers(
        trx,
        batch.map((user, index) => ({
          issuer: 'https://bench.shelfwatch.test/',
          subject: `${label}-${start + index}`,
          email: `${label}-${start + index}@bench.test`,
          plan: user.plan,
        })),
      );
      const planned = batch.flatMap((user, index) =>
        user.searches.map((search) => ({
          search,
          userId: rows[index].id,
          email: rows[index].email ?? '',
        })),
      );
      const searches = await insertSearches(
        trx,
        planned.map(({ search, userId }) => ({
          user_id: userId,
          product_type: search.combo.productId,
          store_id: search.combo.storeId,
          send_email_updates: search.isEmailOn,
          send_text_updates: false,
        })),
      );
      await insertPreferredParts(
        trx,
        searches.flatMap((row, index) =>
          planned[index].search.preferredParts.map((part_number) => ({
            search_id: row.id,
            part_number,
          })),
        ),
      );
      searches.forEach((row, index) => {
        const { search, email } = planned[index];
        seeded.push({
          id: row.id,
          email,
          combo: search.combo,
          preferredParts: search.preferredParts,
          isAlerting: search.isAlerting,
        });
      });
    });
  }
  return seeded;
}
