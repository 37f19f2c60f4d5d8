import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  accountSchema,
  accountUpdateSchema,
  quietHoursSchema,
  timeZoneUpdateSchema,
  billingWebhookResponseSchema,
  checkoutSessionRequestSchema,
  checkoutSessionResponseSchema,
  countryListSchema,
  exampleInventorySchema,
  newSearchSchema,
  portalSessionRequestSchema,
  portalSessionResponseSchema,
  postCheckoutRequestSchema,
  postCheckoutResponseSchema,
  productListSchema,
  pushPublicKeySchema,
  pushSubscriptionDeleteSchema,
  pushSubscriptionInputSchema,
  pushSubscriptionSchema,
  searchHistoryQuerySchema,
  searchHistorySchema,
  searchInventorySchema,
  searchListSchema,
  searchParamsSchema,
  searchSchema,
  searchUpdateSchema,
  storeListSchema,
  twilioInboundSchema,
  unsubscribeBodySchema,
  unsubscribeQuerySchema,
  unsubscribeResultSchema,
  watchStatusSchema,
} from '#shared/api/index.ts';
import {
  channelCreatedSchema,
  channelCreateSchema,
  channelListSchema,
  channelParamsSchema,
  channelTestResultSchema,
  searchChannelsSchema,
  searchChannelsUpdateSchema,
} from '#shared/api/channels.ts';
import {
  localeToCountryCode,
  PRODUCT_MODEL_SEEDS,
  PRODUCT_TYPE_SEEDS,
  STORE_SEEDS,
} from '#shared/catalog/index.ts';
import { createChannel, listChannels } from '#server/notify/channels/channels-service.ts';
import { loadOrCreateNotifySecrets } from '#server/notify/secrets.ts';
import { signUnsubscribeToken } from '#server/notify/unsubscribe-token.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';
import {
  hostileKeyArbitrary,
  hostileValueArbitrary,
  mutatedInputArbitrary,
  validInputArbitrary,
  type ArbitraryOptions,
} from '#tests/helpers/zod-arbitraries.ts';
import {
  checkErrorBody,
  checkSuccessBody,
  clientAddressArbitrary,
  encodeLoosely,
  findInternalsLeak,
  isJsonContentType,
  RequestTally,
  runFuzz,
} from './fuzz-support.ts';

/** At least this many requests across the /v2 routes (issue 10). */
const MINIMUM_REQUESTS = 10_000;
const RUNS_PER_ROUTE = 440;
/** Valid requests must reach the code behind validation: at least this share succeeds. */
const MINIMUM_SUCCESS_SHARE = 0.03;
const PUBLIC_URL = 'http://localhost:3000';
const TWILIO_AUTH_TOKEN = 'fuzz-twilio-auth-token';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Who a request claims to be. */
type Caller =
  | 'anonymous'
  | 'premium'
  | 'better'
  | 'good'
  | 'newcomer'
  | 'garbage-token'
  | 'expired-token'
  | 'foreign-token'
  | 'wrong-audience'
  | 'wrong-client'
  | 'unsigned-token'
  | 'basic-auth';

/** Callers whose token the API must refuse. */
const REFUSED_CALLERS: ReadonlySet<Caller> = new Set([
  'anonymous',
  'garbage-token',
  'expired-token',
  'foreign-token',
  'wrong-audience',
  'wrong-client',
  'unsigned-token',
  'basic-auth',
]);

/**
 * One /v2 route: its contract from `shared/api`, who may call it and what it answers.
 * `success` maps each 2xx status to the body's schema (null: no body).
 */
type RouteSpec = {
  method: Method;
  url: string;
  access: 'public' | 'signed-in' | 'paid-plan';
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Accepts application/x-www-form-urlencoded bodies besides JSON. */
  isFormBody?: boolean;
  success: Readonly<Record<number, z.ZodType | null>>;
  /** Answers these in HTML (pages for people following email links). */
  isHtmlAnswered?: boolean;
  /** A non-JSON success body's content type (Twilio's TwiML). */
  successContentType?: RegExp;
  /** 5xx answers that are the contract, by status and code (billing before it is set up). */
  expectedServerErrors?: Readonly<Record<number, string>>;
  overrides?: ArbitraryOptions['overrides'];
};

const base64Url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');

const PRODUCT_IDS = PRODUCT_TYPE_SEEDS.map((product) => product.product_id);
// Stores of countries the catalog sells in: a search elsewhere is refused before it is made.
const SELLING_COUNTRIES = new Set(PRODUCT_MODEL_SEEDS.map((model) => model.country_code));
const STORE_IDS = STORE_SEEDS.filter((store) =>
  SELLING_COUNTRIES.has(localeToCountryCode(store.country_locale) ?? ''),
).map((store) => store.store_id);
const PART_NUMBERS = [...new Set(PRODUCT_MODEL_SEEDS.map((model) => model.part_number))];

/** Mostly real catalog ids, so valid requests reach the code behind the lookups. */
const searchOverrides: ArbitraryOptions['overrides'] = {
  product_type: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...PRODUCT_IDS) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 64, unit: 'grapheme' }) },
  ),
  store_id: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...STORE_IDS) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 64, unit: 'binary' }) },
  ),
  'product_models[].part_number': fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...PART_NUMBERS) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 32 }) },
  ),
  // Turning texts on needs a phone number, which the fuzzed PATCH /v2/account keeps changing:
  // mostly off, so that valid updates still get through often enough to be tested.
  send_text_updates: fc.oneof(
    { weight: 4, arbitrary: fc.constant(false) },
    { weight: 1, arbitrary: fc.constant(true) },
  ),
};

