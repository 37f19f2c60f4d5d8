import {
  MAX_CHANNELS_PER_ACCOUNT,
  type Channel,
  type ChannelCreated,
  type ChannelCreateValues,
  type ChannelTestResult,
  type SearchChannels,
} from '#shared/api/channels.ts';
import { ERROR_CODES } from '#shared/api/errors.ts';
import { getPlan, isPaidPlan, PLANS } from '#shared/domain/plans.ts';
import type { Db } from '#server/db/database.ts';
import { findOwnedSearch } from '#server/db/repositories/searches-repository.ts';
import type { UserRow } from '#server/db/schema.ts';
import { ChannelSendError } from './channel-http.ts';
import { describeTarget, maskWebhookUrl, readStoredChannel } from './channel-config.ts';
import type { ChannelDispatcher } from './channel-dispatch.ts';
import {
  countUserChannels,
  deleteUserChannel,
  findUserChannel,
  insertUserChannel,
  listExcludedChannelIds,
  listUserChannels,
  recordChannelSuccess,
  replaceExcludedChannels,
  resumeUserChannel,
  type UserChannelRow,
} from '#server/db/repositories/channel-repository.ts';
import { checkTargetAddress, TargetRefusedError, type TargetPolicy } from './target-guard.ts';
import { createSigningSecret } from './webhook-sender.ts';
import { AppError, invalidInput, notFound } from '#server/base/app-error.ts';
import { retryWrite } from '#server/db/retrying-write.ts';

/** Discord's webhook hosts; others are refused unless private targets are allowed (development). */
const DISCORD_HOSTS = new Set([
  'discord.com',
  'discordapp.com',
  'ptb.discord.com',
  'canary.discord.com',
]);

/** Channels are for every paid plan: a free account gets the same 403 for any channel call. */
export function requireChannelAccess(user: UserRow): void {
  if (isPaidPlan(user.plan)) return;
  const paid = PLANS.filter((plan) => plan.monthlyCost > 0).map((plan) => plan.title);
  throw new AppError(
    403,
    ERROR_CODES.subscriptionRequired,
    `The ${getPlan(user.plan).title} plan has no alert channels`,
    { reason: `Alert channels need a ${paid.join(' or ')} plan. See the Pricing page to upgrade.` },
  );
}

