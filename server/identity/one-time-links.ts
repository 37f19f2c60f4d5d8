import { createHash, randomBytes } from 'node:crypto';
import type { Db, Executor } from '#server/db/database.ts';
import type { AccountTokensTable } from '#server/db/schema.ts';
import { changeIdpPassword } from './idp-accounts.ts';

/** What a one-time link is for: the first password of a new account, or a forgotten one. */
export type OneTimeLinkPurpose = AccountTokensTable['purpose'];

/** Why a one-time link cannot be used (any more). */
export type UnusableLinkReason = 'unknown' | 'expired' | 'used';

/** A link's token as it can be used now. */
export type LinkCheck =
  | { isUsable: true; purpose: OneTimeLinkPurpose; email: string; expiresAt: Date }
  | { isUsable: false; reason: UnusableLinkReason };

/** The path of the embedded provider's page that takes a one-time link's token. */
export const SET_PASSWORD_PATH = '/account/set-password';

// Expired and used rows are kept a while so the page can say "expired" rather than "unknown".
const KEEP_SPENT_TOKENS_MS = 7 * 24 * 60 * 60 * 1000;

/** SHA-256 of a token: only digests are stored, so a database leak yields no usable link. */
function digestToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The link to the embedded provider's set-password page for `token`. */
export function buildSetPasswordUrl(issuer: string, token: string): string {
  const url = new URL(SET_PASSWORD_PATH, issuer);
  url.searchParams.set('token', token);
  return url.toString();
}

/** Issues a one-time token for an embedded login; answers the token (to mail, never stored). */
export async function issueAccountToken(
  db: Executor,
  input: { idpAccountId: string; purpose: OneTimeLinkPurpose; ttlMs: number; now?: Date },
): Promise<{ token: string; expiresAt: Date }> {
  const now = input.now ?? new Date();
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + input.ttlMs);
  await db
    .deleteFrom('account_tokens')
    .where('expires_at', '<', new Date(now.getTime() - KEEP_SPENT_TOKENS_MS))
    .execute();
  await db
    .insertInto('account_tokens')
    .values({
      token_hash: digestToken(token),
      purpose: input.purpose,
      idp_account_id: input.idpAccountId,
      expires_at: expiresAt,
    })
    .execute();
  return { token, expiresAt };
}

/** Whether `token` may be used now, without using it (the set-password page's GET). */
export async function checkAccountToken(
  db: Executor,
  token: string,
  now: Date = new Date(),
): Promise<LinkCheck> {
  const row = await db
    .selectFrom('account_tokens as t')
    .innerJoin('idp_accounts as a', 'a.id', 't.idp_account_id')
    .select(['t.purpose', 't.expires_at', 't.used_at', 'a.email'])
    .where('t.token_hash', '=', digestToken(token))
    .executeTakeFirst();
  if (row === undefined) {
    return { isUsable: false, reason: 'unknown' };
  }
  if (row.used_at !== null) {
    return { isUsable: false, reason: 'used' };
  }
  if (row.expires_at.getTime() <= now.getTime()) {
    return { isUsable: false, reason: 'expired' };
  }
  return { isUsable: true, purpose: row.purpose, email: row.email, expiresAt: row.expires_at };
}

/**
 * Sets the password of the token's login and spends the token, with every other unused token
 * of that login (an older reset mail must not work after a newer one was used). The email
 * counts as verified: the person just proved they read it. Throws IdpAccountError when the
 * password is refused, leaving the token usable.
 */
export async function setPasswordWithToken(
  db: Db,
  token: string,
  password: string,
  now: Date = new Date(),
): Promise<LinkCheck> {
  return await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('account_tokens')
      .selectAll()
      .where('token_hash', '=', digestToken(token))
      .forUpdate()
      .executeTakeFirst();
    const check = await checkAccountToken(trx, token, now);
    if (row === undefined || !check.isUsable) {
      return check;
    }
    if (!(await changeIdpPassword(trx, row.idp_account_id, password))) {
      return { isUsable: false, reason: 'unknown' };
    }
    await trx
      .updateTable('idp_accounts')
      .set({ email_verified: true })
      .where('id', '=', row.idp_account_id)
      .execute();
    await trx
      .updateTable('account_tokens')
      .set({ used_at: now })
      .where('idp_account_id', '=', row.idp_account_id)
      .where('used_at', 'is', null)
      .execute();
    return check;
  });
}
