import type { Executor } from '../database.ts';

/**
 * Reads the generated secret `name` from `app_secrets`, creating it with `generate` when
 * absent. Concurrent first starts agree on one value: the insert yields to a winner and
 * everyone reads back what was stored.
 */
export async function loadOrCreateSecret(
  db: Executor,
  name: string,
  generate: () => unknown,
): Promise<unknown> {
  const existing = await findSecret(db, name);
  if (existing !== undefined) {
    return existing;
  }
  await db
    .insertInto('app_secrets')
    .values({ name, value: JSON.stringify(await generate()) })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const stored = await findSecret(db, name);
  if (stored === undefined) {
    throw new Error(`Secret ${name} vanished right after it was stored`);
  }
  return stored;
}

/** The stored value of secret `name`, or undefined. */
export async function findSecret(db: Executor, name: string): Promise<unknown> {
  const row = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.value;
}