/** A row as its owner sees it: never the secret. */
export function toChannel(row: UserChannelRow): Channel {
  return {
    id: row.id,
    kind: row.kind,
    label: row.label,
    target: describeTarget(readStoredChannel(row)),
    status: row.paused_at === null ? 'active' : 'paused',
    pause_reason: row.pause_reason,
    paused_at: row.paused_at?.toISOString() ?? null,
    last_failure: row.last_failure,
    last_failure_at: row.last_failure_at?.toISOString() ?? null,
    last_success_at: row.last_success_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

/** The user's channels. */
export async function listChannels(db: Db, user: UserRow): Promise<Channel[]> {
  requireChannelAccess(user);
  return (await listUserChannels(db, user.id)).map(toChannel);
}

/** Checks a user-supplied address, turning a refusal into a 400 naming the field. */
async function checkAddress(value: string, field: string, policy: TargetPolicy): Promise<URL> {
  try {
    return await checkTargetAddress(value, field, policy);
  } catch (error) {
    if (error instanceof TargetRefusedError) throw invalidInput(error.field, error.message);
    throw error;
  }
}

/**
 * Validates the targets (https, public after DNS resolution unless the development switch is
 * on), stores the channel and answers it with a webhook's signing secret, which is never
 * answered again.
 */
export async function createChannel(
  db: Db,
  user: UserRow,
  input: ChannelCreateValues,
  policy: TargetPolicy,
): Promise<ChannelCreated> {
  requireChannelAccess(user);
  if ((await countUserChannels(db, user.id)) >= MAX_CHANNELS_PER_ACCOUNT) {
    throw new AppError(
      400,
      ERROR_CODES.invalidInput,
      `kind: at most ${MAX_CHANNELS_PER_ACCOUNT} channels per account`,
      {
        field: 'kind',
        reason: `You can add up to ${MAX_CHANNELS_PER_ACCOUNT} channels. Delete one to add another.`,
      },
    );
  }
  let signingSecret: string | null = null;
  let stored: { settings: Record<string, unknown>; secret: Record<string, unknown> };
  let defaultLabel: string;
  switch (input.kind) {
    case 'ntfy': {
      const url = await checkAddress(input.server_url, 'server_url', policy);
      const server = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
      stored = {
        settings: { server_url: server, topic: input.topic },
        secret: { token: input.token === undefined || input.token === '' ? null : input.token },
      };
      defaultLabel = `ntfy ${input.topic}`;
      break;
    }
    case 'discord': {
      const url = await checkAddress(input.url, 'url', policy);
      if (!policy.allowPrivateTargets && !DISCORD_HOSTS.has(url.hostname)) {
        throw invalidInput('url', 'must be a discord.com webhook address');
      }
      const webhookId = /\/webhooks\/(\d+)\//.exec(url.pathname)?.[1] ?? '';
      stored = {
        settings: { host: url.hostname, webhook_id: webhookId },
        secret: { url: url.toString() },
      };
      defaultLabel = 'Discord';
      break;
    }
    case 'telegram':
      stored = {
        settings: { chat_id: input.chat_id, chat_title: null },
        secret: { bot_token: input.bot_token },
      };
      defaultLabel = 'Telegram';
      break;
    case 'webhook': {
      const url = await checkAddress(input.url, 'url', policy);
      signingSecret = createSigningSecret();
      stored = {
        settings: { display_url: maskWebhookUrl(url.toString()) },
        secret: { url: url.toString(), signing_secret: signingSecret },
      };
      defaultLabel = `Webhook ${url.hostname}`;
      break;
    }
  }
  const row = await insertUserChannel(db, {
    userId: user.id,
    kind: input.kind,
    label: input.label === undefined || input.label === '' ? defaultLabel : input.label,
    ...stored,
  });
  return { ...toChannel(row), secret: signingSecret };
}

/** Removes one of the user's channels; 404 for anyone else's. */
export async function removeChannel(db: Db, user: UserRow, channelId: string): Promise<void> {
  requireChannelAccess(user);
  if (!(await deleteUserChannel(db, user.id, channelId))) throw notFound('Channel');
}

/**
 * Sends a test message now (not through the outbox: the person is waiting for it). `hooks.admit`
 * runs once the channel is known to be the user's, before anything is sent: it throws when
 * the tests' limits are spent. Success resumes a paused channel; the answer says whether the
 * message was delivered in our words, never the receiver's status code or body.
 */
export async function testChannel(
  db: Db,
  user: UserRow,
  channelId: string,
  dispatcher: ChannelDispatcher,
  hooks: { admit?: () => Promise<void>; warn?: (message: string) => void } = {},
): Promise<ChannelTestResult> {
  requireChannelAccess(user);
  const row = await findUserChannel(db, user.id, channelId);
  if (row === undefined) throw notFound('Channel');
  await hooks.admit?.();
  let sent: Awaited<ReturnType<ChannelDispatcher['sendTest']>>;
  try {
    sent = await dispatcher.sendTest(row);
  } catch (error) {
    if (error instanceof ChannelSendError) return { delivered: false, message: error.summary };
    throw error;
  }
  const settings =
    sent.chatTitle === undefined
      ? undefined
      : { ...readStoredChannel(row).settings, chat_title: sent.chatTitle };
  // The message is out: a failed write must not turn it into a failure, nor send it again.
  await retryWrite(async () => {
    await recordChannelSuccess(db, row.id, settings);
    if (row.paused_at !== null) await resumeUserChannel(db, row.id);
  }).catch((error: unknown) =>
    hooks.warn?.(
      `channel ${row.id}: test delivered, but its success was not recorded (${error instanceof Error ? error.message : String(error)})`,
    ),
  );
  return {
    delivered: true,
    message:
      sent.chatTitle === undefined
        ? 'Test message sent.'
        : `Test message sent to the chat “${sent.chatTitle}”.`,
  };
}

/** Which of the user's channels a search uses. */
export async function listSearchChannels(
  db: Db,
  user: UserRow,
  searchId: string,
): Promise<SearchChannels> {
  requireChannelAccess(user);
  const search = await findOwnedSearch(db, user.id, searchId);
  if (search === undefined) throw notFound('Search');
  const excluded = await listExcludedChannelIds(db, searchId);
  const channels = await listUserChannels(db, user.id);
  return {
    channels: channels.map((row) => ({ ...toChannel(row), is_used: !excluded.has(row.id) })),
  };
}

/** Sets the channels a search uses; the user's other channels are left out for it. */
export async function saveSearchChannels(
  db: Db,
  user: UserRow,
  searchId: string,
  channelIds: readonly string[],
): Promise<SearchChannels> {
  requireChannelAccess(user);
  await db.transaction().execute(async (trx) => {
    const search = await findOwnedSearch(trx, user.id, searchId);
    if (search === undefined) throw notFound('Search');
    const owned = new Set((await listUserChannels(trx, user.id)).map((row) => row.id));
    const unknown = channelIds.find((id) => !owned.has(id));
    if (unknown !== undefined) throw invalidInput('channel_ids', `no channel ${unknown}`);
    const wanted = new Set(channelIds);
    await replaceExcludedChannels(
      trx,
      searchId,
      [...owned].filter((id) => !wanted.has(id)),
    );
  });
  return await listSearchChannels(db, user, searchId);
}
