import { failureForStatus, postJson, type ChannelHttp } from './channel-http.ts';
import type { StoredChannel } from './channel-config.ts';
import type { ChannelMessage } from './channel-message.ts';

type DiscordChannel = Extract<StoredChannel, { kind: 'discord' }>;

/** The embed's side bar colour (Shelfwatch green). */
const EMBED_COLOR = 0x2e9e5b;

/**
 * Executes the webhook (POST JSON `{content, embeds}`) with `?wait=true`, so Discord answers
 * 200 with the message once it is saved rather than 204 before. The embed's title links to
 * the search; its description carries the other links as Markdown (webhooks made by users
 * cannot send buttons). Mentions are disabled so a model name can never ping anyone.
 */
export async function sendDiscord(
  http: ChannelHttp,
  channel: DiscordChannel,
  message: ChannelMessage,
): Promise<{ note: string }> {
  const url = new URL(channel.secret.url);
  url.searchParams.set('wait', 'true');
  const links = message.actions.map((action) => `[${action.label}](${action.url})`).join(' · ');
  const answer = await postJson(http, {
    url: url.toString(),
    receiver: 'Discord',
    isUserTarget: true,
    body: JSON.stringify({
      content: message.title,
      embeds: [
        {
          title: message.title.slice(0, 256),
          url: message.clickUrl,
          description: `${message.text}\n\n${links}`.slice(0, 4096),
          color: EMBED_COLOR,
          footer: { text: 'Shelfwatch' },
        },
      ],
      allowed_mentions: { parse: [] },
    }),
  });
  if (answer.status === 200 || answer.status === 204) {
    const id = (answer.json as { id?: unknown } | undefined)?.id;
    return { note: typeof id === 'string' ? `discord message ${id}` : `discord ${answer.status}` };
  }
  if (answer.status === 429) {
    const retryAfter = (answer.json as { retry_after?: unknown } | undefined)?.retry_after;
    throw failureForStatus(
      'Discord',
      429,
      typeof retryAfter === 'number' ? `rate limited, retry after ${retryAfter} s` : 'rate limited',
    );
  }
  const detail =
    answer.status === 404 || answer.status === 401
      ? 'the webhook was deleted or its token is wrong'
      : '';
  throw failureForStatus('Discord', answer.status, detail);
}
