import type { AppConfig } from '#server/config/app-config.ts';
import { createAccountMailer, type AccountMailer } from '#server/identity/account-mail.ts';
import { createAuth0Management, type Auth0Management } from './auth0-management.ts';

/** How long a finish-setup link works (the person may open the email the next day). */
export const FINISH_SETUP_LINK_TTL_MS = 24 * 60 * 60 * 1000;

/** Where logins live: the embedded provider (its issuer), or Auth0 and its Management API. */
export type LoginDirectory =
  | { kind: 'embedded'; issuer: string }
  | { kind: 'auth0'; issuer: string; management: Auth0Management | undefined };

/** What account provisioning, one-time links and their emails need from the configuration. */
export type AccountSettings = {
  /** The website's origin, e.g. https://shelfwatch.app (no trailing slash). */
  publicUrl: string;
  login: LoginDirectory;
  mailer: AccountMailer;
  supportEmail: string;
};

/** The settings of the configured installation; builds no connections until used. */
export function readAccountSettings(
  config: AppConfig,
  options: { fetch?: typeof fetch } = {},
): AccountSettings {
  const login: LoginDirectory =
    config.idp.kind === 'embedded'
      ? { kind: 'embedded', issuer: config.idp.issuer }
      : {
          kind: 'auth0',
          issuer: config.idp.issuer,
          management:
            config.auth0Management === undefined
              ? undefined
              : createAuth0Management(config.auth0Management, { fetch: options.fetch }),
        };
  return {
    publicUrl: config.publicUrl,
    login,
    mailer: createAccountMailer({
      smtpUrl: config.notify.smtpUrl,
      from: config.notify.mailFrom,
      dataDir: config.dataDir,
    }),
    supportEmail: config.supportEmail,
  };
}
