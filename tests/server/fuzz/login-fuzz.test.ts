import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdpAccount } from '#server/identity/index.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { startTestIdentityProvider, type TestIdentityProvider } from '#tests/helpers/tokens.ts';
import { hostileKeyArbitrary, hostileValueArbitrary } from '#tests/helpers/zod-arbitraries.ts';
import { beginAuthorization, type PendingAuthorization } from '#tests/server/identity/oidc-flow.ts';
import {
  checkErrorBody,
  encodeLoosely,
  findInternalsLeak,
  isJsonContentType,
  RequestTally,
  runFuzz,
} from './fuzz-support.ts';

const SITE = 'http://localhost:3000';
const EMAIL = 'fuzz-login@example.com';
const PASSWORD = 'correct horse battery staple';
const RUNS = 320;
/** Pending sign-ins the fuzzer posts to; one is replaced each time a sign-in completes. */
const POOL_SIZE = 4;

/** Which interaction a post names, and with which cookies. */
type UidChoice =
  | { kind: 'pending'; index: number; cookies: 'own' | 'none' | 'another' }
  | { kind: 'literal'; value: string; isRaw: boolean };

/** How the form is sent. */
type FormChoice =
  | { kind: 'form'; fields: [string, string][] }
  | { kind: 'raw'; text: string; contentType: string | undefined }
  | { kind: 'none' };

/** One planned post of the sign-in form. */
type PlannedLogin = {
  uid: UidChoice;
  form: FormChoice;
  /** The client's own loopback address: spread so per-address limits stay out of the way. */
  localAddress: string;
  headers: Record<string, string>;
};

/** An answer as read off the socket. */
type RawResponse = { status: number; headers: IncomingHttpHeaders; body: string };

const uidArbitrary: fc.Arbitrary<UidChoice> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('pending' as const),
      index: fc.nat(),
      cookies: fc.oneof(
        { weight: 6, arbitrary: fc.constant('own' as const) },
        fc.constantFrom('none' as const, 'another' as const),
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('literal' as const),
      value: fc.oneof(
        fc.stringMatching(/^[A-Za-z0-9_-]{21}$/),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
        fc.integer({ min: 90, max: 3000 }).map((length) => 'u'.repeat(length)),
        fc.constantFrom('__proto__', 'constructor', '..', '%00', ' ', 'login'),
      ),
      isRaw: fc.constant(false),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('literal' as const),
      value: fc.constantFrom('%E0%A4%A', '%', '%zz', '..%2F..%2F', ''),
      isRaw: fc.constant(true),
    }),
  },
);

const emailArbitrary: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(EMAIL, EMAIL.toUpperCase(), ` ${EMAIL} `) },
  { weight: 2, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 300, max: 5000 }).map((n) => `${'a'.repeat(n)}@example.com`),
  },
);

const passwordArbitrary: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(PASSWORD) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 64 }) },
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 8000 }).map((n) => 'p'.repeat(n)) },
);

/** Field lists of a posted form: the two fields, then missing, repeated, extra and polluted ones. */
const fieldsArbitrary: fc.Arbitrary<[string, string][]> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(emailArbitrary, passwordArbitrary)
      .map(([email, password]): [string, string][] => [
        ['email', email],
        ['password', password],
      ]),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.subarray(['email', 'password', 'email', 'password', 'remember', '__proto__[admin]']),
        fc.array(fc.tuple(hostileKeyArbitrary(), hostileValueArbitrary()), { maxLength: 3 }),
        emailArbitrary,
        passwordArbitrary,
      )
      .map(([names, extra, email, password]) => [
        ...names.map((name): [string, string] => [name, name === 'email' ? email : password]),
        ...extra.map(([key, value]): [string, string] => [
          key,
          typeof value === 'string' ? value : (JSON.stringify(value) ?? ''),
        ]),
      ]),
  },
);

