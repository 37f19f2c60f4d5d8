import type { AxiosError } from 'axios';
import { HostRequestError } from './host-errors.ts';

// This module is part of every page (the query cache's retry rule uses it), so it recognises
// axios's errors by their mark, as axios's own isAxiosError does, instead of importing axios.
function isAxiosError(error: unknown): error is AxiosError {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { isAxiosError?: unknown }).isAxiosError === true
  );
}

/** Text for failures that are not HTTP answers (network down, aborted, bad URL). */
export const UNEXPECTED_ERROR_TEXT = 'An unexpected error occurred';

/** A request that failed before any HTTP answer came back. */
export class UnexpectedRequestError extends Error {
  /** Wraps the original failure under the spec's generic text. */
  constructor(cause: unknown) {
    super(UNEXPECTED_ERROR_TEXT, { cause });
    this.name = 'UnexpectedRequestError';
  }
}

/** A public read (public-reads.ts) that was answered with a status outside 200 to 299. */
export class HttpStatusError extends Error {
  readonly status: number;
  /** The answer's body, parsed as JSON when it was JSON. */
  readonly body: unknown;

  /** Names the request and keeps the answer, as axios does for the signed-in calls. */
  constructor(method: string, path: string, status: number, body: unknown) {
    super(`${method} ${path} failed with status code ${status}`);
    this.name = 'HttpStatusError';
    this.status = status;
    this.body = body;
  }
}

/** The fields of an error body (shared/api/errors.ts), each absent when missing. */
export type ReadErrorBody = { code?: string; reason?: string; message?: string; field?: string };

/** The HTTP status of a failed API call, undefined when there was no answer. */
export function readErrorStatus(error: unknown): number | undefined {
  if (error instanceof HostRequestError || error instanceof HttpStatusError) return error.status;
  return isAxiosError(error) ? error.response?.status : undefined;
}

/**
 * True when a request failed without any answer: the network, CORS, an abort, a token that
 * could not be had. The app's main process always answers, so its errors never count.
 */
export function isUnansweredRequest(error: unknown): boolean {
  if (error instanceof UnexpectedRequestError) return true;
  return isAxiosError(error) && error.response === undefined;
}

/** The `{ code, reason, message }` error body of a failed API call. */
export function readErrorBody(error: unknown): ReadErrorBody {
  if (error instanceof HostRequestError) {
    return { code: error.code, reason: error.reason, message: error.message };
  }
  if (!isAxiosError(error) && !(error instanceof HttpStatusError)) {
    return {};
  }
  const body: unknown = error instanceof HttpStatusError ? error.body : error.response?.data;
  if (typeof body !== 'object' || body === null) {
    return {};
  }
  const { code, reason, message, field } = body as Record<string, unknown>;
  const readText = (value: unknown) =>
    typeof value === 'string' && value !== '' ? value : undefined;
  return {
    code: readText(code),
    reason: readText(reason),
    message: readText(message),
    ...(readText(field) === undefined ? {} : { field: readText(field) }),
  };
}

/** The error's machine code (shared/api/errors.ts), if the server sent one. */
export function readErrorCode(error: unknown): string | undefined {
  return readErrorBody(error).code;
}

/** The text to show for a failed request: the spec's generic text when nothing answered. */
export function describeRequestError(error: unknown, answeredText: string): string {
  return isUnansweredRequest(error) ? UNEXPECTED_ERROR_TEXT : answeredText;
}

/** How a form names the fields the server may refuse (an API key is not a word to show). */
const FIELD_NAMES: Readonly<Record<string, string>> = {
  url: 'address',
  server_url: 'server URL',
  topic: 'topic',
  token: 'access token',
  bot_token: 'bot token',
  chat_id: 'chat id',
  label: 'name',
  kind: 'channel type',
  email: 'email address',
  phone_number: 'phone number',
  send_text_updates: 'text updates setting',
  max_distance_miles: 'distance',
};

/** "server URL" for `server_url`; an unknown key in words ("product_models.1" -> "product models"). */
function nameField(field: string): string {
  const known = FIELD_NAMES[field] ?? FIELD_NAMES[field.split('.')[0] ?? ''];
  return known ?? field.replace(/\.\d+/g, '').replace(/[._]+/g, ' ').trim();
}

/** A sentence ends with a full stop (or the ellipsis of an example). */
function endSentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

/**
 * A 400's detail as a sentence for the person: the server writes "url: must be an https://
 * address" (field key first, for programs); this says "The address must be an https://
 * address." Details already written as sentences (they start with a capital) are kept, and
 * zod's generic ones become plain words. Undefined when the error is not a refused field.
 */
export function describeInvalidInput(error: unknown): string | undefined {
  const { code, message, field } = readErrorBody(error);
  if (code !== 'invalid_input' || message === undefined) return undefined;
  const separator = message.indexOf(': ');
  const key = field ?? (separator > 0 ? message.slice(0, separator) : undefined);
  const detail =
    key !== undefined && message.startsWith(`${key}: `) ? message.slice(key.length + 2) : message;
  if (key === undefined || key === 'body') return endSentence(detail);
  const name = nameField(key);
  if (/^(required|invalid input: expected \w+, received undefined)/i.test(detail)) {
    return `Please fill in the ${name}.`;
  }
  if (/^too big/i.test(detail)) return `The ${name} is too long.`;
  if (/^too small/i.test(detail)) return `The ${name} is too short.`;
  if (/^invalid/i.test(detail)) return `The ${name} isn't valid. Please check it.`;
  if (/^[A-Z]/.test(detail)) return endSentence(detail);
  return endSentence(`The ${name} ${detail}`);
}

/**
 * Create-search error line per spec: "Error: " and the server's reason (a sentence), else its
 * message, else "unknown"; a request that got no answer shows the generic text.
 */
export function describeCreateSearchError(error: unknown): string {
  if (isUnansweredRequest(error)) return UNEXPECTED_ERROR_TEXT;
  const { reason, message } = readErrorBody(error);
  return `Error: ${reason ?? message ?? 'unknown'}`;
}

/**
 * Retry policy for reads: at most 3 retries (TanStack's default delay doubles from 1 s to
 * 30 s). Client errors are final: a 403 or 404 will not change by asking again, and the
 * spec forbids retrying a 403 on the search list. 408 and 429 are transient and retried.
 */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  // The app's main process answers from memory: asking again gives the same answer.
  if (error instanceof HostRequestError) return false;
  const status = readErrorStatus(error);
  if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) {
    return false;
  }
  return failureCount < 3;
}
