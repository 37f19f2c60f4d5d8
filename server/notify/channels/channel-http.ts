import type { Agent, Response } from 'undici';
import { loadOnFirstUse } from '#server/base/load-on-first-use.ts';
import { DeliveryError, type DeliveryErrorKind } from '../delivery-error.ts';
import { checkTargetUrl, TargetRefusedError, type TargetPolicy } from './target-guard.ts';

/** How channel sends reach the network: one guarded agent, a timeout, the target policy. */
export type ChannelHttp = { agent: Agent; timeoutMs: number; policy: TargetPolicy };

/**
 * A channel's failure. `message` is the status line kept for the channel's last failure (the
 * receiver's HTTP status when one answered, never its body); `summary` is what a test answers
 * on demand, in our words only: a status code or network error code there would let anyone
 * with an account probe hosts through us.
 */
export class ChannelSendError extends DeliveryError {
  readonly httpStatus: number | null;
  readonly summary: string;

  constructor(
    kind: DeliveryErrorKind,
    message: string,
    httpStatus: number | null,
    summary: string = message,
  ) {
    super(kind, message);
    this.name = 'ChannelSendError';
    this.httpStatus = httpStatus;
    this.summary = summary;
  }
}

/** An answer: its status and, when it was JSON, what it said (for Telegram's and Discord's fields). */
export type ChannelAnswer = { status: number; json: unknown };

/** undici's fetch (the one its agents work with) loads with the first send, not at start. */
const loadFetch = loadOnFirstUse(async () => (await import('undici')).fetch);

/** Receivers' bodies are read only this far: enough for an API's JSON, not for a flood. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * POSTs `body` as JSON. `isUserTarget` re-checks a user-supplied address (scheme, literal
 * private IPs; the agent's lookup checks resolved ones). Redirects are not followed: a
 * redirect could lead anywhere, including inside our network.
 */
export async function postJson(
  http: ChannelHttp,
  request: {
    url: string;
    body: string;
    headers?: Record<string, string>;
    isUserTarget: boolean;
    /** Names the receiver in messages ("Discord", "the webhook"). */
    receiver: string;
  },
): Promise<ChannelAnswer> {
  if (request.isUserTarget) {
    try {
      checkTargetUrl(request.url, 'url', http.policy);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ChannelSendError(
        'permanent',
        `${request.receiver}: address refused (${reason})`,
        null,
        `Not delivered: the address was refused (${reason}).`,
      );
    }
  }
  const fetch = await loadFetch();
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Shelfwatch-Alerts/1.0',
        ...request.headers,
      },
      body: request.body,
      redirect: 'manual',
      dispatcher: http.agent,
      signal: AbortSignal.timeout(http.timeoutMs),
    });
  } catch (error) {
    throw describeNetworkFailure(error, request.receiver, http.timeoutMs);
  }
  const text = await readLimited(response, http.timeoutMs);
  let json: unknown;
  try {
    json = text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    json = undefined;
  }
  return { status: response.status, json };
}

/** Turns an HTTP status into the error the worker retries (429, 408, 5xx) or gives up on. */
export function failureForStatus(receiver: string, status: number, detail = ''): ChannelSendError {
  const isRetryable = status === 408 || status === 429 || status >= 500;
  const isRedirect = status >= 300 && status < 400;
  const line = isRedirect
    ? `${receiver} answered ${status} (a redirect, which is not followed)`
    : `${receiver} answered ${status}${detail === '' ? '' : ` (${detail})`}`;
  const why = isRedirect ? 'it redirects elsewhere, which is not followed' : detail;
  const summary = `Not delivered: ${nameInSentence(receiver)} did not accept the message${why === '' ? '' : ` (${why})`}.`;
  return new ChannelSendError(isRetryable ? 'transient' : 'permanent', line, status, summary);
}

/** A receiver's name inside a sentence ("the webhook", "Discord"). */
function nameInSentence(receiver: string): string {
  return receiver.replace(/^The /, 'the ');
}

/** Reads at most MAX_BODY_BYTES of the answer as text; the rest is dropped. */
async function readLimited(response: Response, timeoutMs: number): Promise<string> {
  if (response.body === null) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  const timer = setTimeout(() => void response.body?.cancel().catch(() => undefined), timeoutMs);
  try {
    for await (const chunk of response.body) {
      const buffer = Buffer.from(chunk as Uint8Array);
      chunks.push(buffer);
      size += buffer.length;
      if (size >= MAX_BODY_BYTES) {
        await response.body.cancel().catch(() => undefined);
        break;
      }
    }
  } catch {
    // A body cut off mid-way still has its status; the status is what counts.
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8');
}

/** Network failures: a refused private address is permanent, anything else is retried. */
function describeNetworkFailure(error: unknown, receiver: string, timeoutMs: number): Error {
  const causes: unknown[] = [error];
  let cursor: unknown = error;
  while (cursor instanceof Error && cursor.cause !== undefined) {
    causes.push(cursor.cause);
    cursor = cursor.cause;
  }
  const refused = causes.find((cause) => cause instanceof TargetRefusedError);
  if (refused instanceof TargetRefusedError) {
    return new ChannelSendError(
      'permanent',
      `${receiver}: ${refused.message}`,
      null,
      `Not delivered: the address was refused (${refused.message}).`,
    );
  }
  const isTimeout = causes.some(
    (cause) =>
      cause instanceof Error &&
      (cause.name === 'TimeoutError' || cause.name === 'AbortError' || /timeout/i.test(cause.name)),
  );
  if (isTimeout) {
    const line = `${receiver} did not answer within ${Math.round(timeoutMs / 1000)} s`;
    return new ChannelSendError(
      'transient',
      line,
      null,
      `Not delivered: ${nameInSentence(receiver)} did not answer in time.`,
    );
  }
  const code = causes
    .map((cause) => (cause as { code?: unknown } | undefined)?.code)
    .find((value) => typeof value === 'string');
  return new ChannelSendError(
    'transient',
    `${receiver} could not be reached${code === undefined ? '' : ` (${String(code)})`}`,
    null,
    `Not delivered: ${nameInSentence(receiver)} could not be reached.`,
  );
}
