import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFinishSetupLink,
  deleteAccount,
  provisionAccount,
  readAccountSettings,
  type LoginDirectory,
} from '#server/accounts/index.ts';
import { loadConfig } from '#server/config/app-config.ts';
import { findUsersByEmail } from '#server/db/repositories/users-repository.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

const ISSUER = 'https://tenant.example.auth0.com/';
const CONNECTION = 'Username-Password-Authentication';

type RecordedRequest = { method: string; path: string; authorization?: string; body: unknown };
type StandInUser = { user_id: string; email: string };

/**
 * The Management API calls provisioning uses, as Auth0 documents them: client-credentials
 * tokens, users (409 on a taken email), users-by-email, password-change tickets, deletion.
 */
async function startAuth0StandIn(): Promise<{
  url: string;
  requests: RecordedRequest[];
  users: Map<string, StandInUser>;
  close: () => Promise<void>;
}> {
  const requests: RecordedRequest[] = [];
  const users = new Map<string, StandInUser>();
  const readBody = async (request: IncomingMessage): Promise<unknown> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString();
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  };
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://stand-in');
      const body = await readBody(request);
      requests.push({
        method: request.method ?? '',
        path: url.pathname + url.search,
        authorization: request.headers.authorization,
        body,
      });
      const send = (status: number, answer?: unknown): void => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(answer === undefined ? '' : JSON.stringify(answer));
      };
      const fields = (body ?? {}) as Record<string, unknown>;
      if (request.method === 'POST' && url.pathname === '/oauth/token') {
        return fields.client_secret === 'secret'
          ? send(200, { access_token: 'mgmt-token', expires_in: 86400, token_type: 'Bearer' })
          : send(401, { error: 'access_denied' });
      }
      if (request.headers.authorization !== 'Bearer mgmt-token') {
        return send(401, { statusCode: 401, error: 'Unauthorized', message: 'Invalid token' });
      }
      if (request.method === 'POST' && url.pathname === '/api/v2/users') {
        const email = String(fields.email);
        if ([...users.values()].some((user) => user.email === email)) {
          return send(409, {
            statusCode: 409,
            error: 'Conflict',
            message: 'The user already exists.',
          });
        }
        const user = { user_id: `auth0|${users.size + 1}`, email };
        users.set(user.user_id, user);
        return send(201, { ...user, identities: [{ connection: fields.connection }] });
      }
      if (request.method === 'GET' && url.pathname === '/api/v2/users-by-email') {
        const email = url.searchParams.get('email');
        return send(
          200,
          [...users.values()]
            .filter((user) => user.email === email)
            .map((user) => ({ ...user, identities: [{ connection: CONNECTION }] })),
        );
      }
      if (request.method === 'POST' && url.pathname === '/api/v2/tickets/password-change') {
        return send(201, { ticket: `${ISSUER}lo/reset?ticket=T-${String(fields.user_id)}#` });
      }
      const match = /^\/api\/v2\/users\/(.+)$/.exec(url.pathname);
      if (request.method === 'DELETE' && match !== null) {
        users.delete(decodeURIComponent(match[1]));
        return send(204);
      }
      return send(404, { statusCode: 404, error: 'Not Found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    users,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('provisioning accounts at Auth0 through the Management API', () => {
  let testDb: TestDatabase;
  let standIn: Awaited<ReturnType<typeof startAuth0StandIn>>;
  let login: LoginDirectory;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    standIn = await startAuth0StandIn();
    const config = loadConfig({
      AUTH0_DOMAIN: 'tenant.example.auth0.com',
      AUTH0_CLIENT_ID: 'spa',
      AUTH0_MGMT_DOMAIN: standIn.url,
      AUTH0_MGMT_CLIENT_ID: 'm2m',
      AUTH0_MGMT_CLIENT_SECRET: 'secret',
    });
    login = readAccountSettings(config).login;
  });
  afterAll(async () => {
    await standIn.close();
    await testDb.drop();
  });

  it('creates the Auth0 user and a user row for its id, with one token for every call', async () => {
    const { user, isNew } = await provisionAccount(
      testDb.db,
      { login },
      {
        email: 'Buyer@Example.com',
        plan: 'best',
      },
    );
    expect(isNew).toBe(true);
    expect(user).toMatchObject({ issuer: ISSUER, subject: 'auth0|1', plan: 'best' });
    const created = standIn.requests.find((request) => request.path === '/api/v2/users');
    expect(created?.body).toMatchObject({
      email: 'buyer@example.com',
      connection: CONNECTION,
      email_verified: false,
      verify_email: false,
    });
    expect(standIn.requests[0]).toMatchObject({
      method: 'POST',
      path: '/oauth/token',
      body: {
        grant_type: 'client_credentials',
        client_id: 'm2m',
        audience: `${standIn.url}/api/v2/`,
      },
    });

    const link = await createFinishSetupLink(
      testDb.db,
      { login, publicUrl: 'https://shelfwatch.app' },
      user,
    );
    expect(link.url).toBe(`${ISSUER}lo/reset?ticket=T-auth0|1#`);
    expect(standIn.requests.at(-1)?.body).toEqual({
      user_id: 'auth0|1',
      result_url: 'https://shelfwatch.app',
      ttl_sec: 86400,
      mark_email_as_verified: true,
    });
    expect(standIn.requests.filter((request) => request.path === '/oauth/token')).toHaveLength(1);
  });

  it('reuses an Auth0 user that already exists for the email', async () => {
    standIn.users.set('auth0|existing', { user_id: 'auth0|existing', email: 'known@example.com' });
    const { user } = await provisionAccount(
      testDb.db,
      { login },
      {
        email: 'known@example.com',
        plan: 'better',
      },
    );
    expect(user.subject).toBe('auth0|existing');
    expect(standIn.requests.at(-1)?.path).toBe('/api/v2/users-by-email?email=known%40example.com');
  });

  it('deleting the account deletes the Auth0 user too', async () => {
    const [user] = await findUsersByEmail(testDb.db, 'buyer@example.com');
    await deleteAccount(testDb.db, user, { login });
    expect(standIn.users.has('auth0|1')).toBe(false);
    expect(await findUsersByEmail(testDb.db, 'buyer@example.com')).toHaveLength(0);
  });

  it('refuses to provision at Auth0 without the Management API settings', async () => {
    const withoutManagement = readAccountSettings(
      loadConfig({ AUTH0_DOMAIN: 'tenant.example.auth0.com', AUTH0_CLIENT_ID: 'spa' }),
    ).login;
    await expect(
      provisionAccount(
        testDb.db,
        { login: withoutManagement },
        {
          email: 'nobody@example.com',
          plan: 'better',
        },
      ),
    ).rejects.toMatchObject({ reason: 'auth0-management-missing' });
    expect(await findUsersByEmail(testDb.db, 'nobody@example.com')).toHaveLength(0);
  });
});
