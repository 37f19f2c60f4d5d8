import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/** Credentials of a machine-to-machine application allowed to use the Management API. */
export type Auth0ManagementCredentials = {
  /** The tenant's domain ("tenant.eu.auth0.com"), or a URL (a local stand-in in tests). */
  domain: string;
  clientId: string;
  clientSecret: string;
  /** The database connection new users are created in. */
  connection: string;
};

/** The few Management API calls account provisioning and deletion use. */
export type Auth0Management = {
  /** Creates a user of the connection without a usable password; answers its user_id. */
  createUser: (email: string) => Promise<string>;
  /** The user_id of an existing user with this email in the connection, if any. */
  findUserByEmail: (email: string) => Promise<string | undefined>;
  /** A one-time link to choose a password, valid `ttlSeconds`, leading to `resultUrl` after. */
  createPasswordChangeTicket: (
    userId: string,
    options: { resultUrl: string; ttlSeconds: number },
  ) => Promise<string>;
  deleteUser: (userId: string) => Promise<void>;
};

/** A Management API call that failed; `status` is the HTTP status (0 for a network failure). */
export class Auth0ManagementError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'Auth0ManagementError';
    this.status = status;
  }
}

const tokenSchema = z.object({ access_token: z.string(), expires_in: z.number() });
const userSchema = z.object({ user_id: z.string() });
const ticketSchema = z.object({ ticket: z.string().url() });

// Renew a little before the token's stated expiry so a call never carries an expired one.
const TOKEN_RENEWAL_MARGIN_MS = 60_000;

/**
 * A Management API client over plain fetch (the `auth0` package is not a dependency):
 * client-credentials token from POST /oauth/token (audience https://DOMAIN/api/v2/), kept
 * until shortly before it expires, then POST /api/v2/users, GET /api/v2/users-by-email,
 * POST /api/v2/tickets/password-change and DELETE /api/v2/users/{id}.
 */
export function createAuth0Management(
  credentials: Auth0ManagementCredentials,
  options: { fetch?: typeof fetch; now?: () => number } = {},
): Auth0Management {
  const send = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const base = (
    /^https?:\/\//.test(credentials.domain) ? credentials.domain : `https://${credentials.domain}`
  ).replace(/\/+$/, '');
  let token: { value: string; renewAt: number } | undefined;

  const request = async (
    method: string,
    path: string,
    body: unknown,
    bearer: string | undefined,
  ): Promise<unknown> => {
    let response: Response;
    try {
      response = await send(`${base}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      throw new Auth0ManagementError(0, `Auth0 ${method} ${path}: ${String(error)}`);
    }
    const text = await response.text();
    if (!response.ok) {
      throw new Auth0ManagementError(
        response.status,
        `Auth0 ${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`,
      );
    }
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  };

  const readToken = async (): Promise<string> => {
    if (token !== undefined && token.renewAt > now()) {
      return token.value;
    }
    const answer = tokenSchema.parse(
      await request(
        'POST',
        '/oauth/token',
        {
          grant_type: 'client_credentials',
          client_id: credentials.clientId,
          client_secret: credentials.clientSecret,
          audience: `${base}/api/v2/`,
        },
        undefined,
      ),
    );
    token = {
      value: answer.access_token,
      renewAt: now() + answer.expires_in * 1000 - TOKEN_RENEWAL_MARGIN_MS,
    };
    return token.value;
  };
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> =>
    await request(method, path, body, await readToken());

  return {
    createUser: async (email) => {
      const created = await call('POST', '/api/v2/users', {
        email,
        connection: credentials.connection,
        // Required by database connections; random and never shown, so only the ticket sets one.
        password: `${randomBytes(24).toString('base64url')}Aa1!`,
        email_verified: false,
        verify_email: false,
      });
      return userSchema.parse(created).user_id;
    },
    findUserByEmail: async (email) => {
      const users = z
        .array(userSchema.extend({ identities: z.array(z.object({ connection: z.string() })) }))
        .parse(await call('GET', `/api/v2/users-by-email?email=${encodeURIComponent(email)}`));
      return users.find((user) =>
        user.identities.some((identity) => identity.connection === credentials.connection),
      )?.user_id;
    },
    createPasswordChangeTicket: async (userId, ticket) => {
      const answer = await call('POST', '/api/v2/tickets/password-change', {
        user_id: userId,
        result_url: ticket.resultUrl,
        ttl_sec: ticket.ttlSeconds,
        mark_email_as_verified: true,
      });
      return ticketSchema.parse(answer).ticket;
    },
    deleteUser: async (userId) => {
      await call('DELETE', `/api/v2/users/${encodeURIComponent(userId)}`);
    },
  };
}