const ROUTES: readonly RouteSpec[] = [
  { method: 'GET', url: '/v2/products', access: 'public', success: { 200: productListSchema } },
  { method: 'GET', url: '/v2/stores', access: 'public', success: { 200: storeListSchema } },
  { method: 'GET', url: '/v2/countries', access: 'public', success: { 200: countryListSchema } },
  {
    method: 'GET',
    url: '/v2/inventory/example_inventory',
    access: 'public',
    success: { 200: exampleInventorySchema },
  },
  { method: 'GET', url: '/v2/status', access: 'public', success: { 200: watchStatusSchema } },
  {
    method: 'GET',
    url: '/v2/notifications/push/public-key',
    access: 'public',
    success: { 200: pushPublicKeySchema },
  },
  {
    method: 'GET',
    url: '/v2/notifications/unsubscribe',
    access: 'public',
    query: unsubscribeQuerySchema,
    success: { 200: z.string() },
    isHtmlAnswered: true,
  },
  {
    method: 'POST',
    url: '/v2/notifications/unsubscribe',
    access: 'public',
    query: unsubscribeQuerySchema,
    body: unsubscribeBodySchema,
    isFormBody: true,
    success: { 200: unsubscribeResultSchema },
    isHtmlAnswered: true,
  },
  {
    method: 'POST',
    url: '/v2/notifications/twilio/inbound',
    access: 'public',
    body: twilioInboundSchema,
    isFormBody: true,
    overrides: {
      Body: fc.oneof(
        fc.constantFrom('STOP', ' stop ', 'START', 'unstop', 'HELP', 'info', 'Yes', ''),
        fc.string({ maxLength: 160, unit: 'grapheme' }),
      ),
      From: fc.oneof(
        fc.constantFrom('+14155550123', '+447911123456'),
        fc.string({ minLength: 1, maxLength: 20, unit: 'binary' }),
      ),
    },
    success: { 200: null },
    successContentType: /^text\/xml/,
  },
  { method: 'GET', url: '/v2/account', access: 'signed-in', success: { 200: accountSchema } },
  {
    method: 'PATCH',
    url: '/v2/account',
    access: 'signed-in',
    body: accountUpdateSchema,
    success: { 200: accountSchema },
    overrides: {
      phone_number: fc.oneof(
        fc.constantFrom('+14155550123', '+44 20 7183 8750', '+61293744000', '', '  '),
        fc.constant(null),
      ),
    },
  },
  {
    method: 'GET',
    url: '/v2/searches/my_searches',
    access: 'paid-plan',
    success: { 200: searchListSchema },
  },
  {
    method: 'POST',
    url: '/v2/searches',
    access: 'paid-plan',
    body: newSearchSchema,
    success: { 201: searchSchema },
    overrides: searchOverrides,
  },
  {
    method: 'GET',
    url: '/v2/searches/:id',
    access: 'paid-plan',
    params: searchParamsSchema,
    success: { 200: searchSchema },
  },
  {
    method: 'PATCH',
    url: '/v2/searches/:id',
    access: 'paid-plan',
    params: searchParamsSchema,
    body: searchUpdateSchema,
    success: { 200: searchSchema },
    overrides: searchOverrides,
  },
  {
    method: 'DELETE',
    url: '/v2/searches/:id',
    access: 'paid-plan',
    params: searchParamsSchema,
    success: { 204: null },
  },
  {
    method: 'GET',
    url: '/v2/searches/:id/inventory',
    access: 'paid-plan',
    params: searchParamsSchema,
    success: { 200: searchInventorySchema },
  },
  {
    method: 'GET',
    url: '/v2/searches/:id/history',
    access: 'paid-plan',
    params: searchParamsSchema,
    query: searchHistoryQuerySchema,
    success: { 200: searchHistorySchema },
  },
  {
    method: 'POST',
    url: '/v2/notifications/push/subscriptions',
    access: 'signed-in',
    body: pushSubscriptionInputSchema,
    success: { 201: pushSubscriptionSchema },
    overrides: {
      endpoint: fc
        .webUrl({ validSchemes: ['https'], withQueryParameters: true })
        .filter((url) => url.length <= 2048),
      'keys.p256dh': fc.uint8Array({ minLength: 65, maxLength: 65 }).map(base64Url),
      'keys.auth': fc.uint8Array({ minLength: 16, maxLength: 16 }).map(base64Url),
    },
  },
  {
    method: 'DELETE',
    url: '/v2/notifications/push/subscriptions',
    access: 'signed-in',
    body: pushSubscriptionDeleteSchema,
    success: { 204: null },
    overrides: {
      endpoint: fc.oneof(
        fc.webUrl({ validSchemes: ['https'] }),
        fc.string({ minLength: 1, maxLength: 2048, unit: 'grapheme' }),
      ),
    },
  },
  {
    method: 'PATCH',
    url: '/v2/account/quiet-hours',
    access: 'signed-in',
    body: quietHoursSchema,
    success: { 200: accountSchema },
    overrides: {
      start: fc.oneof(fc.constantFrom('22:00', '7:05', '24:00', '12:60'), fc.string()),
      end: fc.oneof(fc.constantFrom('07:00', '22:00', ''), fc.string()),
      time_zone: fc.oneof(
        fc.constantFrom('America/New_York', 'Europe/London', 'Mars/Olympus', 'utc'),
        fc.string(),
      ),
    },
  },
  { method: 'DELETE', url: '/v2/account', access: 'signed-in', success: { 204: null } },
  {
    method: 'GET',
    url: '/v2/account/channels',
    access: 'paid-plan',
    success: { 200: channelListSchema },
  },
  {
    method: 'POST',
    url: '/v2/account/channels',
    access: 'paid-plan',
    body: channelCreateSchema,
    success: { 201: channelCreatedSchema },
    // Public-looking hosts that do not resolve (.invalid), so nothing leaves the machine.
    overrides: {
      url: fc.oneof(
        fc.domain().map((host) => `https://${host}.invalid/api/webhooks/1/x`),
        fc.string({ maxLength: 300 }),
      ),
      server_url: fc.oneof(
        fc.domain().map((host) => `https://${host}.invalid`),
        fc.string({ maxLength: 300 }),
      ),
    },
  },
  {
    method: 'DELETE',
    url: '/v2/account/channels/:id',
    access: 'paid-plan',
    params: channelParamsSchema,
    success: { 204: null },
  },
  {
    method: 'POST',
    url: '/v2/account/channels/:id/test',
    access: 'paid-plan',
    params: channelParamsSchema,
    success: { 200: channelTestResultSchema },
  },
  {
    method: 'GET',
    url: '/v2/searches/:id/channels',
    access: 'paid-plan',
    params: searchParamsSchema,
    success: { 200: searchChannelsSchema },
  },
  {
    method: 'PATCH',
    url: '/v2/searches/:id/channels',
    access: 'paid-plan',
    params: searchParamsSchema,
    body: searchChannelsUpdateSchema,
    success: { 200: searchChannelsSchema },
    // Random ids are nobody's channels (404); an empty choice (every channel off) succeeds.
    overrides: { channel_ids: fc.oneof(fc.constant([]), fc.array(fc.uuid(), { maxLength: 2 })) },
  },
  {
    method: 'POST',
    url: '/v2/account/post_checkout',
    access: 'public',
    body: postCheckoutRequestSchema,
    success: { 200: postCheckoutResponseSchema },
    expectedServerErrors: { 503: 'billing_not_configured' },
  },
  {
    method: 'POST',
    url: '/v2/account/create-portal-session',
    access: 'signed-in',
    body: portalSessionRequestSchema,
    success: { 200: portalSessionResponseSchema },
    expectedServerErrors: { 503: 'billing_not_configured' },
  },
  {
    method: 'POST',
    url: '/v2/account/create-checkout-session',
    access: 'public',
    body: checkoutSessionRequestSchema,
    success: { 200: checkoutSessionResponseSchema },
    expectedServerErrors: { 503: 'billing_not_configured' },
  },
  {
    // Stripe's events, read as raw bytes for the signature check (no Stripe in this app).
    method: 'POST',
    url: '/v2/billing/webhook',
    access: 'public',
    body: z.object({
      id: z.string(),
      object: z.literal('event'),
      type: z.string(),
      created: z.number().int(),
      data: z.object({ object: z.object({ id: z.string(), object: z.string() }) }),
    }),
    success: { 200: billingWebhookResponseSchema },
    expectedServerErrors: { 503: 'billing_not_configured' },
  },
  // New routes go last: each route's fuzz seed follows its place in this list.
  {
    method: 'PATCH',
    url: '/v2/account/time-zone',
    access: 'signed-in',
    body: timeZoneUpdateSchema,
    success: { 200: accountSchema },
    overrides: {
      time_zone: fc.oneof(
        fc.constantFrom('America/Los_Angeles', 'Asia/Hong_Kong', 'UTC', 'utc', '+23:59'),
        fc.string(),
      ),
    },
  },
];

