import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  channelCreatedSchema,
  channelListSchema,
  channelTestResultSchema,
  searchChannelsSchema,
} from '#shared/api/channels.ts';
import { errorBodySchema, searchSchema } from '#shared/api/index.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';
import {
  startDiscordStandIn,
  startTelegramStandIn,
  startWebhookSink,
  type StandIn,
} from '#tests/helpers/channel-stand-ins.ts';

/** Verifies `t=…,v1=…` the way a receiver would: HMAC-SHA256 of "<t>.<body>" with the secret. */
function verifySignature(header: string, body: string, secret: string): boolean {
  const parts = new Map(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const timestamp = parts.get('t');
  const signature = parts.get('v1');
  if (timestamp === undefined || signature === undefined) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest();
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('/v2/account/channels', () => {
  let api: ApiHarness;
  let strict: FastifyInstance;
  let alice: TestUser;
  let bob: TestUser;
  let freeUser: TestUser;
  let sink: StandIn;
  let telegram: Awaited<ReturnType<typeof startTelegramStandIn>>;
  let discord: Awaited<ReturnType<typeof startDiscordStandIn>>;

  beforeAll(async () => {
    sink = await startWebhookSink();
    telegram = await startTelegramStandIn();
    discord = await startDiscordStandIn();
    api = await startApiHarness({
      notify: { publicUrl: 'https://shelfwatch.test' },
      channels: {
        settings: {
          allowPrivateTargets: true,
          telegramApiBaseUrl: telegram.url,
          timeoutMs: 5_000,
        },
        storePageBaseUrl: 'https://www.apple.com/retail/',
      },
    });
    // The same API without ALLOW_PRIVATE_CHANNEL_TARGETS, as production runs.
    strict = await api.buildVariant({ channels: undefined });
    alice = await api.createUser('alice', 'better');
    bob = await api.createUser('bob', 'best');
    freeUser = await api.createUser('fay', 'good');
  });
  afterAll(async () => {
    await strict.close();
    await api.close();
    await sink.close();
    await telegram.close();
    await discord.close();
  });

  async function createChannel(as: TestUser, body: Record<string, unknown>) {
    const response = await api.call({ method: 'POST', url: '/v2/account/channels', as, body });
    expect(response.statusCode, response.body).toBe(201);
    return channelCreatedSchema.parse(response.json());
  }

  it('sends a signed JSON POST to a local webhook sink within 5 s of a test, verifiable with the secret shown at creation', async () => {
    const created = await createChannel(alice, {
      kind: 'webhook',
      url: `${sink.url}/hooks/shelfwatch?source=test`,
    });
    expect(created.secret).toMatch(/^whsec_/);
    const startedAt = Date.now();
    const response = await api.call({
      method: 'POST',
      url: `/v2/account/channels/${created.id}/test`,
      as: alice,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(channelTestResultSchema.parse(response.json())).toMatchObject({ delivered: true });
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    const received = sink.requests.at(-1);
    expect(received?.method).toBe('POST');
    expect(received?.path).toBe('/hooks/shelfwatch?source=test');
    expect(received?.headers['content-type']).toContain('application/json');
    expect(received?.json).toMatchObject({ type: 'test' });
    const signature = String(received?.headers['x-shelfwatch-signature']);
    expect(verifySignature(signature, received?.body ?? '', created.secret ?? '')).toBe(true);
    expect(verifySignature(signature, `${received?.body ?? ''} `, created.secret ?? '')).toBe(
      false,
    );
    const timestamp = Number(/t=(\d+)/.exec(signature)?.[1]);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(10);
  });

  it('refuses the same local target without ALLOW_PRIVATE_CHANNEL_TARGETS, naming the field', async () => {
    for (const url of [`${sink.url}/hooks`, 'https://127.0.0.1/hooks', 'https://localhost/x']) {
      const response = await strict.inject({
        method: 'POST',
        url: '/v2/account/channels',
        headers: { authorization: `Bearer ${alice.token}` },
        payload: { kind: 'webhook', url },
      });
      expect(response.statusCode, url).toBe(400);
      expect(errorBodySchema.parse(response.json()).field).toBe('url');
    }
    const ntfy = await strict.inject({
      method: 'POST',
      url: '/v2/account/channels',
      headers: { authorization: `Bearer ${alice.token}` },
      payload: { kind: 'ntfy', server_url: 'https://[::1]:8080', topic: 'shelfwatch' },
    });
    expect(ntfy.statusCode).toBe(400);
    expect(errorBodySchema.parse(ntfy.json()).field).toBe('server_url');
  });

  it('answers 400 naming the field of bad input', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'ntfy', topic: 'has spaces' }, 'topic'],
      [{ kind: 'discord', url: 'https://discord.com/not-a-webhook' }, 'url'],
      [{ kind: 'telegram', bot_token: 'nope', chat_id: '42' }, 'bot_token'],
      [{ kind: 'telegram', bot_token: telegram.botToken, chat_id: 'x y' }, 'chat_id'],
      [{ kind: 'webhook', url: 'ftp://example.com/x' }, 'url'],
      [{ kind: 'pager' }, 'kind'],
    ];
    for (const [body, field] of cases) {
      const response = await api.call({
        method: 'POST',
        url: '/v2/account/channels',
        as: alice,
        body,
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorBodySchema.parse(response.json()).field, JSON.stringify(body)).toBe(field);
    }
  });

  it('never answers a secret or token in any GET', async () => {
    const webhook = await createChannel(bob, { kind: 'webhook', url: `${sink.url}/bob` });
    await createChannel(bob, {
      kind: 'ntfy',
      server_url: sink.url,
      topic: 'bob-alerts',
      token: 'tk_secretaccesstoken123',
    });
    await createChannel(bob, { kind: 'discord', url: discord.webhookUrl });
    await createChannel(bob, {
      kind: 'telegram',
      bot_token: telegram.botToken,
      chat_id: telegram.chatId,
    });
    const search = await api.call({
      method: 'POST',
      url: '/v2/searches',
      as: bob,
      body: { product_type: 'iphone18pro', store_id: 'R095' },
    });
    expect(search.statusCode, search.body).toBe(201);
    const searchId = searchSchema.parse(search.json()).id;
    const secrets = [
      webhook.secret ?? 'missing',
      'tk_secretaccesstoken123',
      telegram.botToken,
      telegram.botToken.split(':')[1] ?? 'missing',
      new URL(discord.webhookUrl).pathname.split('/').at(-1) ?? 'missing',
    ];
    for (const url of [
      '/v2/account/channels',
      `/v2/searches/${searchId}/channels`,
      '/v2/account',
      '/v2/searches/my_searches',
    ]) {
      const response = await api.call({ method: 'GET', url, as: bob });
      expect(response.statusCode, url).toBe(200);
      for (const secret of secrets) expect(response.body, url).not.toContain(secret);
    }
    const list = channelListSchema.parse(
      (await api.call({ method: 'GET', url: '/v2/account/channels', as: bob })).json(),
    );
    expect(list.channels.map((channel) => channel.kind)).toEqual([
      'webhook',
      'ntfy',
      'discord',
      'telegram',
    ]);
    expect(list.channels.every((channel) => !('secret' in channel))).toBe(true);
  });

  it('answers 404 for another user’s channel ids and searches', async () => {
    const bobs = channelListSchema.parse(
      (await api.call({ method: 'GET', url: '/v2/account/channels', as: bob })).json(),
    ).channels;
    const target = bobs[0];
    for (const request of [
      { method: 'POST' as const, url: `/v2/account/channels/${target.id}/test` },
      { method: 'DELETE' as const, url: `/v2/account/channels/${target.id}` },
    ]) {
      const response = await api.call({ ...request, as: alice });
      expect(response.statusCode, request.url).toBe(404);
    }
    const alicesList = channelListSchema.parse(
      (await api.call({ method: 'GET', url: '/v2/account/channels', as: alice })).json(),
    );
    expect(alicesList.channels.some((channel) => channel.id === target.id)).toBe(false);
    // Alice cannot attach Bob's channel to her search either.
    const search = await api.call({
      method: 'POST',
      url: '/v2/searches',
      as: alice,
      body: { product_type: 'iphone18pro', store_id: 'R095' },
    });
    expect(search.statusCode, search.body).toBe(201);
    const searchId = searchSchema.parse(search.json()).id;
    const attach = await api.call({
      method: 'PATCH',
      url: `/v2/searches/${searchId}/channels`,
      as: alice,
      body: { channel_ids: [target.id] },
    });
    expect(attach.statusCode).toBe(400);
    expect(errorBodySchema.parse(attach.json()).field).toBe('channel_ids');
    const bobsView = await api.call({
      method: 'GET',
      url: `/v2/searches/${searchId}/channels`,
      as: bob,
    });
    expect(bobsView.statusCode).toBe(404);
    // Bob's channel still works after Alice's attempts.
    const stillThere = await api.call({ method: 'GET', url: '/v2/account/channels', as: bob });
    expect(channelListSchema.parse(stillThere.json()).channels).toHaveLength(bobs.length);
  });

  it('lets a search leave out some channels and takes them back', async () => {
    const search = await api.call({
      method: 'POST',
      url: '/v2/searches',
      as: bob,
      body: { product_type: 'iphone18pro', store_id: 'R032' },
    });
    expect(search.statusCode, search.body).toBe(201);
    const searchId = searchSchema.parse(search.json()).id;
    const initial = searchChannelsSchema.parse(
      (await api.call({ method: 'GET', url: `/v2/searches/${searchId}/channels`, as: bob })).json(),
    );
    expect(initial.channels.every((channel) => channel.is_used)).toBe(true);
    const keep = initial.channels[1].id;
    const saved = await api.call({
      method: 'PATCH',
      url: `/v2/searches/${searchId}/channels`,
      as: bob,
      body: { channel_ids: [keep] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const after = searchChannelsSchema.parse(saved.json());
    expect(
      after.channels.filter((channel) => channel.is_used).map((channel) => channel.id),
    ).toEqual([keep]);
  });

  it('confirms a Telegram chat with getChat before the test message and shows its name', async () => {
    const created = await createChannel(alice, {
      kind: 'telegram',
      bot_token: telegram.botToken,
      chat_id: telegram.chatId,
    });
    expect(created.secret).toBeNull();
    const before = telegram.requests.length;
    const response = await api.call({
      method: 'POST',
      url: `/v2/account/channels/${created.id}/test`,
      as: alice,
    });
    const result = channelTestResultSchema.parse(response.json());
    expect(result).toMatchObject({ delivered: true });
    expect(result.message).toContain(telegram.chatTitle);
    const calls = telegram.requests.slice(before);
    expect(calls.map((call) => call.path.split('/').at(-1))).toEqual(['getChat', 'sendMessage']);
    expect(calls[1]?.json).toMatchObject({ chat_id: telegram.chatId });
    const list = channelListSchema.parse(
      (await api.call({ method: 'GET', url: '/v2/account/channels', as: alice })).json(),
    );
    expect(list.channels.find((channel) => channel.id === created.id)?.target).toContain(
      telegram.chatTitle,
    );

    const wrongChat = await createChannel(alice, {
      kind: 'telegram',
      bot_token: telegram.botToken,
      chat_id: '777',
    });
    const refused = channelTestResultSchema.parse(
      (
        await api.call({
          method: 'POST',
          url: `/v2/account/channels/${wrongChat.id}/test`,
          as: alice,
        })
      ).json(),
    );
    expect(refused).toEqual({
      delivered: false,
      message: 'Not delivered: Telegram did not accept the message (Bad Request: chat not found).',
    });
  });

  it('answers a failing receiver in our words, without its status or body', async () => {
    const created = await createChannel(alice, { kind: 'discord', url: discord.webhookUrl });
    discord.failNext(500, { message: '<html>internal secret stack trace</html>' });
    const result = channelTestResultSchema.parse(
      (
        await api.call({
          method: 'POST',
          url: `/v2/account/channels/${created.id}/test`,
          as: alice,
        })
      ).json(),
    );
    expect(result).toEqual({
      delivered: false,
      message: 'Not delivered: Discord did not accept the message.',
    });
    const removed = await api.call({
      method: 'DELETE',
      url: `/v2/account/channels/${created.id}`,
      as: alice,
    });
    expect(removed.statusCode).toBe(204);
  });

  it('is for paid plans only', async () => {
    const response = await api.call({ method: 'GET', url: '/v2/account/channels', as: freeUser });
    expect(response.statusCode).toBe(403);
    expect(errorBodySchema.parse(response.json()).code).toBe('subscription_required');
  });
});
