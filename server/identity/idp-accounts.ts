import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Executor } from '#server/db/database.ts';

/** Shortest password the embedded provider accepts (NIST SP 800-63B's floor). */
export const MIN_PASSWORD_LENGTH = 8;

// Long enough for any passphrase, short enough that hashing cannot be abused for load.
const MAX_PASSWORD_LENGTH = 1024;

/** A login of the embedded identity provider, without its password hash. */
export type IdpAccount = { id: string; email: string; isEmailVerified: boolean; createdAt: Date };

/** Why an account could not be created or changed. */
export type IdpAccountProblem =
  'invalid-email' | 'password-too-short' | 'password-too-long' | 'email-taken';

/** Thrown when account input is refused; `reason` is stable, the message is for people. */
export class IdpAccountError extends Error {
  readonly reason: IdpAccountProblem;

  constructor(reason: IdpAccountProblem, message: string) {
    super(message);
    this.name = 'IdpAccountError';
    this.reason = reason;
  }
}

// OWASP's scrypt baseline (N=2^15, r=8, p=1, about 32 MiB); stored per hash so it can be raised later.
const HASH_PARAMETERS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const emailSchema = z.email();

/** Creates an account; the email is stored lower-cased, the password as a salted scrypt hash. */
export async function createIdpAccount(
  db: Executor,
  input: { email: string; password: string; isEmailVerified?: boolean },
): Promise<IdpAccount> {
  const email = normaliseEmail(input.email);
  if (!emailSchema.safeParse(email).success) {
    throw new IdpAccountError('invalid-email', 'Enter a valid email address.');
  }
  const passwordHash = await hashPassword(checkPassword(input.password));
  try {
    const row = await db
      .insertInto('idp_accounts')
      .values({
        email,
        password_hash: passwordHash,
        email_verified: input.isEmailVerified ?? false,
      })
      .returning(['id', 'email', 'email_verified', 'created_at'])
      .executeTakeFirstOrThrow();
    return toAccount(row);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new IdpAccountError('email-taken', 'An account with this email already exists.');
    }
    throw error;
  }
}

/** Replaces an account's password; resolves false when the account does not exist. */
export async function changeIdpPassword(
  db: Executor,
  accountId: string,
  password: string,
): Promise<boolean> {
  if (!isUuid(accountId)) {
    return false;
  }
  const passwordHash = await hashPassword(checkPassword(password));
  const result = await db
    .updateTable('idp_accounts')
    .set({ password_hash: passwordHash })
    .where('id', '=', accountId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Finds an account by id (the token subject) or by email, ignoring the email's case. */
export async function findIdpAccount(
  db: Executor,
  by: { id: string } | { email: string },
): Promise<IdpAccount | undefined> {
  const row = await selectAccount(db, by);
  return row === undefined ? undefined : toAccount(row);
}

/** The account whose email and password match, or undefined; takes the same time either way. */
export async function verifyIdpCredentials(
  db: Executor,
  email: string,
  password: string,
): Promise<IdpAccount | undefined> {
  const row = await selectAccount(db, { email });
  // Hash even for unknown emails so response time does not reveal which emails have accounts.
  const isMatch = await isPasswordMatch(password, row?.password_hash ?? DUMMY_HASH);
  return row !== undefined && isMatch ? toAccount(row) : undefined;
}

type AccountRow = {
  id: string;
  email: string;
  email_verified: boolean;
  created_at: Date;
  password_hash?: string | null;
};

async function selectAccount(
  db: Executor,
  by: { id: string } | { email: string },
): Promise<(AccountRow & { password_hash: string | null }) | undefined> {
  const query = db
    .selectFrom('idp_accounts')
    .select(['id', 'email', 'email_verified', 'created_at', 'password_hash']);
  if ('id' in by) {
    // Subjects arrive from cookies and tokens; a non-UUID would make PostgreSQL raise, not miss.
    return isUuid(by.id) ? await query.where('id', '=', by.id).executeTakeFirst() : undefined;
  }
  // lower(email) matches the unique index idp_accounts_email_key.
  return await query
    .where(sql<string>`lower(email)`, '=', normaliseEmail(by.email))
    .executeTakeFirst();
}

function toAccount(row: AccountRow): IdpAccount {
  return {
    id: row.id,
    email: row.email,
    isEmailVerified: row.email_verified,
    createdAt: row.created_at,
  };
}

function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

function checkPassword(password: string): string {
  const normalised = password.normalize('NFKC');
  if ([...normalised].length < MIN_PASSWORD_LENGTH) {
    throw new IdpAccountError(
      'password-too-short',
      `Use at least ${MIN_PASSWORD_LENGTH} characters.`,
    );
  }
  if (normalised.length > MAX_PASSWORD_LENGTH) {
    throw new IdpAccountError(
      'password-too-long',
      `Use at most ${MAX_PASSWORD_LENGTH} characters.`,
    );
  }
  return normalised;
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === '23505';
}

/** Hashes a password as `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await deriveKey(password.normalize('NFKC'), salt, KEY_LENGTH, HASH_PARAMETERS);
  const { N, r, p } = HASH_PARAMETERS;
  return ['scrypt', N, r, p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** Compares a password with a stored hash in constant time; malformed hashes never match. */
export async function isPasswordMatch(password: string, storedHash: string): Promise<boolean> {
  const parts = storedHash.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    return false;
  }
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  if (
    ![N, r, p].every(Number.isSafeInteger) ||
    expected.length === 0 ||
    password.length > MAX_PASSWORD_LENGTH
  ) {
    return false;
  }
  const actual = await deriveKey(password.normalize('NFKC'), salt, expected.length, { N, r, p });
  return timingSafeEqual(actual, expected);
}

async function deriveKey(
  password: string,
  salt: Buffer,
  length: number,
  cost: ScryptOptions,
): Promise<Buffer> {
  const maxmem = 256 * (cost.N ?? 0) * (cost.r ?? 0);
  return await new Promise((resolve, reject) => {
    scrypt(password, salt, length, { ...cost, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

// A syntactically valid hash of a random secret, compared against when the email is unknown.
const DUMMY_HASH = [
  'scrypt',
  HASH_PARAMETERS.N,
  HASH_PARAMETERS.r,
  HASH_PARAMETERS.p,
  randomBytes(16).toString('base64url'),
  randomBytes(KEY_LENGTH).toString('base64url'),
].join('$');