/** How a path parameter is chosen; resolved against the fixtures when the request is sent. */
type IdChoice =
  | { kind: 'own'; index: number }
  | { kind: 'someone-else'; index: number }
  | { kind: 'literal'; value: string; isRaw: boolean };

/** How a body is sent. */
type BodyChoice =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; contentType: string }
  | { kind: 'raw'; text: string; contentType: string | undefined }
  | { kind: 'form'; fields: [string, string][] };

/** A request before it meets the fixtures. */
type PlannedRequest = {
  caller: Caller;
  address: string;
  isHead: boolean;
  id: IdChoice | undefined;
  query: string;
  /**
   * Whether what a valid request needs beyond its shape is arranged: a token the server
   * signed on the unsubscribe routes, Twilio's signature, an existing push subscription.
   */
  isPrepared: boolean;
  body: BodyChoice;
  headers: Record<string, string>;
};

const idChoiceArbitrary: fc.Arbitrary<IdChoice> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('own' as const), index: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('someone-else' as const), index: fc.nat() }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('literal' as const),
      value: fc.oneof(
        validInputArbitrary(searchParamsSchema).map((params) => params.id),
        fc.uuid().map((uuid) => uuid.toUpperCase()),
        fc.uuid().map((uuid) => `{${uuid}}`),
        fc.uuid().map((uuid) => uuid.replaceAll('-', '')),
        fc.uuid().map((uuid) => `${uuid}\u0000`),
        fc.constantFrom(
          '00000000-0000-0000-0000-000000000000',
          'ffffffff-ffff-ffff-ffff-ffffffffffff',
          'undefined',
          'null',
          '0',
          '-1',
          '1 OR 1=1',
          "'; DROP TABLE searches; --",
          '..',
          '%',
          '__proto__',
          'constructor',
        ),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }),
        fc.integer({ min: 101, max: 6000 }).map((length) => 'a'.repeat(length)),
      ),
      isRaw: fc.constant(false),
    }),
  },
  {
    weight: 1,
    // Sent as is: broken percent-encodings and characters a client should have escaped.
    arbitrary: fc.record({
      kind: fc.constant('literal' as const),
      value: fc.constantFrom('%E0%A4%A', '%', '%zz', '%00', '%C0%AF', '..%2F..%2F', 'a b', 'ä'),
      isRaw: fc.constant(true),
    }),
  },
);

