import { buildErrorBody, ERROR_CODES, type ErrorBody, type ErrorCode } from '#shared/api/errors.ts';

/**
 * An expected failure with an HTTP status: `code` for programs, `reason` a sentence for the
 * person (the code's general one unless given), `message` the detail safe to show the caller.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly reason: string | undefined;
  readonly field: string | undefined;

  constructor(
    statusCode: number,
    code: ErrorCode,
    message: string,
    options: { reason?: string; field?: string } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = statusCode;
    this.code = code;
    this.reason = options.reason;
    this.field = options.field;
  }

  /** The answer's body. */
  toBody(): ErrorBody {
    return buildErrorBody(this.code, this.message, { reason: this.reason, field: this.field });
  }
}

/** 404 for anything missing or owned by someone else: existence is not disclosed. */
export function notFound(what: string): AppError {
  return new AppError(404, ERROR_CODES.notFound, `${what} not found`, {
    reason: `We couldn't find this ${what.toLowerCase()}. It may have been deleted.`,
  });
}

/** 400 naming the offending field. */
export function invalidInput(field: string, message: string): AppError {
  return new AppError(400, ERROR_CODES.invalidInput, `${field}: ${message}`, { field });
}
