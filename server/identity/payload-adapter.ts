import { sql } from 'kysely';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import type { Executor } from '#server/db/database.ts';

/**
 * oidc-provider's storage (sessions, interactions, grants, codes, tokens) in `idp_payloads`,
 * one row per (id, model name). Expiry is compared with the database clock on both write and
 * read, so a skewed application clock cannot revive an expired row.
 */
export function createPayloadAdapterFactory(db: Executor): AdapterFactory {
  return (kind: string): Adapter => createPayloadAdapter(db, kind);
}

/** The adapter for one model name (`Session`, `AccessToken`, ...). */
export function createPayloadAdapter(db: Executor, kind: string): Adapter {
  return {
    upsert: (id, payload, expiresIn) => upsertIdpPayload(db, kind, id, payload, expiresIn),
    find: (id) => findIdpPayload(db, kind, { id }),
    findByUid: (uid) => findIdpPayload(db, kind, { uid }),
    findByUserCode: (userCode) => findIdpPayload(db, kind, { userCode }),
    consume: (id) => consumeIdpPayload(db, kind, id),
    destroy: (id) => destroyIdpPayload(db, kind, id),
    revokeByGrantId: (grantId) => revokeIdpPayloadsByGrantId(db, kind, grantId),
  };
}

/** Inserts or replaces one payload; `expiresIn` is in seconds from now (none: never expires). */
export async function upsertIdpPayload(
  db: Executor,
  kind: string,
  id: string,
  payload: AdapterPayload,
  expiresIn: number | undefined,
): Promise<void> {
  const expiresAt =
    expiresIn === undefined ? null : sql<Date>`now() + make_interval(secs => ${expiresIn})`;
  const columns = {
    payload: JSON.stringify(payload),
    grant_id: payload.grantId ?? null,
    user_code: payload.userCode ?? null,
    uid: payload.uid ?? null,
    expires_at: expiresAt,
  };
  await db
    .insertInto('idp_payloads')
    .values({ id, kind, ...columns })
    // consumed_at survives a re-save: a consumed code or rotated token must stay consumed.
    .onConflict((conflict) => conflict.columns(['id', 'kind']).doUpdateSet(columns))
    .execute();
}

/** The live payload found by id, session uid or user code; expired rows count as missing. */
export async function findIdpPayload(
  db: Executor,
  kind: string,
  by: { id: string } | { uid: string } | { userCode: string },
): Promise<AdapterPayload | undefined> {
  let query = db
    .selectFrom('idp_payloads')
    .select(['payload', 'consumed_at'])
    .where('kind', '=', kind)
    .where((where) =>
      where.or([where('expires_at', 'is', null), where('expires_at', '>', sql<Date>`now()`)]),
    );
  if ('id' in by) {
    query = query.where('id', '=', by.id);
  } else if ('uid' in by) {
    query = query.where('uid', '=', by.uid);
  } else {
    query = query.where('user_code', '=', by.userCode);
  }
  const row = await query.executeTakeFirst();
  if (row === undefined) {
    return undefined;
  }
  // The row holds exactly what oidc-provider handed to upsert, so its own type applies.
  const payload = row.payload as AdapterPayload;
  return row.consumed_at === null
    ? payload
    : { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) };
}

/** Marks a code or token as used; oidc-provider then treats reuse as an attack. */
export async function consumeIdpPayload(db: Executor, kind: string, id: string): Promise<void> {
  await db
    .updateTable('idp_payloads')
    .set({ consumed_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('kind', '=', kind)
    .execute();
}

/** Deletes one payload. */
export async function destroyIdpPayload(db: Executor, kind: string, id: string): Promise<void> {
  await db.deleteFrom('idp_payloads').where('id', '=', id).where('kind', '=', kind).execute();
}

/** Deletes every payload of this kind issued under a grant (logout of a grant, reuse detection). */
export async function revokeIdpPayloadsByGrantId(
  db: Executor,
  kind: string,
  grantId: string,
): Promise<void> {
  await db
    .deleteFrom('idp_payloads')
    .where('grant_id', '=', grantId)
    .where('kind', '=', kind)
    .execute();
}

/** Deletes expired payloads; reads already ignore them, this only reclaims space. */
export async function purgeExpiredIdpPayloads(db: Executor): Promise<number> {
  const result = await db
    .deleteFrom('idp_payloads')
    .where('expires_at', '<=', sql<Date>`now()`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
