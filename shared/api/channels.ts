import { z } from 'zod';

/** Kinds of alert channels a user adds in My Account (issue 29). */
export const CHANNEL_KINDS = ['ntfy', 'discord', 'telegram', 'webhook'] as const;

/** One of the channel kinds. */
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** The most channels one account keeps; more only multiplies the same alert. */
export const MAX_CHANNELS_PER_ACCOUNT = 10;

/**
 * Test messages allowed per channel a minute, and per account an hour (issue 43): each is a
 * request from our servers to an address the user chose, so tests must not become a flood.
 */
export const CHANNEL_TEST_LIMITS = { perChannelPerMinute: 5, perUserPerHour: 20 } as const;

const labelSchema = z.string().trim().max(60).optional();

/** An http(s) URL; whether plain http or a private address is allowed is decided by the server. */
const urlSchema = z
  .string()
  .trim()
  .max(2048)
  .superRefine((value, context) => {
    if (!URL.canParse(value)) {
      context.addIssue({ code: 'custom', message: 'Enter a full address, e.g. https://…' });
    } else if (!['https:', 'http:'].includes(new URL(value).protocol)) {
      context.addIssue({ code: 'custom', message: 'The address must start with https://' });
    }
  });

/** ntfy topics: letters, digits, "-" and "_", up to 64 (ntfy's own rule). */
const ntfyTopicSchema = z
  .string()
  .trim()
  .regex(/^[-_A-Za-z0-9]{1,64}$/, {
    message: 'A topic is 1 to 64 letters, digits, "-" or "_"',
  });

/**
 * An ntfy access token goes in an Authorization header: visible ASCII on one line only. A CR
 * or LF could never be sent (and would split the header), so it is refused when added.
 */
const ntfyTokenSchema = z
  .string()
  .trim()
  .max(200)
  .regex(/^[\x21-\x7e]*$/, {
    message: 'An access token is one line of letters, digits and symbols, without spaces',
  });

/** Discord's webhook links: /api/webhooks/{id}/{token}. */
const discordWebhookSchema = urlSchema.refine(
  (value) =>
    URL.canParse(value) &&
    /^\/api(\/v\d+)?\/webhooks\/\d+\/[\w-]+\/?$/.test(new URL(value).pathname),
  { message: 'Paste the webhook URL Discord shows (…/api/webhooks/…/…)' },
);

/** A bot token as BotFather issues it: "<bot id>:<secret>". */
const telegramTokenSchema = z
  .string()
  .trim()
  .regex(/^\d{3,20}:[\w-]{20,100}$/, {
    message: 'Paste the token BotFather gave you (digits, a colon, then letters)',
  });

/** A chat id (a number, negative for groups) or a public channel's @username. */
const telegramChatSchema = z
  .string()
  .trim()
  .regex(/^(-?\d{1,20}|@[A-Za-z][\w]{3,31})$/, {
    message: 'A chat id is a number (e.g. 123456789 or -100123…) or a channel @username',
  });

/** POST /v2/account/channels body, one shape per kind. */
export const channelCreateSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('ntfy'),
    label: labelSchema,
    server_url: urlSchema.default('https://ntfy.sh'),
    topic: ntfyTopicSchema,
    token: ntfyTokenSchema.optional(),
  }),
  z.object({ kind: z.literal('discord'), label: labelSchema, url: discordWebhookSchema }),
  z.object({
    kind: z.literal('telegram'),
    label: labelSchema,
    bot_token: telegramTokenSchema,
    chat_id: telegramChatSchema,
  }),
  z.object({ kind: z.literal('webhook'), label: labelSchema, url: urlSchema }),
]);
/** What the add-channel form sends. */
export type ChannelCreate = z.input<typeof channelCreateSchema>;
/** A validated add-channel body. */
export type ChannelCreateValues = z.output<typeof channelCreateSchema>;

/** A channel as its owner sees it: where it points, never its token or secret. */
export const channelSchema = z.object({
  id: z.uuid(),
  kind: z.enum(CHANNEL_KINDS),
  label: z.string(),
  /** Where messages go, shown without credentials ("ntfy.sh/topic", "chat 1234", a host). */
  target: z.string(),
  status: z.enum(['active', 'paused']),
  /** Why the channel was paused (after repeated failures); null while active. */
  pause_reason: z.string().nullable(),
  paused_at: z.string().nullable(),
  /** The last failure as a status line (never the receiver's response body). */
  last_failure: z.string().nullable(),
  last_failure_at: z.string().nullable(),
  last_success_at: z.string().nullable(),
  created_at: z.string(),
});
/** One of the user's channels. */
export type Channel = z.infer<typeof channelSchema>;

/** GET /v2/account/channels answer. */
export const channelListSchema = z.object({ channels: z.array(channelSchema) });
/** The user's channels. */
export type ChannelList = z.infer<typeof channelListSchema>;

/** POST /v2/account/channels answer: the channel and, this once, a webhook's signing secret. */
export const channelCreatedSchema = channelSchema.extend({ secret: z.string().nullable() });
/** A channel just created. */
export type ChannelCreated = z.infer<typeof channelCreatedSchema>;

/** Path parameters naming one channel. */
export const channelParamsSchema = z.object({ id: z.uuid({ message: 'Not a channel id' }) });

/**
 * POST /v2/account/channels/{id}/test answer: whether the message was delivered, in our own
 * words. The receiver's status code is never answered (a test is a request to an address the
 * user chose; its status would make us a way to probe hosts).
 */
export const channelTestResultSchema = z.object({
  delivered: z.boolean(),
  /** What happened, for the person ("Sent to the chat “Family”", "Not delivered: ..."). */
  message: z.string(),
});
/** The outcome of a test message. */
export type ChannelTestResult = z.infer<typeof channelTestResultSchema>;

/** GET and PATCH /v2/searches/{id}/channels: which of the user's channels a search uses. */
export const searchChannelsSchema = z.object({
  channels: z.array(channelSchema.extend({ is_used: z.boolean() })),
});
/** A search's channel choices. */
export type SearchChannels = z.infer<typeof searchChannelsSchema>;

/** PATCH /v2/searches/{id}/channels body: the channels the search should use (others not). */
export const searchChannelsUpdateSchema = z.object({
  channel_ids: z.array(z.uuid({ message: 'Not a channel id' })).max(MAX_CHANNELS_PER_ACCOUNT),
});
/** A search's new channel choice. */
export type SearchChannelsUpdate = z.infer<typeof searchChannelsUpdateSchema>;