const formArbitrary: fc.Arbitrary<FormChoice> = fc.oneof(
  {
    weight: 8,
    arbitrary: fieldsArbitrary.map((fields) => ({ kind: 'form' as const, fields })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(emailArbitrary, passwordArbitrary, fc.boolean())
      .map(([email, password, isBroken]) => {
        const json = JSON.stringify({ email, password });
        return {
          kind: 'raw' as const,
          text: isBroken ? json.slice(0, -2) : json,
          contentType: 'application/json',
        };
      }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('raw' as const),
      text: fc.oneof(
        fc.constant(`email=${encodeURIComponent(EMAIL)}&password=x`),
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.constantFrom('%', 'email=%E0%A4%A', '&&&==', '{"__proto__":{"admin":true}}'),
      ),
      contentType: fc.constantFrom(
        'text/plain',
        'application/xml',
        'multipart/form-data; boundary=fuzz',
        'application/x-www-form-urlencoded; charset=utf-16',
        'application/x-www-form-urlencoded',
        'application/json',
        undefined,
      ),
    }),
  },
  {
    weight: 1,
    // Over the form's 16 KiB limit, and over Fastify's own 1 MiB.
    arbitrary: fc.constantFrom(20_000, 300_000, 1_200_000).map((size) => ({
      kind: 'raw' as const,
      text: `email=${encodeURIComponent(EMAIL)}&password=${'p'.repeat(size)}`,
      contentType: 'application/x-www-form-urlencoded',
    })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
);

const plannedLoginArbitrary: fc.Arbitrary<PlannedLogin> = fc.record({
  uid: uidArbitrary,
  form: formArbitrary,
  localAddress: fc
    .tuple(fc.nat(255), fc.nat(255), fc.integer({ min: 2, max: 254 }))
    .map((parts) => `127.${parts.join('.')}`),
  headers: fc
    .record(
      {
        origin: fc.constantFrom(SITE, 'https://evil.example', 'null'),
        accept: fc.constantFrom('text/html', 'application/json', '*/*'),
        'x-forwarded-for': fc.constantFrom('203.0.113.7', '10.0.0.1, 198.51.100.2'),
      },
      { requiredKeys: [] },
    )
    .map((headers) => Object.fromEntries(Object.entries(headers))),
});

/** Posts over a real socket from `localAddress`; a connection closed early is reported, not thrown. */
function postRaw(
  options: { port: number; path: string; localAddress: string; headers: Record<string, string> },
  body: Buffer | undefined,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let answered: RawResponse | undefined;
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port: options.port,
        method: 'POST',
        path: options.path,
        localAddress: options.localAddress,
        agent: false,
        headers: {
          ...options.headers,
          ...(body === undefined ? {} : { 'content-length': String(body.length) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          answered = {
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          };
          resolve(answered);
        });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      // A server may answer an oversized body and close before reading the rest.
      if (answered !== undefined) {
        resolve(answered);
      } else if (error.code === 'EPIPE' || error.code === 'ECONNRESET') {
        resolve({ status: 0, headers: {}, body: `connection closed: ${error.code}` });
      } else {
        reject(error);
      }
    });
    request.end(body);
  });
}

