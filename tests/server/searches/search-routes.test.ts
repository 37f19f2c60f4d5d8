import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  searchInventorySchema,
  searchListSchema,
  searchSchema,
  type Search,
} from '#shared/api/index.ts';
import {
  upsertNeighbours,
  upsertSnapshots,
} from '#server/db/repositories/availability-repository.ts';
import { updateUserPlan } from '#server/db/repositories/users-repository.ts';
import { compileResponseSerializer } from '#server/http/json-serializer.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('/v2/searches', () => {
  let api: ApiHarness;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    api = await startApiHarness();
    alice = await api.createUser('alice', 'best');
    bob = await api.createUser('bob', 'best');
  });
  afterAll(async () => api.close());

  async function createSearch(
    as: TestUser,
    body: Record<string, unknown> = { product_type: 'iphone16pro', store_id: 'R095' },
  ): Promise<Search> {
    const response = await api.call({ method: 'POST', url: '/v2/searches', as, body });
    expect(response.statusCode, response.body).toBe(201);
    return searchSchema.parse(response.json());
  }

  it('creates a search with the store and product names and every model of the type', async () => {
    const search = await createSearch(alice);
    expect(search).toMatchObject({
      search_id: search.id,
      product_type: 'iphone16pro',
      product_name: 'iPhone 16 Pro',
      store_id: 'R095',
      store_name: 'Fifth Avenue',
      store_city: 'New York',
      store_state: 'NY',
      include_nearby_store_results: true,
      send_email_updates: true,
      send_text_updates: false,
      stores_with_inventory: 0,
    });
    expect(search.product_models.length).toBeGreaterThanOrEqual(12);
    expect(search.product_models.every((model) => !model.is_preferred)).toBe(true);
  });

  it('lists only the caller’s own searches', async () => {
    await createSearch(bob, { product_type: 'iphone16', store_id: 'R075' });
    const list = searchListSchema.parse(
      (await api.call({ method: 'GET', url: '/v2/searches/my_searches', as: bob })).json(),
    );
    expect(list.map((search) => search.product_type)).toEqual(['iphone16']);
  });

  it('writes the list exactly as the schema’s serializer would: its fields, in its order', async () => {
    const search = await createSearch(bob, { product_type: 'iphone16promax', store_id: 'R095' });
    const patched = await api.call({
      method: 'PATCH',
      url: `/v2/searches/${search.id}`,
      as: bob,
      body: {
        ...search,
        max_distance_miles: 12.5,
        product_models: search.product_models.map((model, index) => ({
          ...model,
          is_preferred: index === 1,
        })),
      },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const response = await api.call({ method: 'GET', url: '/v2/searches/my_searches', as: bob });
    const list = searchListSchema.parse(response.json());
    expect(list.some((listed) => listed.product_models.some((model) => model.is_preferred))).toBe(
      true,
    );
    expect(response.body).toBe(compileResponseSerializer(searchListSchema)(list));
  });

  /** Texts need a number to go to: gives the user one. */
  async function setPhoneNumber(as: TestUser, phoneNumber: string | null): Promise<void> {
    const account = (await api.call({ method: 'GET', url: '/v2/account', as })).json<{
      email: string;
      enable_notifications: boolean;
    }>();
    const response = await api.call({
      method: 'PATCH',
      url: '/v2/account',
      as,
      body: {
        email: account.email,
        enable_notifications: account.enable_notifications,
        phone_number: phoneNumber,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  it('refuses text updates without a phone number, naming send_text_updates', async () => {
    const carol = await api.createUser('carol-no-phone', 'best');
    const search = await createSearch(carol);
    const patch = await api.call({
      method: 'PATCH',
      url: `/v2/searches/${search.id}`,
      as: carol,
      body: { ...search, send_text_updates: true },
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.json()).toMatchObject({
      code: 'invalid_input',
      field: 'send_text_updates',
      reason: 'Add a phone number in My Account before turning on text updates.',
    });
    const created = await api.call({
      method: 'POST',
      url: '/v2/searches',
      as: carol,
      body: { product_type: 'iphone16', store_id: 'R095', send_text_updates: true },
    });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toMatchObject({ field: 'send_text_updates' });
    await setPhoneNumber(carol, '+14155550123');
    const allowed = await api.call({
      method: 'PATCH',
      url: `/v2/searches/${search.id}`,
      as: carol,
      body: { ...search, send_text_updates: true },
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
    // A search that already texts stays editable after the number is removed.
    await setPhoneNumber(carol, null);
    const edited = await api.call({
      method: 'PATCH',
      url: `/v2/searches/${search.id}`,
      as: carol,
      body: { ...searchSchema.parse(allowed.json()), include_nearby_store_results: false },
    });
    expect(edited.statusCode, edited.body).toBe(200);
  });

  it('saves the full settings and preferred models on PATCH', async () => {
    await setPhoneNumber(alice, '+14155550123');
    const search = await createSearch(alice, { product_type: 'iphone16promax', store_id: 'R095' });
    const preferred = search.product_models.slice(0, 2).map((model) => model.part_number);
    const response = await api.call({
      method: 'PATCH',
      url: `/v2/searches/${search.id}`,
      as: alice,
      body: {
        ...search,
        show_results_only_for_preferred_models: true,
        send_text_updates: true,
        max_distance_miles: 25,
        product_models: search.product_models.map((model) => ({
          ...model,
          is_preferred: preferred.includes(model.part_number),
        })),
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const updated = searchSchema.parse(response.json());
    expect(updated).toMatchObject({
      show_results_only_for_preferred_models: true,
      send_text_updates: true,
      max_distance_miles: 25,
    });
    expect(
      updated.product_models
        .filter((model) => model.is_preferred)
        .map((model) => model.part_number)
        .sort(),
    ).toEqual(preferred.sort());
    const reread = searchSchema.parse(
      (await api.call({ method: 'GET', url: `/v2/searches/${search.id}`, as: alice })).json(),
    );
    expect(reread).toEqual(updated);
  });

  it('drops old preferred models when the product type changes', async () => {
    const search = await createSearch(alice, { product_type: 'iphone16', store_id: 'R095' });
    const response = await api.call({
      method: 'PATCH',
      url: `/v2/searches/${search.id}`,
      as: alice,
      body: {
        ...search,
        product_type: 'iphone16plus',
        product_models: search.product_models.map((m) => ({ ...m, is_preferred: true })),
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      product_type: 'iphone16plus',
      product_name: 'iPhone 16 Plus',
    });
    expect(
      searchSchema.parse(response.json()).product_models.some((model) => model.is_preferred),
    ).toBe(false);
  });

  it('rejects bad input with 400 naming the field and changes nothing', async () => {
    const search = await createSearch(alice, { product_type: 'iphone16pro', store_id: 'R075' });
    const cases: [Record<string, unknown>, string][] = [
      [{ store_id: 'R095' }, 'product_type'],
      [{ product_type: 'iphone16pro' }, 'store_id'],
      [{ product_type: 'toaster', store_id: 'R095' }, 'product_type'],
      [{ product_type: 'iphone16pro', store_id: 'R999' }, 'store_id'],
      [
        { product_type: 'iphone16pro', store_id: 'R095', include_nearby_store_results: 'yes' },
        'include_nearby_store_results',
      ],
      [
        {
          product_type: 'iphone16pro',
          store_id: 'R095',
          product_models: [{ part_number: 'NOPE1LL/A', is_preferred: true }],
        },
        'product_models.0.part_number',
      ],
    ];
    for (const [body, field] of cases) {
      const response = await api.call({ method: 'POST', url: '/v2/searches', as: bob, body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'invalid_input',
        reason: "Some of the information sent isn't valid. Please check it and try again.",
        field,
      });
    }
    const badPatch = await api.call({
      method: 'PATCH',
      url: `/v2/searches/${search.id}`,
      as: alice,
      body: { ...search, max_distance_miles: -3 },
    });
    expect(badPatch.statusCode).toBe(400);
    expect(badPatch.json()).toMatchObject({ field: 'max_distance_miles' });
    const badId = await api.call({ method: 'GET', url: '/v2/searches/not-a-uuid', as: alice });
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toMatchObject({ field: 'id' });
    expect(
      searchSchema.parse(
        (await api.call({ method: 'GET', url: `/v2/searches/${search.id}`, as: alice })).json(),
      ),
    ).toEqual(search);
  });

  it('hides another user’s search behind 404 for read, change, inventory and delete', async () => {
    const search = await createSearch(alice, { product_type: 'iphone16', store_id: 'R075' });
    const asBob = [
      await api.call({ method: 'GET', url: `/v2/searches/${search.id}`, as: bob }),
      await api.call({
        method: 'PATCH',
        url: `/v2/searches/${search.id}`,
        as: bob,
        body: { ...search, send_email_updates: false },
      }),
      await api.call({ method: 'GET', url: `/v2/searches/${search.id}/inventory`, as: bob }),
      await api.call({ method: 'DELETE', url: `/v2/searches/${search.id}`, as: bob }),
      await api.call({ method: 'GET', url: `/v2/searches/${UNKNOWN_ID}`, as: alice }),
    ];
    for (const response of asBob) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        code: 'not_found',
        reason: "We couldn't find this search. It may have been deleted.",
        message: 'Search not found',
      });
    }
    expect(
      searchSchema.parse(
        (await api.call({ method: 'GET', url: `/v2/searches/${search.id}`, as: alice })).json(),
      ),
    ).toEqual(search);
  });

  it('deletes a search with 204, after which it is gone', async () => {
    const search = await createSearch(bob, { product_type: 'iphone16', store_id: 'R095' });
    expect(
      (await api.call({ method: 'DELETE', url: `/v2/searches/${search.id}`, as: bob })).statusCode,
    ).toBe(204);
    expect(
      (await api.call({ method: 'GET', url: `/v2/searches/${search.id}`, as: bob })).statusCode,
    ).toBe(404);
    expect(
      (await api.call({ method: 'DELETE', url: `/v2/searches/${search.id}`, as: bob })).statusCode,
    ).toBe(404);
  });

  it('refuses every search call without a token with 401', async () => {
    const calls = [
      api.call({ method: 'GET', url: '/v2/searches/my_searches' }),
      api.call({ method: 'POST', url: '/v2/searches', body: {} }),
      api.call({ method: 'GET', url: `/v2/searches/${UNKNOWN_ID}` }),
      api.call({ method: 'PATCH', url: `/v2/searches/${UNKNOWN_ID}`, body: {} }),
      api.call({ method: 'DELETE', url: `/v2/searches/${UNKNOWN_ID}` }),
      api.call({ method: 'GET', url: `/v2/searches/${UNKNOWN_ID}/inventory` }),
      api.call({ method: 'GET', url: `/v2/searches/${UNKNOWN_ID}/history` }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(401);
    }
  });

  it('serves the search’s store and nearby stores within its distance limit, nearest first', async () => {
    const carol = await api.createUser('carol', 'best');
    const search = await createSearch(carol, { product_type: 'iphone16pro', store_id: 'R095' });
    // Near means near (issue 42): a new US search stops at 30 miles unless told otherwise.
    expect(search).toMatchObject({
      max_distance_miles: 30,
      distance_unit: 'mi',
      alert_cadence_minutes: 15,
    });
    const [first, second, third] = search.product_models;
    const empty = searchInventorySchema.parse(
      (
        await api.call({ method: 'GET', url: `/v2/searches/${search.id}/inventory`, as: carol })
      ).json(),
    );
    expect(empty).toEqual({ stores: [], last_checked_at: null });

    const observed_at = new Date('2026-11-20T10:00:00Z');
    await upsertNeighbours(
      api.testDb.db,
      'R095',
      [
        { neighbour_store_id: 'R238', distance_miles: 12.5 },
        { neighbour_store_id: 'R254', distance_miles: 1.2 },
        { neighbour_store_id: 'R523', distance_miles: 40 },
      ],
      observed_at,
    );
    await upsertSnapshots(api.testDb.db, [
      {
        store_id: 'R095',
        part_number: first.part_number,
        status: 'unavailable',
        pickup_quote: null,
        observed_at,
      },
      {
        store_id: 'R238',
        part_number: first.part_number,
        status: 'available',
        pickup_quote: 'Today',
        observed_at,
      },
      {
        store_id: 'R254',
        part_number: second.part_number,
        status: 'available',
        pickup_quote: 'Today',
        observed_at,
      },
      {
        store_id: 'R254',
        part_number: third.part_number,
        status: 'available',
        pickup_quote: 'Today',
        observed_at,
      },
      {
        store_id: 'R523',
        part_number: first.part_number,
        status: 'available',
        pickup_quote: 'Today',
        observed_at,
      },
    ]);
    const inventory = searchInventorySchema.parse(
      (
        await api.call({ method: 'GET', url: `/v2/searches/${search.id}/inventory`, as: carol })
      ).json(),
    );
    expect(inventory.last_checked_at).toBe(observed_at.toISOString());
    expect(
      inventory.stores.map((store) => [store.store_id, store.available_models.length]),
    ).toEqual([
      ['R095', 0],
      ['R254', 2],
      ['R238', 1],
    ]);
    // Cleared, the limit means any distance: the store 40 miles away shows too.
    await api.call({
      method: 'PATCH',
      url: `/v2/searches/${search.id}`,
      as: carol,
      body: { ...search, max_distance_miles: null },
    });
    const anyDistance = searchInventorySchema.parse(
      (
        await api.call({ method: 'GET', url: `/v2/searches/${search.id}/inventory`, as: carol })
      ).json(),
    );
    expect(anyDistance.stores.map((store) => store.store_id)).toEqual([
      'R095',
      'R254',
      'R238',
      'R523',
    ]);

    const limited = await api.call({
      method: 'PATCH',
      url: `/v2/searches/${search.id}`,
      as: carol,
      body: {
        ...search,
        max_distance_miles: 20,
        show_results_only_for_preferred_models: true,
        product_models: [{ part_number: second.part_number, is_preferred: true }],
      },
    });
    expect(limited.json()).toMatchObject({ stores_with_inventory: 1 });
    const filtered = searchInventorySchema.parse(
      (
        await api.call({ method: 'GET', url: `/v2/searches/${search.id}/inventory`, as: carol })
      ).json(),
    );
    expect(filtered.stores.map((store) => store.store_id)).toEqual(['R095', 'R254']);
    expect(filtered.stores[1].available_models).toEqual([
      { part_number: second.part_number, display_name: second.display_name, is_preferred: true },
    ]);

    await api.call({
      method: 'PATCH',
      url: `/v2/searches/${search.id}`,
      as: carol,
      body: { ...search, include_nearby_store_results: false },
    });
    const ownOnly = searchInventorySchema.parse(
      (
        await api.call({ method: 'GET', url: `/v2/searches/${search.id}/inventory`, as: carol })
      ).json(),
    );
    expect(ownOnly.stores.map((store) => store.store_id)).toEqual(['R095']);
  });
});

describe('plan limits and web access', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiHarness();
  });
  afterAll(async () => api.close());

  it.each([
    [
      'better',
      5,
      'Your Better plan allows 5 searches. Upgrade to Premium to add more, or delete a search you no longer need.',
    ],
    [
      'best',
      10,
      'Your Premium plan allows 10 searches. Delete a search you no longer need to add another.',
    ],
  ] as const)(
    'lets a %s account create %i searches and refuses the next with a 403 that says why',
    async (plan, limit, reason) => {
      const user = await api.createUser(`limit-${plan}`, plan);
      for (let index = 0; index < limit; index += 1) {
        const response = await api.call({
          method: 'POST',
          url: '/v2/searches',
          as: user,
          body: { product_type: 'iphone16', store_id: 'R095' },
        });
        expect(response.statusCode).toBe(201);
      }
      const over = await api.call({
        method: 'POST',
        url: '/v2/searches',
        as: user,
        body: { product_type: 'iphone16', store_id: 'R095' },
      });
      expect(over.statusCode).toBe(403);
      expect(over.json()).toEqual({
        code: 'search_limit_reached',
        reason,
        message: expect.stringContaining(`${limit} of ${limit} searches`) as unknown,
      });
    },
  );

  it('refuses concurrent creates past the limit', async () => {
    const user = await api.createUser('racer', 'better');
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        api.call({
          method: 'POST',
          url: '/v2/searches',
          as: user,
          body: { product_type: 'iphone16', store_id: 'R075' },
        }),
      ),
    );
    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(5);
    expect(responses.filter((response) => response.statusCode === 403)).toHaveLength(3);
  });

  it('answers every search read and write of a Good-plan account with the same 403', async () => {
    // A search made while on Better, then the plan lapsed to Good; and someone else's search.
    const lapsed = await api.createUser('lapsed', 'better');
    const other = await api.createUser('other', 'best');
    const create = (as: TestUser) =>
      api.call({
        method: 'POST',
        url: '/v2/searches',
        as,
        body: { product_type: 'iphone16', store_id: 'R095' },
      });
    const own = searchSchema.parse((await create(lapsed)).json());
    const foreign = searchSchema.parse((await create(other)).json());
    await updateUserPlan(api.testDb.db, lapsed.user.id, 'good');

    const requests: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; body?: unknown }[] =
      [{ method: 'GET', url: '/v2/searches/my_searches' }];
    for (const id of [own.id, foreign.id, UNKNOWN_ID, 'not-a-uuid']) {
      requests.push(
        { method: 'GET', url: `/v2/searches/${id}` },
        { method: 'PATCH', url: `/v2/searches/${id}`, body: { ...own, send_email_updates: false } },
        { method: 'GET', url: `/v2/searches/${id}/inventory` },
        { method: 'GET', url: `/v2/searches/${id}/history?days=7` },
        { method: 'DELETE', url: `/v2/searches/${id}` },
      );
    }
    requests.push(
      { method: 'POST', url: '/v2/searches', body: { product_type: 'iphone16', store_id: 'R095' } },
      // Invalid input is refused for the plan too, before any validation could tell more.
      { method: 'POST', url: '/v2/searches', body: { product_type: 42 } },
    );
    for (const request of requests) {
      const response = await api.call({ ...request, as: lapsed });
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(403);
      expect(response.json(), `${request.method} ${request.url}`).toEqual({
        code: 'subscription_required',
        reason:
          'Searches on the website need a Better or Premium plan. Upgrade on the Pricing page, or use the free search in the Shelfwatch app for Mac.',
        message: 'The Good plan has no searches on the web',
      });
    }
    // Nothing changed: the searches are still there for whoever may read them.
    const stillThere = await api.call({
      method: 'GET',
      url: `/v2/searches/${foreign.id}`,
      as: other,
    });
    expect(stillThere.statusCode).toBe(200);
    await updateUserPlan(api.testDb.db, lapsed.user.id, 'better');
    const back = await api.call({ method: 'GET', url: '/v2/searches/my_searches', as: lapsed });
    expect(searchListSchema.parse(back.json()).map((search) => search.id)).toEqual([own.id]);
  });

  it('refuses text updates below Premium', async () => {
    const user = await api.createUser('better-texts', 'better');
    const created = searchSchema.parse(
      (
        await api.call({
          method: 'POST',
          url: '/v2/searches',
          as: user,
          body: { product_type: 'iphone16', store_id: 'R095', send_text_updates: true },
        })
      ).json(),
    );
    expect(created.send_text_updates).toBe(false);
    const patch = await api.call({
      method: 'PATCH',
      url: `/v2/searches/${created.id}`,
      as: user,
      body: { ...created, send_text_updates: true },
    });
    expect(patch.statusCode).toBe(403);
    expect(patch.json()).toMatchObject({
      code: 'subscription_required',
      reason: 'Text notifications are only allowed for Premium subscribers.',
      field: 'send_text_updates',
    });
  });
});
