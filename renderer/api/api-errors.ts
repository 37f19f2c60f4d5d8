import { isAxiosError } from 'axios';
import { HostRequestError } from './host-errors.ts';

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

/** The HTTP status of a failed API call, undefined when there was no answer. */
export function readErrorStatus(error: unknown): number | undefined {
  if (error instanceof HostRequestError) return error.status;
  return isAxiosError(error) ? error.response?.status : undefined;
}

/** The `{ reason, message }` error body of a failed API call, fields absent when missing. */
export function readErrorBody(error: unknown): { reason?: string; message?: string } {
  if (error instanceof HostRequestError) {
    return { reason: error.reason, message: error.message };
  }
  if (!isAxiosError(error)) {
    return {};
  }
  const body: unknown = error.response?.data;
  if (typeof body !== 'object' || body === null) {
    return {};
  }
  const { reason, message } = body as Record<string, unknown>;
  return {
    reason: typeof reason === 'string' && reason !== '' ? reason : undefined,
    message: typeof message === 'string' && message !== '' ? message : undefined,
  };
}

/** The error's stable reason code (errors.ts), if the server sent one. */
export function readErrorReason(error: unknown): string | undefined {
  return readErrorBody(error).reason;
}

/** Create-search error line per spec: the server's reason, else its message, else "unknown". */
export function describeCreateSearchError(error: unknown): string {
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
