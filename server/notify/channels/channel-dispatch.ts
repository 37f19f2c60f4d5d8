import type { Agent } from 'undici';
import { createItemLinks } from '#server/notify/alert-links.ts';
import { loadOnFirstUse } from '#server/base/load-on-first-use.ts';
import type { ChannelSettings } from '#server/config/notify-settings.ts';
import type { ChannelHttp } from './channel-http.ts';
import { readStoredChannel, type StoredChannel } from './channel-config.ts';
import {
  buildChannelMessage,
  buildTestMessage,
  type ChannelAlert,
  type ChannelAlertItem,
} from './channel-message.ts';
import { sendDiscord } from './discord-sender.ts';
import { sendNtfy } from './ntfy-sender.ts';
import { confirmTelegramChat, sendTelegram } from './telegram-sender.ts';
import { buildWebhookAlertBody, buildWebhookTestBody } from './webhook-body.ts';
import { sendWebhook } from './webhook-sender.ts';
import { createTargetAgent } from './target-guard.ts';

/** The default settings: public https targets only, Telegram's own API, 10 s timeouts. */
export const DEFAULT_CHANNEL_SETTINGS: ChannelSettings = {
  allowPrivateTargets: false,
  telegramApiBaseUrl: 'https://api.telegram.org',
  timeoutMs: 10_000,
};

/** Where links in messages point. */
export type ChannelLinkBase = {
  publicUrl: string;
  /** Apple's store pages, e.g. https://www.apple.com/retail/ (STORE_PAGE_BASE_URL). */
  storePageBaseUrl: string;
};

/** Sends alerts and tests to users' channels. */
export type ChannelDispatcher = {
  /** Sends one alert; `buyPagePath` is the product's buy page. Throws ChannelSendError. */
  sendAlert: (
    row: { kind: StoredChannel['kind']; settings: unknown; secret: unknown },
    alert: ChannelAlert,
    delivery: { id: string; buyPagePath: string | null; timeZone?: string },
  ) => Promise<{ note: string }>;
  /** Sends a test message; for Telegram first confirms the chat and answers its name. */
  sendTest: (row: {
    id: string;
    kind: StoredChannel['kind'];
    settings: unknown;
    secret: unknown;
  }) => Promise<{ note: string; chatTitle?: string }>;
  close: () => Promise<void>;
};

/** Builds the dispatcher; its guarded HTTP agent (and undici) comes with the first send. */
export function createChannelDispatcher(
  settings: ChannelSettings,
  links: ChannelLinkBase,
  now: () => number = Date.now,
): ChannelDispatcher {
  const policy = { allowPrivateTargets: settings.allowPrivateTargets };
  let agent: Agent | undefined;
  const connect = loadOnFirstUse(async (): Promise<ChannelHttp> => {
    agent = await createTargetAgent(policy, settings.timeoutMs);
    return { agent, timeoutMs: settings.timeoutMs, policy };
  });
  const publicUrl = links.publicUrl.replace(/\/+$/, '');

  return {
    sendAlert: async (row, alert, delivery) => {
      const channel = readStoredChannel(row);
      const http = await connect();
      const searchUrl = `${publicUrl}/search/${encodeURIComponent(alert.searchId)}`;
      const itemLinks = createItemLinks(links.storePageBaseUrl, delivery.buyPagePath);
      const storeUrl = (item: ChannelAlertItem): string | undefined => itemLinks.storeUrl(item);
      const buyUrl = (item: ChannelAlertItem): string | undefined => itemLinks.buyUrl(item);
      const first = alert.items[0];
      if (channel.kind === 'webhook') {
        const body = buildWebhookAlertBody(
          alert,
          { searchUrl, storeUrl, buyUrl },
          { id: delivery.id, createdAt: new Date(now()).toISOString() },
        );
        return await sendWebhook(http, channel, body, {
          id: delivery.id,
          event: 'stock.available',
          now,
        });
      }
      const message = buildChannelMessage(
        alert,
        {
          searchUrl,
          storeUrl: first === undefined ? undefined : storeUrl(first),
          buyUrl: first === undefined ? undefined : buyUrl(first),
        },
        delivery.timeZone === undefined ? undefined : { timeZone: delivery.timeZone },
      );
      return await sendMessage(http, channel, message);
    },
    sendTest: async (row) => {
      const channel = readStoredChannel(row);
      const http = await connect();
      const searchesUrl = `${publicUrl}/`;
      const deliveryId = `test:${row.id}:${now()}`;
      if (channel.kind === 'webhook') {
        const body = buildWebhookTestBody({
          id: deliveryId,
          createdAt: new Date(now()).toISOString(),
          searchesUrl,
        });
        return await sendWebhook(http, channel, body, { id: deliveryId, event: 'test', now });
      }
      if (channel.kind === 'telegram') {
        const chatTitle = await confirmTelegramChat(http, settings.telegramApiBaseUrl, channel);
        const sent = await sendTelegram(
          http,
          settings.telegramApiBaseUrl,
          channel,
          buildTestMessage(searchesUrl),
        );
        return { ...sent, chatTitle };
      }
      return await sendMessage(http, channel, buildTestMessage(searchesUrl));
    },
    close: async () => {
      // A worker may be stopped twice (tests, shutdown races); closing once is enough. Without
      // a send there is no agent to close.
      if (agent === undefined || agent.closed || agent.destroyed) return;
      await agent.close();
    },
  };

  async function sendMessage(
    http: ChannelHttp,
    channel: Exclude<StoredChannel, { kind: 'webhook' }>,
    message: ReturnType<typeof buildChannelMessage>,
  ): Promise<{ note: string }> {
    switch (channel.kind) {
      case 'ntfy':
        return await sendNtfy(http, channel, message);
      case 'discord':
        return await sendDiscord(http, channel, message);
      case 'telegram':
        return await sendTelegram(http, settings.telegramApiBaseUrl, channel, message);
    }
  }
}
