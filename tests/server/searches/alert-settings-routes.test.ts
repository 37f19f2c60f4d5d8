import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountSchema } from '#shared/api/account.ts';
import { searchSchema } from '#shared/api/searches.ts';
import { startApiHarness, type ApiHarness } from '#tests/helpers/api-harness.ts';

// Issue 42's settings over HTTP: a search's cadence and distance default, the account's time zone.

describe('alert settings over the API', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiHarness();
  });
  afterAll(async () => api.close());

  it('gives a new search abroad 50 km, takes a cadence, and refuses a bad one naming the field', async () => {
    const dana = await api.createUser('dana', 'best');
    const created = await api.call({
      method: 'POST',
      url: '/v2/searches',
      as: dana,
      body: { product_type: 'iphone16pro', store_id: 'R238' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const search = searchSchema.parse(created.json());
    expect(search.distance_unit).toBe('km');
    expect((search.max_distance_miles ?? 0) * 1.609344).toBeCloseTo(50, 6);

    const hourly = await api.call({
      method: 'PATCH',
      url: `/v2/searches/${search.id}`,
      as: dana,
      body: { ...search, alert_cadence_minutes: 60 },
    });
    expect(hourly.statusCode).toBe(200);
    expect(hourly.json()).toMatchObject({ alert_cadence_minutes: 60 });

    for (const value of [-1, 1441, 2.5, '15']) {
      const bad = await api.call({
        method: 'PATCH',
        url: `/v2/searches/${search.id}`,
        as: dana,
        body: { ...search, alert_cadence_minutes: value },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ field: 'alert_cadence_minutes' });
    }
    // Another user's search answers 404, whatever the body.
    const erin = await api.createUser('erin', 'best');
    const foreign = await api.call({
      method: 'PATCH',
      url: `/v2/searches/${search.id}`,
      as: erin,
      body: { ...search, alert_cadence_minutes: 0 },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('sets the account’s time zone and refuses one Intl does not know, naming the field', async () => {
    const fay = await api.createUser('fay', 'better');
    const saved = await api.call({
      method: 'PATCH',
      url: '/v2/account/time-zone',
      as: fay,
      body: { time_zone: 'Europe/Paris' },
    });
    expect(saved.statusCode).toBe(200);
    expect(accountSchema.parse(saved.json()).time_zone).toBe('Europe/Paris');
    for (const value of ['+02:00', 'Mars/Olympus', '']) {
      const bad = await api.call({
        method: 'PATCH',
        url: '/v2/account/time-zone',
        as: fay,
        body: { time_zone: value },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ field: 'time_zone' });
    }
    const read = await api.call({ method: 'GET', url: '/v2/account', as: fay });
    expect(accountSchema.parse(read.json()).time_zone).toBe('Europe/Paris');
  });
});
