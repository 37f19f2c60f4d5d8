import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '#server/db/database.ts';
import { readAddressKey } from '#server/http/rate-limits.ts';
import {
  checkAccountToken,
  setPasswordWithToken,
  SET_PASSWORD_PATH,
  type UnusableLinkReason,
} from './one-time-links.ts';
import { requestPasswordReset, type PasswordResetSettings } from './password-reset.ts';
import { IdpAccountError } from './idp-accounts.ts';
import type { IdpLogger } from './load-oidc-provider.ts';
import {
  FORGOT_PASSWORD_PATH,
  renderForgotPasswordPage,
  renderSetPasswordPage,
  RESET_REQUESTED_MESSAGE,
} from './password-pages.ts';
import { renderMessagePage } from './pages.ts';

/** Reset requests allowed: per address (one sender probing many emails) and per email (mail bombing). */
export const PASSWORD_RESET_LIMITS = {
  perAddressPerHour: 20,
  perEmailPerHour: 5,
} as const;

/** What the password routes need; without `reset` only one-time links of `user add` work. */
export type PasswordRouteOptions = {
  db: Db;
  logger: IdpLogger;
  issuer: string;
  siteHome: string | undefined;
  reset: Omit<PasswordResetSettings, 'issuer'> | undefined;
  sendPage: (reply: FastifyReply, status: number, html: string) => FastifyReply;
};

const FORM_BODY_LIMIT = 16 * 1024;
const uidSchema = z.string().regex(/^[\w-]{1,100}$/);
const forgotQuerySchema = z
  .object({ uid: uidSchema.optional().catch(undefined) })
  .catch({ uid: undefined });
const emailBodySchema = z
  .object({ email: z.string().max(320).catch(''), uid: uidSchema.optional().catch(undefined) })
  .catch({ email: '', uid: undefined });
const tokenQuerySchema = z.object({ token: z.string().max(200).catch('') }).catch({ token: '' });
const setPasswordBodySchema = z
  .object({
    token: z.string().max(200).catch(''),
    password: z.string().max(1024).catch(''),
    confirm: z.string().max(1024).catch(''),
  })
  .catch({ token: '', password: '', confirm: '' });

const UNUSABLE_LINK_PAGES: Readonly<
  Record<UnusableLinkReason, { title: string; message: string }>
> = {
  expired: {
    title: 'This link has expired',
    message:
      'Links to choose a password work for a limited time. Ask for a new one with "Forgot password?" on the sign-in page.',
  },
  used: {
    title: 'This link was already used',
    message:
      'Each link works once. If you did not choose your password yourself, ask for a new link with "Forgot password?" on the sign-in page.',
  },
  unknown: {
    title: 'This link is not valid',
    message:
      'Check that you opened the whole link from the email, or ask for a new one with "Forgot password?" on the sign-in page.',
  },
};

/**
 * "Forgot password?" (request form → the same neutral answer always → email with a one-time
 * link) and the set-password page that one-time links open (finish setup and reset alike).
 * Registered inside the sign-in routes' scope: form parsing, CSP and rate limiting are theirs.
 */
