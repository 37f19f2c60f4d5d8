import { ChannelSendError, failureForStatus, postJson, type ChannelHttp } from './channel-http.ts';
import type { StoredChannel } from './channel-config.ts';
import type { ChannelMessage } from './channel-message.ts';

type TelegramChannel = Extract<StoredChannel, { kind: 'telegram' }>;

/** The Bot API's answer: `{ok: true, result}` or `{ok: false, error_code, description}`. */
type BotApiAnswer = {
  ok?: unknown;
  result?: unknown;
  error_code?: unknown;
  description?: unknown;
  parameters?: { retry_after?: unknown };
};

/**
 * Calls a Bot API method (POST JSON to `{base}/bot<token>/<method>`). The base is the
 * operator's (TELEGRAM_API_BASE_URL, api.telegram.org by default), not the user's, so it is
 * not subject to the private-target rules; the token is only ever in the path.
 */
async function callBotApi(
  http: ChannelHttp,
  baseUrl: string,
  token: string,
  method: string,
  body: unknown,
): Promise<unknown> {
  const answer = await postJson(http, {
    url: `${baseUrl.replace(/\/+$/, '')}/bot${token}/${method}`,
    receiver: 'Telegram',
    isUserTarget: false,
    body: JSON.stringify(body),
  });
  const json = (answer.json ?? {}) as BotApiAnswer;
  if (answer.status === 200 && json.ok === true) return json.result;
  // Telegram's descriptions are its own fixed sentences ("Bad Request: chat not found").
  const description = typeof json.description === 'string' ? json.description.slice(0, 120) : '';
  if (answer.status === 429) {
    const retryAfter = json.parameters?.retry_after;
    throw failureForStatus(
      'Telegram',
      429,
      typeof retryAfter === 'number' ? `retry after ${retryAfter} s` : 'too many requests',
    );
  }
  if (answer.status === 200) {
    throw new ChannelSendError(
      'transient',
      'Telegram answered without ok',
      200,
      'Not delivered: Telegram did not confirm the message.',
    );
  }
  throw failureForStatus('Telegram', answer.status, description);
}

/** A message with the links as inline keyboard URL buttons (Telegram takes only http(s) URLs). */
export async function sendTelegram(
  http: ChannelHttp,
  baseUrl: string,
  channel: TelegramChannel,
  message: ChannelMessage,
): Promise<{ note: string }> {
  // Telegram refuses buttons to local addresses; the text keeps the search link regardless.
  const buttons = message.actions.filter((action) => action.url.startsWith('https://'));
  const result = (await callBotApi(http, baseUrl, channel.secret.bot_token, 'sendMessage', {
    chat_id: channel.settings.chat_id,
    text: `${message.title}\n\n${message.text}\n\n${message.clickUrl}`,
    link_preview_options: { is_disabled: true },
    ...(buttons.length === 0
      ? {}
      : {
          reply_markup: {
            inline_keyboard: buttons.map((action) => [{ text: action.label, url: action.url }]),
          },
        }),
  })) as { message_id?: unknown } | undefined;
  const id = result?.message_id;
  return { note: typeof id === 'number' ? `telegram message ${id}` : 'telegram ok' };
}

/**
 * getChat: confirms the bot can see the chat and answers its name (a group's or channel's
 * title, a person's first name or @username) for the owner's list.
 */
export async function confirmTelegramChat(
  http: ChannelHttp,
  baseUrl: string,
  channel: TelegramChannel,
): Promise<string> {
  const chat = (await callBotApi(http, baseUrl, channel.secret.bot_token, 'getChat', {
    chat_id: channel.settings.chat_id,
  })) as { title?: unknown; first_name?: unknown; username?: unknown } | undefined;
  for (const name of [chat?.title, chat?.first_name, chat?.username]) {
    if (typeof name === 'string' && name !== '') return name.slice(0, 80);
  }
  return channel.settings.chat_id;
}
