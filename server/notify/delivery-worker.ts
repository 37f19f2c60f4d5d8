import type { Agent } from 'node:https';
import pg from 'pg';
import { computeBackoff, type BackoffOptions } from '#shared/upstream/backoff.ts';
import type { AppConfig } from '#server/config/app-config.ts';
import type { Db } from '#server/db/database.ts';
import { retryWrite, WRITE_RETRY_DELAYS_MS } from '#server/db/retrying-write.ts';
import { createChannelDispatcher } from './channels/channel-dispatch.ts';
import { deliverAlert, type DeliveryContext } from './deliver-alert.ts';
import { classifyDeliveryError } from './delivery-error.ts';
import { createEmailSender } from './email-channel.ts';
import { OUTBOX_NOTIFY_CHANNEL } from './outbox.ts';
import {
  deliveryTargetKey,
  findDeliveryTargets,
  type DeliveryTarget,
} from '#server/db/repositories/notify-repository.ts';
import { claimDueRows, type AttemptOutcome, type ClaimedRow } from './outbox-claims.ts';
import { createOutcomeRecorder } from './outcome-recorder.ts';
import { createPushSender } from './push-channel.ts';
import { loadOrCreateNotifySecrets } from './secrets.ts';
import { createTextSender } from './text-channel.ts';

/** Where the worker reports; each line is self-contained. */
export type DeliveryLogger = {
  info: (message: string) => void;
  warn: (message: string) => void;
  error: (message: string) => void;
};

/** Settings of the delivery worker; everything but db, config and logger has a default. */
export type AlertDeliveryOptions = {
  db: Db;
  config: Pick<AppConfig, 'publicUrl' | 'dataDir' | 'supportEmail' | 'notify'>;
  logger: DeliveryLogger;
  /** Connection string for LISTEN; without it new rows are found by polling only. */
  databaseUrl?: string;
  /** How long a claim is exclusive; a worker that dies mid-send loses its rows after this. */
  leaseMs?: number;
  /** Rows sent concurrently at most; freed places are claimed again as sends finish. */
  batchSize?: number;
  /** Attempts before a transiently failing row is marked failed. */
  maxAttempts?: number;
  backoff?: BackoffOptions;
  /** Fallback poll period: catches retries coming due, expired leases and missed NOTIFYs. */
  pollIntervalMs?: number;
  /** HTTPS agent for push services (tests trust a self-signed local one with it). */
  pushAgent?: Agent;
  /**
   * The clock rows come due by (epoch ms): the watch's clock in tests and benchmarks, so a
   * message held for the cadence goes when that clock passes its release; default the
   * database's own now.
   */
  now?: () => number;
  /** Called once an attempt's outcome is recorded (metrics). */
  onSettled?: (row: ClaimedRow, outcome: AttemptOutcome) => void;
};

/** A running delivery worker. */
export type AlertDelivery = {
  /** Finishes in-flight sends, then stops; rows left are picked up by any other worker. */
  stop: () => Promise<void>;
  /** Delivers every row due now in this caller (tests and benchmarks), then returns. */
  drain: () => Promise<void>;
};

/**
 * Starts the outbox worker. State machine of a row: pending → (claim: sending, lease,
 * attempts+1) → sent | suppressed | failed | pending again with a backoff. A worker that
 * dies leaves "sending" rows whose lease expires; the next claim resends them. The write of
 * an outcome is fenced by the attempt number so a stale worker cannot overwrite a newer one.
 */
