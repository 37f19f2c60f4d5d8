import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppDependencies } from '#server/app.ts';
import type { RateLimitSettings } from '#server/config/rate-limits.ts';
import {
  findOrCreateUserByIdentity,
  updateUserPlan,
} from '#server/db/repositories/users-repository.ts';
import type { PlanCode, UserRow } from '#server/db/schema.ts';
import { createTokenVerifier } from '#server/http/auth/index.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { checkResponseSchemas } from './response-schemas.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';
import { startTestIdentityProvider, type TestIdentityProvider } from './tokens.ts';

/** A signed-in test user and a bearer token for them. */
export type TestUser = { user: UserRow; token: string };

/** The real API on its own database with the real login provider and token verifier. */
export type ApiHarness = {
  app: FastifyInstance;
  testDb: TestDatabase;
  idp: TestIdentityProvider;
  /** Creates a user on `plan` with a token the API accepts. */
  createUser: (name: string, plan: PlanCode) => Promise<TestUser>;
  /** Sends a request, with the user's token when given. */
  call: (request: {
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    url: string;
    as?: TestUser;
    body?: unknown;
  }) => Promise<LightMyRequestResponse>;
  /** Another app on the same database, login provider and settings but `overrides`; close it yourself. */
  buildVariant: (overrides: Partial<AppDependencies>) => Promise<FastifyInstance>;
  close: () => Promise<void>;
};

/** Limits far above what any test sends, for tests that are not about limits. */
const OUT_OF_THE_WAY_LIMITS: RateLimitSettings = {
  perAddressPerMinute: 100_000,
  perUserPerMinute: 100_000,
  userWritesPerMinute: 100_000,
  checkoutPerAddressPerMinute: 100_000,
  authFailuresPerAddressPerMinute: 100_000,
  channelTestsPerChannelPerMinute: 100_000,
  channelTestsPerUserPerHour: 100_000,
};

/** Starts the harness; one per test file. Limits are out of the way unless `overrides` set them. */
export async function startApiHarness(
  overrides: Partial<AppDependencies> = {},
): Promise<ApiHarness> {
  const testDb = await createTestDatabase();
  await seedCatalog(testDb.db);
  const idp = await startTestIdentityProvider(testDb.db);
  const deps: AppDependencies = {
    db: testDb.db,
    verifyToken: createTokenVerifier({
      issuer: idp.issuer,
      audience: idp.audience,
      allowedClientIds: idp.allowedClientIds,
    }),
    website: {
      auth: {
        domain: idp.issuer.replace(/\/$/, ''),
        clientId: idp.clientId,
        audience: idp.audience,
      },
      apiBaseUrl: 'http://localhost:3000',
      supportEmail: 'support@shelfwatch.app',
      supportEndDate: 'September 8th, 2025',
      maker: { name: 'Lantern Apps', url: 'https://lanternapps.dev' },
      isBillingConfigured: false,
      macDownloadUrl: null,
      cookiePrefix: 'shelfwatch_',
    },
    corsOrigins: ['http://localhost:3000'],
    logLevel: 'silent',
    rateLimits: OUT_OF_THE_WAY_LIMITS,
    ...overrides,
  };
  const app = await buildApp(deps);
  const responseSchemas = checkResponseSchemas(app);
  await app.ready();
  return {
    app,
    testDb,
    idp,
    createUser: async (name, plan) => {
      const email = `${name}@example.com`;
      const user = await findOrCreateUserByIdentity(testDb.db, {
        issuer: idp.issuer,
        subject: `subject-${name}`,
        email,
      });
      await updateUserPlan(testDb.db, user.id, plan);
      const token = await idp.issueAccessToken({ subject: `subject-${name}`, email });
      return { user: { ...user, plan }, token };
    },
    call: async (request) => {
      const response = await app.inject({
        method: request.method,
        url: request.url,
        headers: request.as === undefined ? {} : { authorization: `Bearer ${request.as.token}` },
        ...(request.body === undefined ? {} : { payload: request.body as Record<string, unknown> }),
      });
      // The server writes replies without validating them: the tests hold it to the schemas.
      responseSchemas.assertNoMismatch();
      return response;
    },
    buildVariant: async (variantOverrides) => {
      const variant = await buildApp({ ...deps, ...variantOverrides });
      await variant.ready();
      return variant;
    },
    close: async () => {
      await app.close();
      await idp.close();
      await testDb.drop();
    },
  };
}