const callerArbitrary: fc.Arbitrary<Caller> = fc.oneof(
  { weight: 8, arbitrary: fc.constant('premium' as const) },
  { weight: 2, arbitrary: fc.constant('better' as const) },
  { weight: 2, arbitrary: fc.constant('good' as const) },
  { weight: 1, arbitrary: fc.constant('newcomer' as const) },
  { weight: 3, arbitrary: fc.constant('anonymous' as const) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'garbage-token' as const,
      'expired-token' as const,
      'foreign-token' as const,
      'wrong-audience' as const,
      'wrong-client' as const,
      'unsigned-token' as const,
      'basic-auth' as const,
    ),
  },
);

/** Query strings: the schema's valid values, then broken ones, then strays on any route. */
function queryArbitrary(schema: z.ZodType | undefined): fc.Arbitrary<string> {
  const stray = fc.oneof(
    fc.constant(''),
    fc.constantFrom(
      '?__proto__[polluted]=1',
      '?constructor[prototype][polluted]=1',
      '?__proto__=x&__proto__=y',
      '?a=%E0%A4%A',
      '?days=1&days=2',
      '?&&&=&=',
    ),
    fc
      .dictionary(hostileKeyArbitrary(), fc.string({ unit: 'binary', maxLength: 40 }), {
        maxKeys: 3,
      })
      .map((fields) => toQueryString(Object.entries(fields))),
  );
  if (schema === undefined) {
    return fc.oneof({ weight: 4, arbitrary: fc.constant('') }, { weight: 1, arbitrary: stray });
  }
  return fc.oneof(
    { weight: 5, arbitrary: validInputArbitrary(schema).map(toQueryStringFromObject) },
    { weight: 4, arbitrary: mutatedInputArbitrary(schema).map(toQueryStringFromObject) },
    { weight: 1, arbitrary: stray },
  );
}

function toQueryString(fields: [string, string][]): string {
  return fields.length === 0 ? '' : `?${new URLSearchParams(fields).toString()}`;
}

function toQueryStringFromObject(value: unknown): string {
  if (typeof value !== 'object' || value === null) {
    return value === undefined ? '' : `?${encodeLoosely(stringifyField(value))}`;
  }
  return toQueryString(
    Object.entries(value).flatMap(([key, field]): [string, string][] =>
      Array.isArray(field)
        ? field.map((item): [string, string] => [key, stringifyField(item)])
        : [[key, stringifyField(field)]],
    ),
  );
}

function stringifyField(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/** Flattens a value into form fields as a browser or a careless client would. */
function toFormFields(value: unknown): [string, string][] {
  if (typeof value !== 'object' || value === null) {
    return [['value', stringifyField(value)]];
  }
  return Object.entries(value).map(([key, field]): [string, string] => [
    key,
    stringifyField(field),
  ]);
}

const JSON_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/merge-patch+json',
];
const WRONG_TYPES = [
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=fuzz',
  'application/octet-stream',
  'application/x-www-form-urlencoded',
  'text/html; charset=utf-8',
  'application/jsonx',
  '',
];

