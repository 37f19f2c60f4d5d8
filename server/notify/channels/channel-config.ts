import { z } from 'zod';
import type { UserChannelKind } from '#server/db/schema.ts';

/** What each kind keeps in `settings` (shown to the owner) and `secret` (never shown again). */
export const storedChannelSchemas = {
  ntfy: {
    settings: z.object({ server_url: z.string(), topic: z.string() }),
    secret: z.object({ token: z.string().nullable() }),
  },
  discord: {
    settings: z.object({ host: z.string(), webhook_id: z.string() }),
    secret: z.object({ url: z.string() }),
  },
  telegram: {
    settings: z.object({ chat_id: z.string(), chat_title: z.string().nullable() }),
    secret: z.object({ bot_token: z.string() }),
  },
  webhook: {
    settings: z.object({ display_url: z.string() }),
    secret: z.object({ url: z.string(), signing_secret: z.string() }),
  },
} as const;

/** A stored channel, its settings and secret read for its kind. */
export type StoredChannel =
  | {
      kind: 'ntfy';
      settings: z.infer<typeof storedChannelSchemas.ntfy.settings>;
      secret: z.infer<typeof storedChannelSchemas.ntfy.secret>;
    }
  | {
      kind: 'discord';
      settings: z.infer<typeof storedChannelSchemas.discord.settings>;
      secret: z.infer<typeof storedChannelSchemas.discord.secret>;
    }
  | {
      kind: 'telegram';
      settings: z.infer<typeof storedChannelSchemas.telegram.settings>;
      secret: z.infer<typeof storedChannelSchemas.telegram.secret>;
    }
  | {
      kind: 'webhook';
      settings: z.infer<typeof storedChannelSchemas.webhook.settings>;
      secret: z.infer<typeof storedChannelSchemas.webhook.secret>;
    };

/** Reads a row's settings and secret for its kind; throws on a row no kind describes. */
export function readStoredChannel(row: {
  kind: UserChannelKind;
  settings: unknown;
  secret: unknown;
}): StoredChannel {
  switch (row.kind) {
    case 'ntfy':
      return {
        kind: 'ntfy',
        settings: storedChannelSchemas.ntfy.settings.parse(row.settings),
        secret: storedChannelSchemas.ntfy.secret.parse(row.secret),
      };
    case 'discord':
      return {
        kind: 'discord',
        settings: storedChannelSchemas.discord.settings.parse(row.settings),
        secret: storedChannelSchemas.discord.secret.parse(row.secret),
      };
    case 'telegram':
      return {
        kind: 'telegram',
        settings: storedChannelSchemas.telegram.settings.parse(row.settings),
        secret: storedChannelSchemas.telegram.secret.parse(row.secret),
      };
    case 'webhook':
      return {
        kind: 'webhook',
        settings: storedChannelSchemas.webhook.settings.parse(row.settings),
        secret: storedChannelSchemas.webhook.secret.parse(row.secret),
      };
  }
}

/** Where a channel points, without credentials, for the owner's list. */
export function describeTarget(channel: StoredChannel): string {
  switch (channel.kind) {
    case 'ntfy':
      return `${channel.settings.server_url.replace(/^https?:\/\//, '')}/${channel.settings.topic}`;
    case 'discord':
      return `Discord webhook …${channel.settings.webhook_id.slice(-4)} (${channel.settings.host})`;
    case 'telegram':
      return channel.settings.chat_title === null
        ? `Telegram chat ${channel.settings.chat_id}`
        : `Telegram chat “${channel.settings.chat_title}” (${channel.settings.chat_id})`;
    case 'webhook':
      // Rows made before issue 43 kept the whole path here: it is masked on the way out too.
      return maskWebhookUrl(channel.settings.display_url);
  }
}

/**
 * A webhook address as shown after creation: its scheme and host, the path masked. Services
 * such as Slack keep the secret in the path, and the query may hold a token too.
 */
export function maskWebhookUrl(url: string): string {
  if (!URL.canParse(url)) return 'webhook';
  const parsed = new URL(url);
  const hasPath = parsed.pathname !== '/' || parsed.search !== '';
  return `${parsed.protocol}//${parsed.host}/${hasPath ? '…' : ''}`;
}

/** The settings of the channels that have them, for Telegram's chat title after a test. */
export type ChannelSettingsUpdate = Record<string, unknown>;
