import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CHANNEL_TEST_LIMITS,
  channelCreatedSchema,
  channelTestResultSchema,
} from '#shared/api/channels.ts';
import { errorBodySchema } from '#shared/api/errors.ts';
import { DEFAULT_RATE_LIMITS } from '#server/config/rate-limits.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';
import { startWebhookSink, type StandIn } from '#tests/helpers/channel-stand-ins.ts';
import { PROBE_TEST_CALLS } from './probe-inputs.ts';

// Issue 43, item 2: tests of a channel are limited per channel and per account, and their
// answer says whether the message was delivered, never the receiver's status code.

describe('POST /v2/account/channels/{id}/test', () => {
  let api: ApiHarness;
  let sink: StandIn;

  beforeAll(async () => {
    sink = await startWebhookSink();
    api = await startApiHarness({
      // The general limits out of the way; the tests' own at their defaults.
      rateLimits: {
        perUserPerMinute: 100_000,
        userWritesPerMinute: 100_000,
        channelTestsPerChannelPerMinute: DEFAULT_RATE_LIMITS.channelTestsPerChannelPerMinute,
        channelTestsPerUserPerHour: DEFAULT_RATE_LIMITS.channelTestsPerUserPerHour,
      },
      channels: {
        settings: { allowPrivateTargets: true, telegramApiBaseUrl: sink.url, timeoutMs: 5_000 },
        storePageBaseUrl: 'https://www.apple.com/retail/',
      },
    });
  });
  afterAll(async () => {
    await api.close();
    await sink.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function addWebhook(as: TestUser, path: string): Promise<string> {
    const response = await api.call({
      method: 'POST',
      url: '/v2/account/channels',
      as,
      body: { kind: 'webhook', url: `${sink.url}${path}` },
    });
    expect(response.statusCode, response.body).toBe(201);
    return channelCreatedSchema.parse(response.json()).id;
  }

  const testChannel = (as: TestUser, id: string) =>
    api.call({ method: 'POST', url: `/v2/account/channels/${id}/test`, as });

  const countSent = (path: string): number =>
    sink.requests.filter((request) => request.path === path).length;

  it(`sends ${CHANNEL_TEST_LIMITS.perChannelPerMinute} of ${PROBE_TEST_CALLS} test calls in a row and answers the rest 429 with Retry-After`, async () => {
    const owner = await api.createUser('burst', 'best');
    const id = await addWebhook(owner, '/burst');
    const answers = [];
    for (let call = 0; call < PROBE_TEST_CALLS; call += 1)
      answers.push(await testChannel(owner, id));

    const allowed = CHANNEL_TEST_LIMITS.perChannelPerMinute;
    expect(answers.slice(0, allowed).map((answer) => answer.statusCode)).toEqual(
      Array<number>(allowed).fill(200),
    );
    for (const refused of answers.slice(allowed)) {
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(errorBodySchema.parse(refused.json()).code).toBe('rate_limited');
    }
    expect(errorBodySchema.parse(answers.at(-1)?.json()).reason).toMatch(
      /5 times a minute\. Try again in \d+ s\./,
    );
    expect(countSent('/burst')).toBe(allowed);

    // The minute over, the channel may be tested again.
    vi.useFakeTimers({ now: Date.now() + 61_000, toFake: ['Date'] });
    expect((await testChannel(owner, id)).statusCode).toBe(200);
    expect(countSent('/burst')).toBe(allowed + 1);
  });

  it(`allows ${CHANNEL_TEST_LIMITS.perUserPerHour} tests an hour per account across its channels`, async () => {
    const owner = await api.createUser('hourly', 'best');
    const perChannel = CHANNEL_TEST_LIMITS.perChannelPerMinute;
    const channelCount = CHANNEL_TEST_LIMITS.perUserPerHour / perChannel + 1;
    const ids: string[] = [];
    for (let index = 0; index < channelCount; index += 1) {
      ids.push(await addWebhook(owner, `/hourly-${index}`));
    }
    const statuses: number[] = [];
    for (const id of ids) {
      for (let call = 0; call < perChannel; call += 1) {
        statuses.push((await testChannel(owner, id)).statusCode);
      }
    }
    const allowed = CHANNEL_TEST_LIMITS.perUserPerHour;
    expect(statuses.filter((status) => status === 200)).toHaveLength(allowed);
    expect(statuses.slice(allowed).every((status) => status === 429)).toBe(true);
    // A channel not tested yet is refused too, until the hour is over.
    const refused = await testChannel(owner, await addWebhook(owner, '/hourly-fresh'));
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
    expect(errorBodySchema.parse(refused.json()).reason).toMatch(/20 test messages an hour/);
    const sent = ids.reduce((sum, _id, index) => sum + countSent(`/hourly-${index}`), 0);
    expect(sent + countSent('/hourly-fresh')).toBe(allowed);

    // Another account keeps its own budget.
    const other = await api.createUser('neighbour', 'best');
    expect((await testChannel(other, await addWebhook(other, '/neighbour'))).statusCode).toBe(200);

    vi.useFakeTimers({ now: Date.now() + 3_601_000, toFake: ['Date'] });
    expect((await testChannel(owner, ids.at(-1) ?? '')).statusCode).toBe(200);
  });

  it('answers delivered or not, never the receiver’s status code', async () => {
    const owner = await api.createUser('status', 'best');
    const id = await addWebhook(owner, '/status');
    const delivered = await testChannel(owner, id);
    expect(delivered.json()).toEqual({ delivered: true, message: 'Test message sent.' });

    for (const status of [401, 404, 418, 503]) {
      sink.failNext(status, { error: `secret-${status}` });
      const refused = await testChannel(owner, id);
      expect(refused.statusCode).toBe(200);
      const result = channelTestResultSchema.strict().parse(refused.json());
      expect(result.delivered).toBe(false);
      expect(result.message).toBe('Not delivered: the webhook did not accept the message.');
      expect(refused.body).not.toContain(String(status));
      expect(refused.body).not.toContain('secret');
    }
  });

  it('answers 404 for another account’s channel without counting it against that channel', async () => {
    const owner = await api.createUser('owner', 'best');
    const stranger = await api.createUser('stranger', 'best');
    const id = await addWebhook(owner, '/owned');
    for (let call = 0; call < CHANNEL_TEST_LIMITS.perChannelPerMinute + 1; call += 1) {
      expect((await testChannel(stranger, id)).statusCode).toBe(404);
    }
    expect((await testChannel(owner, id)).statusCode).toBe(200);
    expect(countSent('/owned')).toBe(1);
  });
});
