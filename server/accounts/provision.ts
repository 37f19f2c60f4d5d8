import { sql, type Transaction } from 'kysely';
import { z } from 'zod';
import type { PlanCode } from '#shared/domain/plans.ts';
import type { Db, Executor } from '#server/db/database.ts';
import {
  announceUserChanges,
  findOrCreateUserByIdentity,
  findUserById,
  findUserByIdentity,
  findUsersByEmail,
} from '#server/db/repositories/users-repository.ts';
import type { Database, UserRow } from '#server/db/schema.ts';
import { composeLinkEmail } from '#server/identity/account-mail.ts';
import { Auth0ManagementError } from './auth0-management.ts';
import { buildSetPasswordUrl, issueAccountToken } from '#server/identity/one-time-links.ts';
import { applyPlanChange } from './plan-change.ts';
import { FINISH_SETUP_LINK_TTL_MS, type AccountSettings, type LoginDirectory } from './settings.ts';

/** Why an account could not be provisioned; `reason` is stable, the message is for people. */
export class AccountProvisioningError extends Error {
  readonly reason: 'invalid-email' | 'auth0-management-missing' | 'not-provisionable';

  constructor(reason: AccountProvisioningError['reason'], message: string) {
    super(message);
    this.name = 'AccountProvisioningError';
    this.reason = reason;
  }
}

/** A link with which the person chooses their password, and until when it works. */
export type FinishSetupLink = { url: string; expiresAt: Date };

const emailSchema = z.email();