export async function registerPasswordRoutes(
  app: FastifyInstance,
  options: PasswordRouteOptions,
): Promise<void> {
  const { db, logger, sendPage } = options;
  const homeLink =
    options.siteHome === undefined
      ? undefined
      : { href: options.siteHome, text: 'Sign in to Shelfwatch' };
  const signInHref = (uid: string | undefined): string | undefined =>
    uid === undefined ? options.siteHome : `/interaction/${uid}`;

  app.get(SET_PASSWORD_PATH, async (request, reply) => {
    const { token } = tokenQuerySchema.parse(request.query);
    const check = await checkAccountToken(db, token);
    if (!check.isUsable) {
      return sendPage(reply, 410, renderMessagePage(UNUSABLE_LINK_PAGES[check.reason]));
    }
    const page = renderSetPasswordPage({
      action: SET_PASSWORD_PATH,
      token,
      email: check.email,
      isFirstPassword: check.purpose === 'finish-setup',
    });
    // The token is in this page's address: no referrer may carry it elsewhere.
    return sendPage(reply.header('referrer-policy', 'no-referrer'), 200, page);
  });

  app.post(SET_PASSWORD_PATH, { bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    const { token, password, confirm } = setPasswordBodySchema.parse(request.body);
    const check = await checkAccountToken(db, token);
    if (!check.isUsable) {
      return sendPage(reply, 410, renderMessagePage(UNUSABLE_LINK_PAGES[check.reason]));
    }
    const retry = (error: string): FastifyReply =>
      sendPage(
        reply,
        422,
        renderSetPasswordPage({
          action: SET_PASSWORD_PATH,
          token,
          email: check.email,
          isFirstPassword: check.purpose === 'finish-setup',
          error,
        }),
      );
    if (password !== confirm) {
      return retry('The two passwords are not the same.');
    }
    try {
      const result = await setPasswordWithToken(db, token, password);
      if (!result.isUsable) {
        return sendPage(reply, 410, renderMessagePage(UNUSABLE_LINK_PAGES[result.reason]));
      }
    } catch (error) {
      if (error instanceof IdpAccountError) {
        return retry(error.message);
      }
      throw error;
    }
    return sendPage(
      reply,
      200,
      renderMessagePage({
        title: 'Your password is set',
        message: `Sign in with ${check.email} and your new password.`,
        link: homeLink,
      }),
    );
  });

  const { reset } = options;
  if (reset === undefined) {
    return;
  }
  const limitPerAddress = app.createRateLimit({
    max: PASSWORD_RESET_LIMITS.perAddressPerHour,
    timeWindow: 60 * 60_000,
    keyGenerator: (request) => `reset|${readAddressKey(request)}`,
  });
  const limitPerEmail = app.createRateLimit({
    max: PASSWORD_RESET_LIMITS.perEmailPerHour,
    timeWindow: 60 * 60_000,
    keyGenerator: (request) =>
      `reset|${emailBodySchema.parse(request.body).email.trim().toLowerCase()}`,
  });
  const limitRequests = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const results = [await limitPerAddress(request), await limitPerEmail(request)];
    const exceeded = results.flatMap((result) =>
      !result.isAllowed && result.isExceeded ? [result.ttlInSeconds] : [],
    );
    if (exceeded.length > 0) {
      await sendPage(
        reply.header('retry-after', String(Math.max(1, ...exceeded))),
        429,
        renderMessagePage({
          title: 'Too many requests',
          message: 'Too many password emails were asked for. Please wait an hour and try again.',
        }),
      );
    }
  };

  app.get(FORGOT_PASSWORD_PATH, async (request, reply) => {
    const { uid } = forgotQuerySchema.parse(request.query);
    return sendPage(reply, 200, renderForgotPasswordPage({ signInHref: signInHref(uid), uid }));
  });

  app.post(
    FORGOT_PASSWORD_PATH,
    { bodyLimit: FORM_BODY_LIMIT, preHandler: limitRequests },
    async (request, reply) => {
      const { email, uid } = emailBodySchema.parse(request.body);
      const trimmed = email.trim();
      if (!z.email().safeParse(trimmed).success) {
        return sendPage(
          reply,
          422,
          renderForgotPasswordPage({
            email,
            error: 'Enter a valid email address.',
            signInHref: signInHref(uid),
            uid,
          }),
        );
      }
      // Not awaited: the answer must take as long for addresses with an account as without.
      void requestPasswordReset(db, { ...reset, issuer: options.issuer }, trimmed).catch(
        (error: unknown) => logger.warn(`Could not send a password reset email: ${String(error)}`),
      );
      const backLink = signInHref(uid);
      return sendPage(
        reply,
        200,
        renderMessagePage({
          title: 'Check your email',
          message: RESET_REQUESTED_MESSAGE,
          link: backLink === undefined ? undefined : { href: backLink, text: 'Back to sign in' },
        }),
      );
    },
  );
}