/** Bodies: valid, mutated, polluted, malformed, mistyped, oversized and empty. */
function bodyArbitrary(spec: RouteSpec): fc.Arbitrary<BodyChoice> {
  const stray: fc.Arbitrary<BodyChoice> = fc.oneof(
    fc.constant({ kind: 'none' as const }),
    hostileValueArbitrary().map((value) => ({
      kind: 'json' as const,
      value,
      contentType: 'application/json',
    })),
  );
  if (spec.body === undefined) {
    return spec.method === 'GET'
      ? fc.constant({ kind: 'none' as const })
      : fc.oneof({ weight: 4, arbitrary: fc.constant({ kind: 'none' as const }) }, stray);
  }
  const options = { overrides: spec.overrides };
  const valid = validInputArbitrary(spec.body, options);
  const jsonOf = (value: fc.Arbitrary<unknown>): fc.Arbitrary<BodyChoice> =>
    fc.tuple(value, fc.constantFrom(...JSON_TYPES)).map(([body, contentType]) => ({
      kind: 'json' as const,
      value: body,
      contentType,
    }));
  const rawOf = (
    text: fc.Arbitrary<string>,
    contentType: fc.Arbitrary<string | undefined>,
  ): fc.Arbitrary<BodyChoice> =>
    fc.tuple(text, contentType).map(([body, type]) => ({
      kind: 'raw' as const,
      text: body,
      contentType: type,
    }));
  const choices: fc.WeightedArbitrary<BodyChoice>[] = [
    { weight: 8, arbitrary: jsonOf(valid) },
    { weight: 6, arbitrary: jsonOf(mutatedInputArbitrary(spec.body, options)) },
    {
      weight: 1,
      // JSON.parse keeps __proto__ as an own key: the parser and merges must not obey it.
      arbitrary: rawOf(
        fc
          .tuple(
            valid,
            fc.constantFrom(
              '"__proto__":{"polluted":true,"plan":"best"}',
              '"constructor":{"prototype":{"polluted":true}}',
              '"__proto__":null',
              '"__proto__":[]',
            ),
          )
          .map(([body, pollution]) => {
            const json = JSON.stringify(body);
            return json.startsWith('{') && json.length > 2
              ? `{${pollution},${json.slice(1)}`
              : `{${pollution}}`;
          }),
        fc.constant('application/json'),
      ),
    },
    {
      weight: 1,
      arbitrary: rawOf(
        fc.oneof(
          fc.tuple(valid, fc.nat()).map(([body, cut]) => {
            const json = JSON.stringify(body);
            return json.slice(0, cut % Math.max(1, json.length - 1));
          }),
          fc.constantFrom(
            '{',
            '}',
            '[',
            'nul',
            '{"a":}',
            "{'a':1}",
            '{"a":1,}',
            'NaN',
            '\u0000',
            '\ufeff{}',
          ),
          fc.string({ unit: 'binary', maxLength: 80 }),
        ),
        fc.constant('application/json'),
      ),
    },
    {
      weight: 1,
      arbitrary: rawOf(
        valid.map((body) => JSON.stringify(body)),
        fc.constantFrom(...WRONG_TYPES),
      ),
    },
    {
      weight: 1,
      // Over the 64 KiB body limit, and just under it.
      arbitrary: rawOf(
        fc
          .integer({ min: 60 * 1024, max: 200 * 1024 })
          .map((size) => JSON.stringify({ padding: 'x'.repeat(size) })),
        fc.constant('application/json'),
      ),
    },
    {
      weight: 1,
      arbitrary: rawOf(fc.constant(''), fc.constantFrom('application/json', undefined)),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  ];
  if (spec.isFormBody === true) {
    choices.push(
      {
        weight: 6,
        arbitrary: valid.map((body) => ({ kind: 'form' as const, fields: toFormFields(body) })),
      },
      {
        weight: 4,
        arbitrary: mutatedInputArbitrary(spec.body, options).map((body) => ({
          kind: 'form' as const,
          fields: toFormFields(body),
        })),
      },
    );
  }
  return fc.oneof(...choices);
}

/** Headers a client might add: stray forwarding headers, cache validators, odd Accepts. */
const extraHeadersArbitrary: fc.Arbitrary<Record<string, string>> = fc
  .record(
    {
      'x-forwarded-for': clientAddressArbitrary(),
      'if-none-match': fc.oneof(
        fc.constantFrom('*', '""', 'W/"x"', '"abc", W/"def"'),
        fc.string({ maxLength: 40 }),
      ),
      accept: fc.constantFrom('text/html', 'application/json', '*/*', 'text/html;q=0.1, */*'),
      origin: fc.constantFrom('http://localhost:3000', 'https://evil.example', 'null'),
    },
    { requiredKeys: [] },
  )
  .map((headers) => Object.fromEntries(Object.entries(headers)));

function plannedRequestArbitrary(spec: RouteSpec): fc.Arbitrary<PlannedRequest> {
  return fc.record({
    caller: callerArbitrary,
    address: clientAddressArbitrary(),
    isHead:
      spec.method === 'GET'
        ? fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, fc.constant(true))
        : fc.constant(false),
    id: spec.params === undefined ? fc.constant(undefined) : idChoiceArbitrary,
    query: queryArbitrary(spec.query),
    isPrepared: fc.boolean(),
    body: bodyArbitrary(spec),
    headers: fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, extraHeadersArbitrary),
  });
}

/** Parses `fastify.printRoutes({ commonPrefix: false })` into "METHOD /path" entries. */
function listRoutes(tree: string): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (match === null) {
      continue;
    }
    const depth = match[1].length / 4;
    stack.length = depth;
    stack.push(match[2]);
    for (const method of (match[3] ?? '').split(',').map((name) => name.trim())) {
      if (method !== '') {
        routes.push(`${method} ${stack.join('')}`);
      }
    }
  }
  return routes;
}