export async function startAlertDelivery(options: AlertDeliveryOptions): Promise<AlertDelivery> {
  const { db, config, logger } = options;
  const leaseMs = options.leaseMs ?? 120_000;
  const batchSize = options.batchSize ?? 20;
  const maxAttempts = options.maxAttempts ?? 10;
  const backoff = options.backoff ?? { baseMs: 10_000, maxMs: 30 * 60_000 };
  const pollIntervalMs = options.pollIntervalMs ?? 2_000;
  const secrets = await loadOrCreateNotifySecrets(db);
  const email = createEmailSender({
    smtpUrl: config.notify.smtpUrl,
    from: config.notify.mailFrom,
    dataDir: config.dataDir,
  });
  const context: DeliveryContext = {
    db,
    email,
    text: await createTextSender({ twilio: config.notify.twilio, dataDir: config.dataDir }),
    push: createPushSender({
      vapid: secrets.vapid,
      subject: config.notify.vapidSubject,
      ...(options.pushAgent === undefined ? {} : { agent: options.pushAgent }),
    }),
    unsubscribeKey: secrets.unsubscribeKey,
    publicUrl: config.publicUrl,
    storePageBaseUrl: config.notify.storePageBaseUrl,
    supportEmail: config.supportEmail,
    channels: createChannelDispatcher(config.notify.channels, {
      publicUrl: config.publicUrl,
      storePageBaseUrl: config.notify.storePageBaseUrl,
    }),
  };

  const recorder = createOutcomeRecorder(db);
  const settle = async (row: ClaimedRow, target: DeliveryTarget): Promise<void> => {
    let outcome: AttemptOutcome;
    if (row.attempt > maxAttempts) {
      // Only reachable through expired leases: a row whose sends keep killing workers.
      outcome = {
        status: 'failed',
        reason: `gave up after ${maxAttempts} attempts (last: ${row.last_error ?? 'lease expired'})`,
      };
    } else {
      try {
        outcome = await deliverAlert(context, row, target);
      } catch (error) {
        const failure = classifyDeliveryError(error);
        if (failure.kind === 'transient' && row.attempt < maxAttempts) {
          outcome = {
            status: 'pending',
            error: failure.message,
            retryInMs: computeBackoff(row.attempt - 1, backoff, Math.random),
          };
        } else {
          outcome = { status: 'failed', reason: failure.message };
        }
      }
    }
    let isRecorded: boolean;
    try {
      // The send is done: only its record is tried again (a sent row must not be resent, nor
      // counted as failed, because the database was away for a moment).
      isRecorded = await retryWrite(() => recorder.record(row, outcome), {
        delaysMs: fitDelays(WRITE_RETRY_DELAYS_MS, leaseMs / 2),
      });
    } catch (error) {
      logger.error(
        `alert ${row.id}: recording ${outcome.status} failed (${error instanceof Error ? error.message : String(error)}); the row is ${outcome.status === 'sent' ? 'sent again' : 'retried'} when its lease runs out`,
      );
      return;
    }
    if (isRecorded) options.onSettled?.(row, outcome);
    if (!isRecorded) {
      logger.warn(
        `alert ${row.id}: lease lost before recording ${outcome.status}; the newer claim decides`,
      );
    } else if (outcome.status === 'pending') {
      logger.warn(
        `alert ${row.id} (${row.channel}) attempt ${row.attempt} failed, retrying in ${Math.round(outcome.retryInMs / 1000)} s: ${outcome.error}`,
      );
    } else if (outcome.status === 'failed') {
      logger.error(`alert ${row.id} (${row.channel}) failed: ${outcome.reason}`);
    }
  };

  /**
   * Keeps up to batchSize sends going: claims as many rows as there are free places, reads
   * their users and searches in one go, and claims again as sends finish, so one slow
   * recipient does not hold back the rest of a burst. Returns when nothing is due and
   * nothing is in flight (or on stop, after the sends in flight have settled).
   */
  const deliverDueRows = async (): Promise<void> => {
    const inFlight = new Set<Promise<void>>();
    try {
      while (!isStopping) {
        const free = batchSize - inFlight.size;
        if (free <= 0) {
          await Promise.race(inFlight);
          continue;
        }
        const rows = await claimDueRows(
          db,
          free,
          leaseMs,
          options.now === undefined ? undefined : new Date(options.now()),
        );
        if (rows.length === 0 && inFlight.size === 0) {
          return;
        }
        const targets = await findDeliveryTargets(db, rows);
        for (const row of rows) {
          const target = targets.get(deliveryTargetKey(row)) ?? {
            user: undefined,
            search: undefined,
          };
          const sending: Promise<void> = settle(row, target)
            .catch((error: unknown) =>
              logger.error(
                `alert ${row.id}: delivery failed unexpectedly (${error instanceof Error ? error.message : String(error)}); the row is retried when its lease runs out`,
              ),
            )
            .finally(() => inFlight.delete(sending));
          inFlight.add(sending);
        }
        if (rows.length < free) {
          // The queue ran dry: let this wave finish instead of asking again after every send.
          await Promise.all(inFlight);
        }
      }
    } finally {
      await Promise.allSettled(inFlight);
    }
  };

  let isStopping = false;
  let isWakePending = false;
  let wakeUp: (() => void) | undefined;
  const wake = (): void => {
    isWakePending = true;
    wakeUp?.();
  };
  const listener =
    options.databaseUrl === undefined
      ? undefined
      : await listenForNewRows(options.databaseUrl, wake, logger);

  const runLoop = async (): Promise<void> => {
    while (!isStopping) {
      isWakePending = false;
      try {
        await deliverDueRows();
      } catch (error) {
        logger.error(
          `alert delivery round failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (isStopping || isWakePending) {
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollIntervalMs);
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeUp = undefined;
    }
  };
  const loop = runLoop();

  return {
    drain: deliverDueRows,
    stop: async () => {
      isStopping = true;
      wake();
      await loop;
      await listener?.end().catch(() => undefined);
      email.close();
      await context.channels.close();
    },
  };
}

/** The first of `delays` whose sum stays within `budgetMs`, so retries end while the claim holds. */
function fitDelays(delays: readonly number[], budgetMs: number): number[] {
  const fitting: number[] = [];
  let total = 0;
  for (const delay of delays) {
    if (total + delay > budgetMs) break;
    fitting.push(delay);
    total += delay;
  }
  return fitting;
}

/** A dedicated connection LISTENing for enqueue notifications; polling covers its outages. */
async function listenForNewRows(
  databaseUrl: string,
  wake: () => void,
  logger: DeliveryLogger,
): Promise<pg.Client | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('notification', wake);
  client.on('error', (error) =>
    logger.warn(`outbox listener lost (${error.message}); falling back to polling`),
  );
  try {
    await client.connect();
    await client.query(`LISTEN ${OUTBOX_NOTIFY_CHANNEL}`);
    return client;
  } catch (error) {
    logger.warn(
      `cannot LISTEN for new alerts (${error instanceof Error ? error.message : String(error)}); polling only`,
    );
    await client.end().catch(() => undefined);
    return undefined;
  }
}
