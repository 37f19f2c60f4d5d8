import type { Db } from '#server/db/database.ts';
import { findIdpAccount } from './idp-accounts.ts';
import { composeLinkEmail, type AccountMailer } from './account-mail.ts';
import { buildSetPasswordUrl, issueAccountToken } from './one-time-links.ts';

/** How long a forgot-password link works: short, since whoever reads the mailbox may use it. */
export const RESET_PASSWORD_LINK_TTL_MS = 60 * 60 * 1000;

/** What the embedded provider's "Forgot password?" form needs. */
export type PasswordResetSettings = {
  /** The embedded provider's issuer (its set-password page lives there). */
  issuer: string;
  mailer: AccountMailer;
  supportEmail: string;
  ttlMs?: number;
};

/**
 * Mails a one-time link to choose a new password when `email` has an embedded login; does
 * nothing otherwise. The caller answers the same either way, so the form reveals nothing
 * about which addresses have accounts. Resolves true when an email was sent.
 */
export async function requestPasswordReset(
  db: Db,
  settings: PasswordResetSettings,
  email: string,
): Promise<boolean> {
  const account = await findIdpAccount(db, { email });
  if (account === undefined) {
    return false;
  }
  const ttlMs = settings.ttlMs ?? RESET_PASSWORD_LINK_TTL_MS;
  const { token } = await issueAccountToken(db, {
    idpAccountId: account.id,
    purpose: 'reset-password',
    ttlMs,
  });
  const minutes = Math.round(ttlMs / 60_000);
  const lifetime =
    minutes % 60 === 0 ? `${minutes / 60} hour${minutes === 60 ? '' : 's'}` : `${minutes} minutes`;
  await settings.mailer.send(
    composeLinkEmail({
      to: account.email,
      subject: 'Choose a new Shelfwatch password',
      intro: [
        `Someone (hopefully you) asked to choose a new password for the Shelfwatch account ${account.email}.`,
      ],
      link: { url: buildSetPasswordUrl(settings.issuer, token), text: 'Choose a new password' },
      outro: [
        `The link works once and expires in ${lifetime}.`,
        'If you did not ask for this, ignore this email: your password stays as it is.',
        `Questions? Write to ${settings.supportEmail}.`,
      ],
    }),
  );
  return true;
}
