import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiHarness, type ApiHarness } from '#tests/helpers/api-harness.ts';

const NIGHT = {
  enabled: true,
  start: '22:30',
  end: '07:00',
  time_zone: 'Europe/Paris',
  always_for_preferred_at_my_store: true,
};

describe('PATCH /v2/account/quiet-hours', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiHarness();
  });
  afterAll(async () => api.close());

  it('saves quiet hours and answers them with the account, and GET reads them back', async () => {
    const ann = await api.createUser('ann', 'better');
    const saved = await api.call({
      method: 'PATCH',
      url: '/v2/account/quiet-hours',
      as: ann,
      body: NIGHT,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ email: 'ann@example.com', quiet_hours: NIGHT });
    const read = await api.call({ method: 'GET', url: '/v2/account', as: ann });
    expect(read.json()).toMatchObject({ quiet_hours: NIGHT });

    // Switched off, the window is remembered for next time.
    const off = await api.call({
      method: 'PATCH',
      url: '/v2/account/quiet-hours',
      as: ann,
      body: { ...NIGHT, enabled: false },
    });
    expect(off.json()).toMatchObject({ quiet_hours: { ...NIGHT, enabled: false } });
  });

  it('refuses a bad time, an unknown time zone or an empty window with 400 naming the field', async () => {
    const ben = await api.createUser('ben', 'best');
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ ...NIGHT, start: '25:00' }, 'start', /HH:MM/],
      [{ ...NIGHT, end: '7pm' }, 'end', /HH:MM/],
      [{ ...NIGHT, time_zone: 'Mars/Olympus' }, 'time_zone', /time zone/],
      [{ ...NIGHT, end: NIGHT.start }, 'end', /differ from the start/],
      [{ ...NIGHT, enabled: 'yes' }, 'enabled', /./],
    ];
    for (const [body, field, message] of cases) {
      const response = await api.call({
        method: 'PATCH',
        url: '/v2/account/quiet-hours',
        as: ben,
        body,
      });
      expect(response.statusCode, field).toBe(400);
      const error = response.json<{ field: string; message: string }>();
      expect(error.field).toBe(field);
      expect(error.message).toMatch(message);
    }
    const unchanged = await api.call({ method: 'GET', url: '/v2/account', as: ben });
    expect(unchanged.json()).toMatchObject({ quiet_hours: { enabled: false } });
  });

  it('answers 401 without a token', async () => {
    const response = await api.call({
      method: 'PATCH',
      url: '/v2/account/quiet-hours',
      body: NIGHT,
    });
    expect(response.statusCode).toBe(401);
  });
});
