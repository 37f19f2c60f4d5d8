import { ERROR_CODES } from '#shared/api/errors.ts';
import type { Db } from '#server/db/database.ts';
import {
  announceSearchChange,
  deleteSearchesOfUser,
} from '#server/db/repositories/searches-repository.ts';
import { deleteUserById } from '#server/db/repositories/users-repository.ts';
import type { UserRow } from '#server/db/schema.ts';
import { AppError } from '#server/base/app-error.ts';
import type { LoginDirectory } from './settings.ts';

/** What deleting an account needs besides the database. */
export type AccountDeletionDependencies = {
  login: LoginDirectory;
  /** Cancels the user's paid subscriptions (app.billing when Stripe is configured). */
  cancelSubscriptions?: (user: UserRow) => Promise<void>;
};

/** The step of a deletion that failed before anything was deleted. */
export class AccountDeletionError extends Error {
  readonly step: 'cancel-subscriptions' | 'delete-login';

  constructor(step: AccountDeletionError['step'], cause: unknown) {
    super(
      step === 'cancel-subscriptions'
        ? 'The subscription could not be cancelled'
        : 'The login could not be deleted at the identity provider',
      { cause },
    );
    this.name = 'AccountDeletionError';
    this.step = step;
  }
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Deletes an account and everything of it: first what lives elsewhere (the Stripe
 * subscription, an Auth0 login), so a failure there leaves the account whole to retry; then
 * in one transaction its outbox rows, push subscriptions, searches (with their preferred
 * models and alert state), the embedded login with its sessions, grants and one-time links,
 * and the user row. In-memory copies of the user and their searches are dropped. Only rows
 * of this user are touched.
 */
export async function deleteAccount(
  db: Db,
  user: UserRow,
  deps: AccountDeletionDependencies,
): Promise<void> {
  try {
    await deps.cancelSubscriptions?.(user);
  } catch (error) {
    throw new AccountDeletionError('cancel-subscriptions', error);
  }
  const isOwnLogin = user.issuer === deps.login.issuer;
  if (isOwnLogin && deps.login.kind === 'auth0' && deps.login.management !== undefined) {
    try {
      await deps.login.management.deleteUser(user.subject);
    } catch (error) {
      throw new AccountDeletionError('delete-login', error);
    }
  }
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('alert_outbox').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('push_subscriptions').where('user_id', '=', user.id).execute();
    await deleteSearchesOfUser(trx, user.id);
    if (isOwnLogin && deps.login.kind === 'embedded' && UUID_PATTERN.test(user.subject)) {
      // Sessions, grants and tokens of the login, so no refresh token outlives the account.
      await trx
        .deleteFrom('idp_payloads')
        .where((eb) => eb(eb.ref('payload', '->>').key('accountId'), '=', user.subject))
        .execute();
      await trx.deleteFrom('idp_accounts').where('id', '=', user.subject).execute();
    }
    await deleteUserById(trx, user.id);
  });
  announceSearchChange({ userId: user.id });
}

/**
 * DELETE /v2/account: deleteAccount, with a failure before anything was deleted answered as
 * a 503 that says nothing was deleted and to try again.
 */
export async function deleteOwnAccount(
  db: Db,
  user: UserRow,
  deps: AccountDeletionDependencies,
): Promise<void> {
  try {
    await deleteAccount(db, user, deps);
  } catch (error) {
    if (!(error instanceof AccountDeletionError)) {
      throw error;
    }
    throw new AppError(503, ERROR_CODES.serviceUnavailable, error.message, {
      reason:
        error.step === 'cancel-subscriptions'
          ? 'Your subscription could not be cancelled right now, so nothing was deleted. Please try again in a few minutes.'
          : 'Your login could not be deleted right now, so nothing was deleted. Please try again in a few minutes.',
    });
  }
}