describe('fuzzing the sign-in form of the login provider', () => {
  let testDb: TestDatabase;
  let idp: TestIdentityProvider;
  const pool: PendingAuthorization[] = [];
  const tally = new RequestTally();

  const begin = (): Promise<PendingAuthorization> =>
    beginAuthorization({
      issuer: idp.issuer,
      clientId: idp.clientId,
      redirectUri: `${SITE}/callback`,
      audience: idp.audience,
    });

  beforeAll(async () => {
    testDb = await createTestDatabase();
    idp = await startTestIdentityProvider(testDb.db, { siteOrigins: [SITE] });
    await createIdpAccount(testDb.db, { email: EMAIL, password: PASSWORD });
    for (let index = 0; index < POOL_SIZE; index += 1) {
      pool.push(await begin());
    }
  });
  afterAll(async () => {
    await idp?.close();
    await testDb?.drop();
  });

  const resolvePath = (uid: UidChoice): { path: string; cookie: string | undefined } => {
    if (uid.kind === 'literal') {
      const segment = uid.isRaw ? uid.value : encodeLoosely(uid.value);
      return { path: `/interaction/${segment}/login`, cookie: undefined };
    }
    const pending = pool[uid.index % pool.length];
    const cookieOwner = uid.cookies === 'another' ? pool[(uid.index + 1) % pool.length] : pending;
    return {
      path: `/interaction/${pending.uid}/login`,
      cookie: uid.cookies === 'none' ? undefined : cookieOwner.jar.header(),
    };
  };

  /** Everything wrong with one answer, or undefined. */
  const judge = (path: string, sent: string, response: RawResponse): string | undefined => {
    const where = `POST ${path.slice(0, 120)} → ${response.status}`;
    const contentType = String(response.headers['content-type'] ?? '');
    const leak = findInternalsLeak(response.body, `${path} ${sent}`);
    if (leak !== undefined) {
      return `${where}: the body reveals server internals (${leak}): ${response.body.slice(0, 500)}`;
    }
    if (response.status === 0) {
      // Only a body far over the limit may be cut off unanswered.
      return sent.length > 1_000_000 ? undefined : `${where}: ${response.body}`;
    }
    if (response.status >= 500) {
      return `${where}: server error ${response.body.slice(0, 500)}`;
    }
    if (response.status === 303) {
      const location = response.headers.location ?? '';
      return location.startsWith(idp.issuer) || location.startsWith('/')
        ? undefined
        : `${where}: redirects to ${location}`;
    }
    if (response.status < 400) {
      return `${where}: unexpected status ${response.body.slice(0, 200)}`;
    }
    if (contentType.startsWith('text/html')) {
      return /<html[\s>]/i.test(response.body)
        ? undefined
        : `${where}: not a page: ${response.body.slice(0, 200)}`;
    }
    if (isJsonContentType(contentType)) {
      // Paths the form's route never sees (an empty uid, a URL that cannot be decoded) are
      // answered by oidc-provider or Fastify's router in their own JSON error shapes.
      const isOtherErrorShape = /^\{"error":"[^"]+"/.test(response.body);
      const problem = checkErrorBody(response.body);
      return problem === undefined || isOtherErrorShape ? undefined : `${where}: ${problem}`;
    }
    // A uid the form's route cannot take (too long) falls through to oidc-provider's 404.
    if (response.status === 404 && contentType.startsWith('text/plain')) {
      return response.body === 'Not Found' ? undefined : `${where}: ${response.body.slice(0, 200)}`;
    }
    return `${where}: answered as ${contentType}: ${response.body.slice(0, 200)}`;
  };

  it('answers every post without a 5xx, a stack trace or an unexpected redirect', async () => {
    await runFuzz(
      'POST /interaction/:uid/login',
      plannedLoginArbitrary,
      async (planned) => {
        const { path, cookie } = resolvePath(planned.uid);
        const headers: Record<string, string> = { ...planned.headers };
        if (cookie !== undefined) {
          headers.cookie = cookie;
        }
        let body: Buffer | undefined;
        const { form } = planned;
        if (form.kind === 'form') {
          body = Buffer.from(new URLSearchParams(form.fields).toString());
          headers['content-type'] = 'application/x-www-form-urlencoded';
        } else if (form.kind === 'raw') {
          body = Buffer.from(form.text);
          if (form.contentType !== undefined) {
            headers['content-type'] = form.contentType;
          }
        }
        const response = await postRaw(
          { port: idp.port, path, localAddress: planned.localAddress, headers },
          body,
        );
        tally.add('login');
        tally.add(`status ${response.status}`);
        const problem = judge(path, body?.toString('utf8') ?? '', response);
        if (problem !== undefined) {
          throw new Error(problem);
        }
        if (response.status === 303 && planned.uid.kind === 'pending') {
          // That sign-in is done: post to a fresh one from now on.
          pool[planned.uid.index % pool.length] = await begin();
        }
      },
      { numRuns: RUNS, seedOffset: 1000 },
    );
    expect(tally.count('login')).toBe(RUNS);
    // The fuzzer must get past the door: some sign-ins complete, some are refused as wrong.
    expect(tally.count('status 303')).toBeGreaterThanOrEqual(3);
    expect(tally.count('status 422')).toBeGreaterThan(RUNS * 0.05);
    expect(tally.count('status 429')).toBeLessThan(RUNS * 0.02);
  }, 120_000);
});
