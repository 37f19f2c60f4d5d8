import { buildErrorBody } from '#shared/api/errors.ts';
import type { IpcError } from '#shared/desktop/ipc-contract.ts';

// Handlers throw this for failures the user can act on (a bad address, the free search limit);
// the IPC router turns it into the IpcError the window shows. Anything else thrown is a bug
// and reaches the window only as a generic `internal_error`.

/** An expected failure of a request, answered to the window as an IpcError. */
export class DesktopError extends Error {
  /** Stable code the window can branch on, e.g. `free_search_limit`. */
  readonly code: string;
  /** The sentence the window shows the person. */
  readonly reason: string;
  /** The input field at fault, when there is one. */
  readonly field?: string;

  /** `message` is the detail; without one the reason is the whole story. */
  constructor(code: string, reason: string, options: { message?: string; field?: string } = {}) {
    super(options.message ?? reason);
    this.name = 'DesktopError';
    this.code = code;
    this.reason = reason;
    if (options.field !== undefined) this.field = options.field;
  }

  /** The error as the window receives it (no stack, no cause). */
  toIpcError(): IpcError {
    return buildErrorBody(this.code, this.message, { reason: this.reason, field: this.field });
  }
}

/** True for a DesktopError, also one thrown by another copy of this module (bundling). */
export function isDesktopError(error: unknown): error is DesktopError {
  return (
    error instanceof DesktopError ||
    (error instanceof Error &&
      error.name === 'DesktopError' &&
      typeof (error as { code?: unknown }).code === 'string' &&
      typeof (error as { toIpcError?: unknown }).toIpcError === 'function')
  );
}
