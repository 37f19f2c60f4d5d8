import formBody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import { z } from 'zod';
import type { LoginLimitSettings } from '#server/config/rate-limits.ts';
import type { Db } from '#server/db/database.ts';
import { readAddressKey } from '#server/http/rate-limits.ts';
import { verifyIdpCredentials } from './idp-accounts.ts';
import type { IdpLogger } from './load-oidc-provider.ts';
import { renderLoginPage, renderMessagePage, WRONG_CREDENTIALS_MESSAGE } from './pages.ts';
import { FORGOT_PASSWORD_PATH } from './password-pages.ts';
import { registerPasswordRoutes, type PasswordRouteOptions } from './password-routes.ts';
import { securityHeadersPlugin } from '#server/http/security-headers.ts';

/** What the login routes need. */
export type InteractionRouteOptions = {
  provider: Provider;
  db: Db;
  logger: IdpLogger;
  /** Origins a sign-in may redirect to after the form is posted (CSP form-action). */
  redirectOrigins: string[];
  siteHome: string | undefined;
  /** The issuer is https: only then is HSTS sent. */
  isHttps: boolean;
  loginLimits: LoginLimitSettings;
  /** The provider's issuer: one-time password links point at its set-password page. */
  issuer: string;
  /** How "Forgot password?" mails its links; without it the login page does not offer it. */
  passwordReset: PasswordRouteOptions['reset'];
};

// Far above an email (320) and a password (1024) however encoded.
const LOGIN_BODY_LIMIT = 16 * 1024;

const paramsSchema = z.object({ uid: z.string().min(1).max(100) });
// Anything else (missing fields, arrays from repeated fields, other types) reads as empty.
const loginBodySchema = z
  .object({ email: z.string().max(320).catch(''), password: z.string().max(1024).catch('') })
  .catch({ email: '', password: '' });

/** Thrown by the rate limiter; rendered as a readable 429 page. */
class LoginRateLimitedError extends Error {
  readonly statusCode = 429;
  readonly retryAfter: string;

  constructor(retryAfter: string) {
    super('Too many sign-in attempts');
    this.retryAfter = retryAfter;
  }
}

/** The pages for the client errors Fastify raises before the handler (body parsing). */
const CLIENT_ERROR_PAGES: Readonly<Record<number, { title: string; message: string }>> = {
  400: {
    title: 'This sign-in form could not be read',
    message: 'Go back to the sign-in page and send the form again.',
  },
  413: {
    title: 'This sign-in form is too large',
    message: 'Go back to the sign-in page and send the form again.',
  },
  415: {
    title: 'This sign-in form could not be read',
    message: 'Go back to the sign-in page and send the form again from there.',
  },
};

/**
 * The product's own sign-in page at oidc-provider's interaction URL.
 *
 * CSRF: a forged POST cannot complete a sign-in. The uid in the path is unguessable and
 * must equal the one in oidc-provider's signed, SameSite=Lax interaction cookie (scoped to
 * /interaction/<uid>), which browsers do not send with cross-site POSTs.
 */
