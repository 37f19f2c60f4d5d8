import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  channelCreatedSchema,
  channelListSchema,
  searchChannelsSchema,
} from '#shared/api/channels.ts';
import { searchSchema } from '#shared/api/searches.ts';
import { insertUserChannel } from '#server/db/repositories/channel-repository.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';
import { startWebhookSink, type StandIn } from '#tests/helpers/channel-stand-ins.ts';

// Issue 43, item 4: after creation a webhook shows its scheme, host and a masked path only
// (services such as Slack keep their secret in the path).

/** A Slack-style incoming webhook path: the last part is the secret. */
const SECRET_PATH = '/services/T0PROBE00/B0PROBE00/Xq9secretPartOfTheUrl';

describe('a webhook channel’s target', () => {
  let api: ApiHarness;
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
    owner = await api.createUser('slack', 'best');
  });
  afterAll(async () => {
    await api.close();
    await sink.close();
  });

  /** Every GET that lists the owner's channels, with the masked target it must show. */
  async function readEveryGet(searchId: string): Promise<string[]> {
    const bodies: string[] = [];
    for (const url of [
      '/v2/account/channels',
      `/v2/searches/${searchId}/channels`,
      '/v2/account',
      '/v2/searches/my_searches',
    ]) {
      const response = await api.call({ method: 'GET', url, as: owner });
      expect(response.statusCode, url).toBe(200);
      bodies.push(response.body);
    }
    return bodies;
  }

  it('shows scheme, host and a masked path in the answer to its creation and in every GET', async () => {
    const created = await api.call({
      method: 'POST',
      url: '/v2/account/channels',
      as: owner,
      body: { kind: 'webhook', url: `${sink.url}${SECRET_PATH}?token=query-secret` },
    });
    expect(created.statusCode, created.body).toBe(201);
    const channel = channelCreatedSchema.parse(created.json());
    const masked = `${sink.url}/…`;
    expect(channel.target).toBe(masked);

    const search = await api.call({
      method: 'POST',
      url: '/v2/searches',
      as: owner,
      body: { product_type: 'iphone18pro', store_id: 'R095' },
    });
    expect(search.statusCode, search.body).toBe(201);
    const searchId = searchSchema.parse(search.json()).id;
    const list = channelListSchema.parse(
      (await api.call({ method: 'GET', url: '/v2/account/channels', as: owner })).json(),
    );
    expect(list.channels.find((entry) => entry.id === channel.id)?.target).toBe(masked);
    const used = searchChannelsSchema.parse(
      (
        await api.call({ method: 'GET', url: `/v2/searches/${searchId}/channels`, as: owner })
      ).json(),
    );
    expect(used.channels.find((entry) => entry.id === channel.id)?.target).toBe(masked);
    for (const body of await readEveryGet(searchId)) {
      for (const part of ['Xq9secretPartOfTheUrl', 'T0PROBE00', 'services', 'query-secret']) {
        expect(body).not.toContain(part);
      }
    }
    // The masked target is only what is shown: the message still goes to the whole address.
    const test = await api.call({
      method: 'POST',
      url: `/v2/account/channels/${channel.id}/test`,
      as: owner,
    });
    expect(test.json()).toMatchObject({ delivered: true });
    expect(sink.requests.at(-1)?.path).toBe(`${SECRET_PATH}?token=query-secret`);
  });

  it('masks the path of a channel stored before the change, whose settings kept it', async () => {
    const row = await insertUserChannel(api.testDb.db, {
      userId: owner.user.id,
      kind: 'webhook',
      label: 'Old Slack',
      settings: { display_url: `https://hooks.slack.com${SECRET_PATH}` },
      secret: { url: `https://hooks.slack.com${SECRET_PATH}`, signing_secret: 'whsec_old' },
    });
    const list = channelListSchema.parse(
      (await api.call({ method: 'GET', url: '/v2/account/channels', as: owner })).json(),
    );
    expect(list.channels.find((entry) => entry.id === row.id)?.target).toBe(
      'https://hooks.slack.com/…',
    );
  });
});
