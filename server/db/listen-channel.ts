import pg from 'pg';

/** What a channel listener reports. */
export type ChannelHandlers = {
  /** A notification's payload. */
  onNotification: (payload: string) => void;
  /**
   * The connection was lost: notifications sent until it is back are gone, so whatever they
   * would have invalidated must be treated as changed.
   */
  onGap: () => void;
  /** Reports the loss of the connection (it is retried every `retryMs`). */
  warn: (message: string) => void;
};

/**
 * LISTENs on `channel` over a dedicated connection of its own (a pooled one would be handed
 * to other queries), retrying every `retryMs` while it cannot connect or after a loss (each
 * reported through `warn` and `onGap`, and `onGap` again once back). Returns the function
 * that stops listening.
 */
export async function listenToChannel(
  connectionString: string,
  channel: string,
  handlers: ChannelHandlers,
  options: { retryMs?: number } = {},
): Promise<() => Promise<void>> {
  const retryMs = options.retryMs ?? 5_000;
  let client: pg.Client | undefined;
  let isStopped = false;
  let retry: NodeJS.Timeout | undefined;
  const scheduleRetry = (): void => {
    if (isStopped) return;
    retry = setTimeout(() => void connect().catch(onLost), retryMs);
    retry.unref();
  };
  const onLost = (error: unknown): void => {
    handlers.warn(
      `lost the ${channel} listener (${error instanceof Error ? error.message : String(error)}); reconnecting`,
    );
    handlers.onGap();
    scheduleRetry();
  };
  let hasConnected = false;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString });
    next.on('notification', (message) => handlers.onNotification(message.payload ?? ''));
    next.on('error', (error) => {
      void next.end().catch(() => undefined);
      if (client !== next) return;
      client = undefined;
      onLost(error);
    });
    try {
      await next.connect();
      // Identifiers cannot be parameters; channel names are this program's constants.
      await next.query(`LISTEN ${channel}`);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    if (isStopped) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    // Whatever was cached while the connection was down may predate a change it missed.
    if (hasConnected) handlers.onGap();
    hasConnected = true;
  };
  await connect().catch(onLost);
  return async () => {
    isStopped = true;
    if (retry !== undefined) clearTimeout(retry);
    const current = client;
    client = undefined;
    await current?.end().catch(() => undefined);
  };
}
