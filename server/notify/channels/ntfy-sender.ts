import { failureForStatus, postJson, type ChannelHttp } from './channel-http.ts';
import type { StoredChannel } from './channel-config.ts';
import type { ChannelMessage } from './channel-message.ts';

type NtfyChannel = Extract<StoredChannel, { kind: 'ntfy' }>;

/** ntfy shows at most three action buttons. */
const MAX_NTFY_ACTIONS = 3;

/**
 * Publishes as JSON to the server's root (ntfy's "publish as JSON": topic, title, message,
 * tags, priority, click and view actions in the body, so titles keep any characters that
 * HTTP headers cannot carry). A topic protected by an access token gets it as a Bearer token.
 */
export async function sendNtfy(
  http: ChannelHttp,
  channel: NtfyChannel,
  message: ChannelMessage,
): Promise<{ note: string }> {
  const server = channel.settings.server_url.replace(/\/+$/, '');
  const answer = await postJson(http, {
    url: `${server}/`,
    receiver: 'ntfy',
    isUserTarget: true,
    headers:
      channel.secret.token === null ? {} : { authorization: `Bearer ${channel.secret.token}` },
    body: JSON.stringify({
      topic: channel.settings.topic,
      title: message.title,
      message: message.text,
      tags: ['shopping_cart'],
      priority: 4,
      click: message.clickUrl,
      actions: message.actions.slice(0, MAX_NTFY_ACTIONS).map((action) => ({
        action: 'view',
        label: action.label,
        url: action.url,
        clear: true,
      })),
    }),
  });
  if (answer.status !== 200) {
    const detail =
      answer.status === 401 || answer.status === 403
        ? 'the topic needs a valid access token'
        : answer.status === 429
          ? 'rate limited'
          : '';
    throw failureForStatus('ntfy', answer.status, detail);
  }
  const id = (answer.json as { id?: unknown } | undefined)?.id;
  return { note: typeof id === 'string' ? `ntfy ${id}` : 'ntfy 200' };
}
