import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '#shared/api/errors.ts';
import { isCanonicalTimeZone, listTimeZones } from '#shared/domain/quiet-hours.ts';
import { DEFAULT_RATE_LIMITS } from '#server/config/rate-limits.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';
import { startWebhookSink, type StandIn } from '#tests/helpers/channel-stand-ins.ts';

// Issue 43, item 8: an ntfy token with CR/LF, non-canonical time zones, and the 401 limit.

describe('the smaller items of the probe', () => {
  let api: ApiHarness;
  let limited: ApiHarness['app'];
  let sink: StandIn;
  let owner: TestUser;

  beforeAll(async () => {
    sink = await startWebhookSink();
    api = await startApiHarness({
      channels: {
        settings: { allowPrivateTargets: true, telegramApiBaseUrl: sink.url, timeoutMs: 5_000 },
        storePageBaseUrl: 'https://www.apple.com/retail/',
      },
    });
    limited = await api.buildVariant({ rateLimits: DEFAULT_RATE_LIMITS });
    owner = await api.createUser('small', 'best');
  });
  afterAll(async () => {
    await limited.close();
    await api.close();
    await sink.close();
  });

  it('refuses an ntfy token with a CR or LF when the channel is added, naming the field', async () => {
    for (const token of ['tk_probe\r\nX-Injected: 1', 'tk_pro\nbe', 'tk_pro\rbe', 'tk probe']) {
      const response = await api.call({
        method: 'POST',
        url: '/v2/account/channels',
        as: owner,
        body: { kind: 'ntfy', server_url: sink.url, topic: 'probe', token },
      });
      expect(response.statusCode, JSON.stringify(token)).toBe(400);
      const error = errorBodySchema.parse(response.json());
      expect(error.field).toBe('token');
      expect(error.message).toMatch(/^token: An access token is one line/);
    }
    // A token pasted with its line break at the end is the token.
    const pasted = await api.call({
      method: 'POST',
      url: '/v2/account/channels',
      as: owner,
      body: { kind: 'ntfy', server_url: sink.url, topic: 'probe', token: 'tk_probe123\r\n' },
    });
    expect(pasted.statusCode, pasted.body).toBe(201);
  });

  it('refuses time zones not written as the time-zone database writes them, with a clear 400', async () => {
    const night = {
      enabled: true,
      start: '22:00',
      end: '07:00',
      always_for_preferred_at_my_store: false,
    };
    for (const timeZone of ['utc', '+23:59', '-05:00', 'europe/paris', 'AMERICA/NEW_YORK', 'Utc']) {
      const response = await api.call({
        method: 'PATCH',
        url: '/v2/account/quiet-hours',
        as: owner,
        body: { ...night, time_zone: timeZone },
      });
      expect(response.statusCode, timeZone).toBe(400);
      const error = errorBodySchema.parse(response.json());
      expect(error.field, timeZone).toBe('time_zone');
      expect(error.message).toMatch(/^time_zone: Choose a time zone from the list/);
    }
    for (const timeZone of ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata']) {
      const response = await api.call({
        method: 'PATCH',
        url: '/v2/account/quiet-hours',
        as: owner,
        body: { ...night, time_zone: timeZone },
      });
      expect(response.statusCode, timeZone).toBe(200);
    }
  });

  it('offers only zones it accepts in the picker', () => {
    const refused = listTimeZones().filter((zone) => !isCanonicalTimeZone(zone));
    expect(refused).toEqual([]);
  });

  it('counts failed authentications per address but never refuses a valid token from it', async () => {
    const readAccount = (token: string | undefined): Promise<LightMyRequestResponse> =>
      limited.inject({
        method: 'GET',
        url: '/v2/account',
        remoteAddress: '198.51.100.43',
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      });
    const forged = await api.idp.issueForeignToken({ subject: 'probe' });
    const limit = DEFAULT_RATE_LIMITS.authFailuresPerAddressPerMinute;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < limit + 10; attempt += 1) {
      statuses.push((await readAccount(`${forged}${attempt}`)).statusCode);
    }
    expect(statuses.slice(0, limit).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(limit).every((status) => status === 429)).toBe(true);
    const noToken = await readAccount(undefined);
    expect(noToken.statusCode).toBe(429);
    expect(noToken.headers['retry-after']).toMatch(/^\d+$/);
    // The address is over its limit, yet its valid tokens are served, again and again.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const served = await readAccount(owner.token);
      expect(served.statusCode).toBe(200);
      expect(served.json()).toMatchObject({ email: owner.user.email });
    }
    expect((await readAccount(`${forged}-after`)).statusCode).toBe(429);
  });
});