/** Emails are compared and stored lower-cased, as the embedded provider does. */
function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The account of `email` at the configured login, created when missing (`isNew`): for the
 * embedded provider an idp_accounts row without a password (no sign-in works until one is
 * chosen through a finish-setup link) and the users row (issuer = the embedded issuer,
 * subject = that row's id); with Auth0, a user created through the Management API. A new
 * account gets `plan`; an existing one keeps its plan. `stripeCustomerId` is recorded on an
 * account that has none (never replacing another). Runs in `trx` when given.
 */
export async function provisionAccount(
  db: Db,
  settings: Pick<AccountSettings, 'login'>,
  input: { email: string; plan: PlanCode; stripeCustomerId?: string },
  trx?: Transaction<Database>,
): Promise<{ user: UserRow; isNew: boolean }> {
  const provisioned = await findOrProvisionAccount(db, settings, input, trx);
  const { user } = provisioned;
  if (input.stripeCustomerId === undefined || user.stripe_customer_id !== null) {
    return provisioned;
  }
  const updated = await (trx ?? db)
    .updateTable('users')
    .set({ stripe_customer_id: input.stripeCustomerId, updated_at: new Date() })
    .where('id', '=', user.id)
    .where('stripe_customer_id', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (updated !== undefined) await announceUserChanges(trx ?? db, [user.id]);
  return { ...provisioned, user: updated ?? user };
}

async function findOrProvisionAccount(
  db: Db,
  settings: Pick<AccountSettings, 'login'>,
  input: { email: string; plan: PlanCode },
  trx: Transaction<Database> | undefined,
): Promise<{ user: UserRow; isNew: boolean }> {
  const executor: Executor = trx ?? db;
  const email = normaliseEmail(input.email);
  if (!emailSchema.safeParse(email).success) {
    throw new AccountProvisioningError('invalid-email', `Not an email address: ${input.email}`);
  }
  const { issuer } = settings.login;
  const existing = (await findUsersByEmail(executor, email)).find((user) => user.issuer === issuer);
  if (existing !== undefined) {
    return { user: existing, isNew: false };
  }
  const subject = await findOrCreateLogin(executor, settings.login, email);
  const identity = { issuer, subject, email };
  const isNew = (await findUserByIdentity(executor, identity)) === undefined;
  const user = await findOrCreateUserByIdentity(executor, identity);
  if (!isNew || user.plan === input.plan) {
    return { user, isNew };
  }
  await applyPlanChange(db, user.id, input.plan, trx);
  return { user: (await findUserById(executor, user.id)) ?? user, isNew };
}

/** The login's subject for `email`, creating the login when there is none. */
async function findOrCreateLogin(
  db: Executor,
  login: LoginDirectory,
  email: string,
): Promise<string> {
  if (login.kind === 'embedded') {
    // ON CONFLICT against idp_accounts_email_key: a concurrent creation does not abort `db`'s transaction.
    const inserted = await db
      .insertInto('idp_accounts')
      .values({ email, password_hash: null })
      .onConflict((conflict) => conflict.expression(sql`lower(email)`).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted !== undefined) {
      return inserted.id;
    }
    const row = await db
      .selectFrom('idp_accounts')
      .select('id')
      .where(sql<string>`lower(email)`, '=', email)
      .executeTakeFirstOrThrow();
    return row.id;
  }
  if (login.management === undefined) {
    throw new AccountProvisioningError(
      'auth0-management-missing',
      'Accounts cannot be created at Auth0 without AUTH0_MGMT_DOMAIN, AUTH0_MGMT_CLIENT_ID and AUTH0_MGMT_CLIENT_SECRET',
    );
  }
  try {
    return await login.management.createUser(email);
  } catch (error) {
    // 409: the person already has an Auth0 login (made at the tenant directly).
    if (!(error instanceof Auth0ManagementError) || error.status !== 409) {
      throw error;
    }
    const userId = await login.management.findUserByEmail(email);
    if (userId === undefined) {
      throw error;
    }
    return userId;
  }
}

/**
 * A one-time link with which the person chooses their password: for the embedded provider
 * its set-password page with a token stored as a SHA-256 digest, single use, expiring after
 * `ttlMs` (FINISH_SETUP_LINK_TTL_MS); with Auth0 a password-change ticket.
 */
export async function createFinishSetupLink(
  db: Db,
  settings: Pick<AccountSettings, 'login' | 'publicUrl'>,
  user: UserRow,
  options: { ttlMs?: number; trx?: Transaction<Database> } = {},
): Promise<FinishSetupLink> {
  const ttlMs = options.ttlMs ?? FINISH_SETUP_LINK_TTL_MS;
  const { login } = settings;
  if (user.issuer !== login.issuer) {
    throw new AccountProvisioningError(
      'not-provisionable',
      `The account signs in at ${user.issuer}, not at the configured ${login.issuer}`,
    );
  }
  if (login.kind === 'embedded') {
    const { token, expiresAt } = await issueAccountToken(options.trx ?? db, {
      idpAccountId: user.subject,
      purpose: 'finish-setup',
      ttlMs,
    });
    return { url: buildSetPasswordUrl(login.issuer, token), expiresAt };
  }
  if (login.management === undefined) {
    throw new AccountProvisioningError(
      'auth0-management-missing',
      'A password link needs the Auth0 Management API (AUTH0_MGMT_*)',
    );
  }
  const ttlSeconds = Math.round(ttlMs / 1000);
  const url = await login.management.createPasswordChangeTicket(user.subject, {
    resultUrl: settings.publicUrl,
    ttlSeconds,
  });
  return { url, expiresAt: new Date(Date.now() + ttlSeconds * 1000) };
}

/** Mails the finish-setup link: what the account is, the link, and until when it works. */
export async function sendFinishSetupEmail(
  settings: Pick<AccountSettings, 'mailer' | 'supportEmail'>,
  input: { email: string; link: FinishSetupLink },
): Promise<void> {
  const hours = Math.max(1, Math.round((input.link.expiresAt.getTime() - Date.now()) / 3_600_000));
  await settings.mailer.send(
    composeLinkEmail({
      to: input.email,
      subject: 'Finish setting up your Shelfwatch account',
      intro: [
        'Welcome to Shelfwatch!',
        `Your account for ${input.email} is ready. Choose a password to sign in and set up your searches.`,
      ],
      link: { url: input.link.url, text: 'Choose your password' },
      outro: [
        `The link works once and expires in ${hours} hour${hours === 1 ? '' : 's'}. If it has expired, use "Forgot password?" on the sign-in page.`,
        `Questions? Write to ${settings.supportEmail}.`,
      ],
    }),
  );
}
