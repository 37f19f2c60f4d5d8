import { ERROR_REASONS } from '#shared/api/errors.ts';

/** An expected failure with an HTTP status and a message safe to show the caller. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly reason: string;
  readonly field: string | undefined;

  constructor(statusCode: number, reason: string, message: string, field?: string) {
    super(message);
    this.name = 'AppError';
    this.statusCode = statusCode;
    this.reason = reason;
    this.field = field;
  }
}

/** 404 for anything missing or owned by someone else: existence is not disclosed. */
export function notFound(what: string): AppError {
  return new AppError(404, ERROR_REASONS.notFound, `${what} not found`);
}

/** 400 naming the offending field. */
export function invalidInput(field: string, message: string): AppError {
  return new AppError(400, ERROR_REASONS.invalidInput, `${field}: ${message}`, field);
}