export async function registerInteractionRoutes(
  app: FastifyInstance,
  options: InteractionRouteOptions,
): Promise<void> {
  const { provider, db, logger, siteHome } = options;
  await app.register(formBody);
  await app.register(rateLimit, { global: false });
  await app.register(securityHeadersPlugin, {
    // Browsers ignore it over plain http (RFC 6797): sent there, it only misstates the site.
    hsts: options.isHttps ? undefined : false,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        styleSrc: ["'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        // Chromium applies form-action to the redirects after the post: allow the sites.
        formAction: ["'self'", ...options.redirectOrigins],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
    },
  });

  const homeLink =
    siteHome === undefined ? undefined : { href: siteHome, text: 'Back to Shelfwatch' };
  const forgotPasswordHref = (uid: string): string | undefined =>
    options.passwordReset === undefined
      ? undefined
      : `${FORGOT_PASSWORD_PATH}?uid=${encodeURIComponent(uid)}`;
  const sendPage = (reply: FastifyReply, status: number, html: string): FastifyReply =>
    reply
      .code(status)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(html);
  const sendExpired = (reply: FastifyReply): FastifyReply =>
    sendPage(
      reply,
      400,
      renderMessagePage({
        title: 'This sign-in has expired',
        message: 'Go back to Shelfwatch and sign in again.',
        link: homeLink,
      }),
    );

  /** The pending login interaction named by the path, or undefined if cookie and path disagree. */
  const findLoginInteraction = async (
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<Interaction | undefined> => {
    const params = paramsSchema.safeParse(request.params);
    if (!params.success) {
      return undefined;
    }
    try {
      const details = await provider.interactionDetails(request.raw, reply.raw);
      return details.uid === params.data.uid && details.prompt.name === 'login'
        ? details
        : undefined;
    } catch {
      // SessionNotFound: no or expired interaction cookie, or the interaction is gone.
      return undefined;
    }
  };

  app.setErrorHandler((error: FastifyError | LoginRateLimitedError, request, reply) => {
    if (error instanceof LoginRateLimitedError) {
      return sendPage(
        reply.header('retry-after', error.retryAfter),
        429,
        renderMessagePage({
          title: 'Too many sign-in attempts',
          message: 'Please wait a minute before trying again.',
        }),
      );
    }
    const clientErrorPage = CLIENT_ERROR_PAGES[error.statusCode ?? 500];
    if (clientErrorPage !== undefined && error.statusCode !== undefined) {
      // A bad JSON body, another media type, a body over the limit: the sender's fault.
      return sendPage(
        reply,
        error.statusCode,
        renderMessagePage({ ...clientErrorPage, link: homeLink }),
      );
    }
    logger.warn(`Sign-in page failed for ${request.method} ${request.url}: ${String(error)}`);
    return sendPage(
      reply,
      500,
      renderMessagePage({
        title: 'Something went wrong',
        message: 'Please try again.',
        link: homeLink,
      }),
    );
  });

  app.get('/interaction/:uid', async (request, reply) => {
    const interaction = await findLoginInteraction(request, reply);
    if (interaction === undefined) {
      return sendExpired(reply);
    }
    const loginHint = interaction.params.login_hint;
    return sendPage(
      reply,
      200,
      renderLoginPage({
        uid: interaction.uid,
        email: typeof loginHint === 'string' ? loginHint : undefined,
        forgotPasswordHref: forgotPasswordHref(interaction.uid),
      }),
    );
  });

  // Per address across emails (password spraying) and per address and email (guessing one
  // account's password); both count every attempt.
  const limitPerAddress = app.createRateLimit({
    max: options.loginLimits.perAddressPerMinute,
    timeWindow: 60_000,
    keyGenerator: readAddressKey,
  });
  const limitPerEmail = app.createRateLimit({
    max: options.loginLimits.perAddressAndEmailPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) =>
      `${readAddressKey(request)}|${loginBodySchema.parse(request.body).email.trim().toLowerCase()}`,
  });
  const limitLogins = async (request: FastifyRequest): Promise<void> => {
    const results = [await limitPerAddress(request), await limitPerEmail(request)];
    const exceeded = results.flatMap((result) =>
      !result.isAllowed && result.isExceeded ? [result.ttlInSeconds] : [],
    );
    if (exceeded.length > 0) {
      throw new LoginRateLimitedError(String(Math.max(1, ...exceeded)));
    }
  };

  app.post(
    '/interaction/:uid/login',
    // After body parsing, so the key can include the email being guessed at.
    { bodyLimit: LOGIN_BODY_LIMIT, preHandler: limitLogins },
    async (request, reply) => {
      const interaction = await findLoginInteraction(request, reply);
      if (interaction === undefined) {
        return sendExpired(reply);
      }
      const { email, password } = loginBodySchema.parse(request.body);
      if (email.trim() === '' || password === '') {
        return sendPage(
          reply,
          422,
          renderLoginPage({ uid: interaction.uid, email, error: 'Enter your email and password.' }),
        );
      }
      const account = await verifyIdpCredentials(db, email, password);
      if (account === undefined) {
        return sendPage(
          reply,
          422,
          renderLoginPage({
            uid: interaction.uid,
            email,
            error: WRONG_CREDENTIALS_MESSAGE,
            forgotPasswordHref: forgotPasswordHref(interaction.uid),
          }),
        );
      }
      const returnTo = await provider.interactionResult(
        request.raw,
        reply.raw,
        // Signing in on this page is the End-User interaction a native client's consent check
        // asks for (RFC 8252 8.6); first-party grants are loaded by loadFirstPartyGrant.
        { login: { accountId: account.id, amr: ['pwd'] }, consent: {} },
        { mergeWithLastSubmission: false },
      );
      return reply.header('cache-control', 'no-store').redirect(returnTo, 303);
    },
  );

  await registerPasswordRoutes(app, {
    db,
    logger,
    issuer: options.issuer,
    siteHome,
    reset: options.passwordReset,
    sendPage,
  });
}