describe('fuzzing every /v2 route with valid and invalid requests', () => {
  let api: ApiHarness;
  const users = new Map<Caller, TestUser>();
  const tokens = new Map<Caller, string>();
  /** The premium user's searches, kept between 2 and 8 so creates and deletes both succeed. */
  let ownSearchIds: string[] = [];
  let otherSearchIds: string[] = [];
  /** The premium user's alert channels (kept at one or more) and another user's one. */
  let ownChannelIds: string[] = [];
  let otherChannelIds: string[] = [];
  let unsubscribeKey: Buffer;
  const tally = new RequestTally();

  const createSearch = async (as: TestUser): Promise<string> => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/v2/searches',
      headers: { authorization: `Bearer ${as.token}` },
      payload: { product_type: 'iphone16pro', store_id: 'R095' },
    });
    tally.add('fixture');
    expect(response.statusCode, response.body).toBe(201);
    return searchSchema.parse(response.json()).id;
  };

  /** Keeps the premium user's searches within bounds before each request. */
  const tendSearches = async (): Promise<void> => {
    const premium = users.get('premium');
    if (premium === undefined) {
      throw new Error('fixtures missing');
    }
    while (ownSearchIds.length < 2) {
      ownSearchIds.push(await createSearch(premium));
    }
    while (ownSearchIds.length > 8) {
      const id = ownSearchIds.shift() ?? '';
      await api.app.inject({
        method: 'DELETE',
        url: `/v2/searches/${id}`,
        headers: { authorization: `Bearer ${premium.token}` },
      });
      tally.add('fixture');
    }
  };

  const authorizationFor = async (caller: Caller): Promise<string | undefined> => {
    const user = users.get(caller);
    if (user !== undefined) {
      return `Bearer ${user.token}`;
    }
    if (caller === 'newcomer') {
      // A subject seen for the first time: the user is created by this very request.
      const subject = `newcomer-${Math.random().toString(36).slice(2)}`;
      return `Bearer ${await api.idp.issueAccessToken({ subject, email: `${subject}@example.com` })}`;
    }
    const token = tokens.get(caller);
    return token === undefined ? undefined : caller === 'basic-auth' ? token : `Bearer ${token}`;
  };

  /** Creates a webhook channel for `as` straight through the service (no DNS: development policy). */
  const createChannelFor = async (as: TestUser): Promise<string> => {
    const created = await createChannel(
      api.testDb.db,
      as.user,
      { kind: 'webhook', url: 'https://hooks.fuzz.invalid/in' },
      { allowPrivateTargets: true },
    );
    tally.add('fixture');
    return created.id;
  };

  /** Keeps the premium user with at least one channel, so deletes and tests can succeed. */
  const tendChannels = async (): Promise<void> => {
    const premium = users.get('premium');
    if (premium === undefined) {
      throw new Error('fixtures missing');
    }
    ownChannelIds = (await listChannels(api.testDb.db, premium.user)).map((channel) => channel.id);
    if (ownChannelIds.length === 0) {
      ownChannelIds = [await createChannelFor(premium)];
    }
  };

  const resolveId = (choice: IdChoice, isChannel: boolean): string => {
    if (choice.kind === 'own') {
      const ids = isChannel ? ownChannelIds : ownSearchIds;
      return ids[choice.index % ids.length];
    }
    if (choice.kind === 'someone-else') {
      const ids = isChannel ? otherChannelIds : otherSearchIds;
      return ids[choice.index % ids.length];
    }
    return choice.isRaw ? choice.value : encodeLoosely(choice.value);
  };

  /** Unsubscribe tokens are signed: mint real ones so valid requests get past the signature. */
  const signQuery = (spec: RouteSpec, planned: PlannedRequest): string => {
    if (spec.query !== unsubscribeQuerySchema || !planned.isPrepared) {
      return planned.query;
    }
    const searchId = ownSearchIds[0] ?? otherSearchIds[0];
    return `?token=${encodeURIComponent(signUnsubscribeToken(unsubscribeKey, searchId))}`;
  };

  /** Saves a push subscription for the endpoint a DELETE is about to name, so it can succeed. */
  const subscribeEndpoint = async (
    authorization: string | undefined,
    body: BodyChoice,
  ): Promise<void> => {
    const endpoint =
      body.kind === 'json' && typeof body.value === 'object' && body.value !== null
        ? (body.value as { endpoint?: unknown }).endpoint
        : undefined;
    if (authorization === undefined || typeof endpoint !== 'string') {
      return;
    }
    await api.app.inject({
      method: 'POST',
      url: '/v2/notifications/push/subscriptions',
      headers: { authorization },
      payload: {
        endpoint,
        keys: {
          p256dh: base64Url(new Uint8Array(65).fill(4)),
          auth: base64Url(new Uint8Array(16)),
        },
      },
    });
    tally.add('fixture');
  };

  const buildInjectOptions = async (
    spec: RouteSpec,
    planned: PlannedRequest,
  ): Promise<InjectOptions & { url: string }> => {
    const isChannel = spec.params === channelParamsSchema;
    if (isChannel) {
      await tendChannels();
    }
    const path = spec.url.replace(
      ':id',
      planned.id === undefined ? '' : resolveId(planned.id, isChannel),
    );
    const headers: Record<string, string> = { ...planned.headers };
    // Deleting an account is for good: the fixture users must outlive it, so a fresh one goes.
    const isAccountDeletion = spec.method === 'DELETE' && spec.url === '/v2/account';
    const authorization = await authorizationFor(
      isAccountDeletion && users.has(planned.caller) ? 'newcomer' : planned.caller,
    );
    if (authorization !== undefined) {
      headers.authorization = authorization;
    }
    let payload: string | undefined;
    const { body } = planned;
    if (body.kind === 'json') {
      payload = JSON.stringify(body.value) ?? 'null';
      headers['content-type'] = body.contentType;
    } else if (body.kind === 'raw') {
      payload = body.text;
      if (body.contentType !== undefined) {
        headers['content-type'] = body.contentType;
      }
    } else if (body.kind === 'form') {
      payload = new URLSearchParams(body.fields).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const url = `${path}${signQuery(spec, planned)}`;
    if (planned.isPrepared && body.kind === 'form' && spec.body === twilioInboundSchema) {
      headers['x-twilio-signature'] = twilio.getExpectedTwilioSignature(
        TWILIO_AUTH_TOKEN,
        `${PUBLIC_URL}${url}`,
        Object.fromEntries(body.fields),
      );
    }
    if (planned.isPrepared && spec.body === pushSubscriptionDeleteSchema) {
      await subscribeEndpoint(headers.authorization, body);
    }
    return {
      method: planned.isHead ? 'HEAD' : spec.method,
      url,
      headers,
      remoteAddress: planned.address,
      ...(payload === undefined ? {} : { payload }),
    };
  };

  /** Everything wrong with one answer, or undefined. */
  const judge = (
    spec: RouteSpec,
    planned: PlannedRequest,
    request: InjectOptions & { url: string },
    response: LightMyRequestResponse,
  ): string | undefined => {
    const status = response.statusCode;
    const contentType = String(response.headers['content-type'] ?? '');
    const body = response.body;
    const where = `${String(request.method)} ${request.url.slice(0, 200)} as ${planned.caller} → ${status}`;
    const leak = findInternalsLeak(
      body,
      `${request.url} ${typeof request.payload === 'string' ? request.payload : ''}`,
    );
    if (leak !== undefined) {
      return `${where}: the body reveals server internals (${leak}): ${body.slice(0, 500)}`;
    }
    if (status >= 500) {
      const expectedCode = spec.expectedServerErrors?.[status];
      const problem = checkErrorBody(body);
      if (
        expectedCode === undefined ||
        problem !== undefined ||
        !body.includes(`"${expectedCode}"`)
      ) {
        return `${where}: server error ${body.slice(0, 500)}`;
      }
      return undefined;
    }
    const isRefused =
      (spec.access !== 'public' && REFUSED_CALLERS.has(planned.caller)) ||
      (spec.access === 'paid-plan' && planned.caller === 'good');
    if (isRefused && status < 300) {
      return `${where}: answered ${status} to a caller it must refuse`;
    }
    if (planned.caller === 'premium' && planned.id?.kind === 'someone-else' && status < 300) {
      return `${where}: answered ${status} about another user's search`;
    }
    if (request.method === 'HEAD') {
      return body === '' ? undefined : `${where}: HEAD answered with a body`;
    }
    if (status >= 200 && status < 300) {
      if (!(status in spec.success)) {
        return `${where}: a success status the contract does not name: ${body.slice(0, 300)}`;
      }
      const schema = spec.success[status];
      if (schema === null) {
        if (spec.successContentType !== undefined) {
          return spec.successContentType.test(contentType)
            ? undefined
            : `${where}: content type ${contentType}`;
        }
        return body === ''
          ? undefined
          : `${where}: a body where none belongs: ${body.slice(0, 200)}`;
      }
      if (spec.isHtmlAnswered === true && contentType.startsWith('text/html')) {
        return undefined;
      }
      if (!isJsonContentType(contentType)) {
        return `${where}: success answered as ${contentType}: ${body.slice(0, 200)}`;
      }
      const problem = checkSuccessBody(body, schema);
      return problem === undefined ? undefined : `${where}: ${problem}`;
    }
    if (status === 304) {
      return request.method === 'GET' && body === ''
        ? undefined
        : `${where}: 304 to a request that cannot be cached`;
    }
    if (status >= 400) {
      if (spec.isHtmlAnswered === true && contentType.startsWith('text/html')) {
        return undefined;
      }
      if (!isJsonContentType(contentType)) {
        return `${where}: error answered as ${contentType}: ${body.slice(0, 200)}`;
      }
      const problem = checkErrorBody(body);
      return problem === undefined ? undefined : `${where}: ${problem}`;
    }
    return `${where}: unexpected status`;
  };

  /** Keeps the fixtures in step with what a successful write did. */
  const followWrites = (
    spec: RouteSpec,
    planned: PlannedRequest,
    request: { url: string },
    response: LightMyRequestResponse,
  ): void => {
    if (planned.caller !== 'premium') {
      return;
    }
    if (spec.url === '/v2/searches' && response.statusCode === 201) {
      ownSearchIds.push(searchSchema.parse(response.json()).id);
    }
    if (
      spec.url === '/v2/searches/:id' &&
      spec.method === 'DELETE' &&
      response.statusCode === 204
    ) {
      const id = request.url.split('/')[3]?.split('?')[0];
      ownSearchIds = ownSearchIds.filter((own) => own !== id);
    }
  };

  beforeAll(async () => {
    api = await startApiHarness({
      notify: { publicUrl: PUBLIC_URL, twilioAuthToken: TWILIO_AUTH_TOKEN },
    });
    users.set('premium', await api.createUser('fuzz-premium', 'best'));
    users.set('better', await api.createUser('fuzz-better', 'better'));
    users.set('good', await api.createUser('fuzz-good', 'good'));
    const better = users.get('better');
    if (better === undefined) {
      throw new Error('fixtures missing');
    }
    otherSearchIds = [await createSearch(better)];
    otherChannelIds = [await createChannelFor(better)];
    unsubscribeKey = (await loadOrCreateNotifySecrets(api.testDb.db)).unsubscribeKey;
    const idp = api.idp;
    const encode = (value: object): string =>
      Buffer.from(JSON.stringify(value)).toString('base64url');
    tokens.set('garbage-token', 'not.a.jwt');
    tokens.set(
      'expired-token',
      await idp.issueAccessToken({ subject: 'subject-fuzz-premium', expiresInSeconds: -3600 }),
    );
    tokens.set(
      'foreign-token',
      await idp.issueForeignToken({ subject: 'subject-fuzz-premium', issuer: idp.issuer }),
    );
    tokens.set(
      'wrong-audience',
      await idp.issueAccessToken({
        subject: 'subject-fuzz-premium',
        audience: 'https://elsewhere.example/',
      }),
    );
    tokens.set(
      'wrong-client',
      await idp.issueAccessToken({ subject: 'subject-fuzz-premium', clientId: 'another-app' }),
    );
    tokens.set(
      'unsigned-token',
      `${encode({ alg: 'none' })}.${encode({ iss: idp.issuer, aud: idp.audience, sub: 'subject-fuzz-premium', exp: Math.floor(Date.now() / 1000) + 600, client_id: idp.clientId })}.`,
    );
    tokens.set(
      'basic-auth',
      `Basic ${Buffer.from('fuzz@example.com:password').toString('base64')}`,
    );
  });
  afterAll(async () => {
    await api?.close();
  });

  it('has a fuzz description for every /v2 route the app serves', () => {
    const served = listRoutes(api.app.printRoutes({ commonPrefix: false }))
      .filter(
        (route) =>
          route.includes(' /v2/') && !route.startsWith('HEAD ') && !route.startsWith('OPTIONS '),
      )
      .sort();
    const described = ROUTES.map((spec) => `${spec.method} ${spec.url}`).sort();
    expect(described).toEqual(served);
  });

  it.each(ROUTES.map((spec, index) => ({ spec, index, name: `${spec.method} ${spec.url}` })))(
    'answers $name without a 5xx, a body outside its schema or a stack trace',
    async ({ spec, index }) => {
      await runFuzz(
        `${spec.method} ${spec.url}`,
        plannedRequestArbitrary(spec),
        async (planned) => {
          await tendSearches();
          const request = await buildInjectOptions(spec, planned);
          const response = await api.app.inject(request);
          tally.add(`${spec.method} ${spec.url}`);
          if (response.statusCode === 429) {
            tally.add('rate-limited');
          }
          const isSuccess =
            response.statusCode < 300 ||
            spec.expectedServerErrors?.[response.statusCode] !== undefined;
          if (isSuccess) {
            tally.add(`${spec.method} ${spec.url} succeeded`);
          }
          const problem = judge(spec, planned, request, response);
          if (problem !== undefined) {
            throw new Error(problem);
          }
          followWrites(spec, planned, request, response);
        },
        { numRuns: RUNS_PER_ROUTE, seedOffset: index },
      );
    },
    120_000,
  );

  it('answers unknown /v2 paths and methods with the error shape', async () => {
    const segment = fc
      .oneof(
        // No dot segments: the URL is normalised before it is sent, so they would name real routes.
        fc.constantFrom('searches', 'account', 'v2', '__proto__', 'products.json', '%00', '%ff'),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map(encodeLoosely),
      )
      .filter((segment) => !/^(?:\.|%2e){1,2}$/i.test(segment));
    await runFuzz(
      'unknown routes',
      fc.record({
        method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
        segments: fc.array(segment, { minLength: 1, maxLength: 4 }),
        address: clientAddressArbitrary(),
        isSignedIn: fc.boolean(),
      }),
      async ({ method, segments, address, isSignedIn }) => {
        const url = `/v2/x-${segments.join('/')}`;
        const premium = users.get('premium');
        const response = await api.app.inject({
          method: method as InjectOptions['method'],
          url,
          remoteAddress: address,
          headers:
            isSignedIn && premium !== undefined ? { authorization: `Bearer ${premium.token}` } : {},
        });
        tally.add('unknown');
        const leak = findInternalsLeak(response.body, url);
        if (response.statusCode >= 500 || leak !== undefined) {
          throw new Error(
            `${method} ${url} → ${response.statusCode}: ${response.body.slice(0, 300)}`,
          );
        }
        if (method !== 'HEAD' && method !== 'OPTIONS') {
          const problem = checkErrorBody(response.body);
          // 404, or 400 for a path that cannot be decoded.
          if (![400, 404].includes(response.statusCode) || problem !== undefined) {
            throw new Error(
              `${method} ${url} → ${response.statusCode}: ${problem ?? response.body}`,
            );
          }
        }
      },
      { numRuns: 300, seedOffset: ROUTES.length },
    );
  }, 60_000);

  it(`sent at least ${MINIMUM_REQUESTS} requests, most of them past the rate limits and some all the way through`, () => {
    expect(tally.total()).toBeGreaterThanOrEqual(MINIMUM_REQUESTS);
    // A fuzzer stopped at the door by a 429 tests nothing behind it.
    expect(tally.count('rate-limited')).toBeLessThan(tally.total() * 0.02);
    for (const spec of ROUTES) {
      expect(
        tally.count(`${spec.method} ${spec.url}`),
        `${spec.method} ${spec.url}`,
      ).toBeGreaterThanOrEqual(RUNS_PER_ROUTE);
      expect(
        tally.count(`${spec.method} ${spec.url} succeeded`),
        `successful answers of ${spec.method} ${spec.url}`,
      ).toBeGreaterThanOrEqual(RUNS_PER_ROUTE * MINIMUM_SUCCESS_SHARE);
    }
  });
});
