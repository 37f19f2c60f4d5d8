import { randomBytes } from 'node:crypto';
import type { Db } from '#server/db/database.ts';
import {
  findOrCreateUserByIdentity,
  findUserByIdentity,
  updateUserPlan,
} from '#server/db/repositories/users-repository.ts';
import { changeIdpPassword, createIdpAccount, findIdpAccount } from '#server/identity/index.ts';
import { createDemoSearches, moveRetiredDemoSearches } from './demo-searches.ts';

/** The demo login of the embedded default. */
export const DEMO_EMAIL = 'demo@shelfwatch.local';

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/**
 * A 14-character password of letters and digits (about 80 bits). base64url's "-" and "_"
 * could start it, and a password starting with a dash reads as an option when pasted into a
 * command line (and is easy to miss in the banner).
 */
export function generateDemoPassword(): string {
  let password = '';
  while (password.length < 14) {
    for (const byte of randomBytes(16)) {
      // Bytes past the last whole multiple of the alphabet are skipped, so no letter is likelier.
      if (byte < 256 - (256 % PASSWORD_ALPHABET.length) && password.length < 14) {
        password += PASSWORD_ALPHABET[byte % PASSWORD_ALPHABET.length];
      }
    }
  }
  return password;
}

/**
 * Creates the demo account once (Best plan, two searches of models on sale today, see
 * demo-searches.ts) so a newcomer can sign in and look around; an existing one has the sample
 * searches of an earlier release moved off retired models. Returns the password that works
 * now: a configured one is applied to an existing account too (so the printed login is never
 * wrong); without one, an existing account keeps its password and undefined is returned.
 */
export async function ensureDemoAccount(
  db: Db,
  options: { issuer: string; password: string | undefined },
): Promise<{ isCreated: boolean; email: string; password: string | undefined }> {
  const existing = await findIdpAccount(db, { email: DEMO_EMAIL });
  if (existing !== undefined) {
    // Found, not made: a start under another issuer must not give the demo a second user.
    const demoUser = await findUserByIdentity(db, { issuer: options.issuer, subject: existing.id });
    if (demoUser !== undefined) await moveRetiredDemoSearches(db, demoUser);
    if (options.password !== undefined) {
      await changeIdpPassword(db, existing.id, options.password);
    }
    return { isCreated: false, email: DEMO_EMAIL, password: options.password };
  }
  const password = options.password ?? generateDemoPassword();
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
  await createDemoSearches(db, { ...user, plan: 'best' });
  return { isCreated: true, email: DEMO_EMAIL, password };
}
