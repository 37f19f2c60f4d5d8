import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type {
  ConnectionError,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import fp from 'fastify-plugin';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { buildErrorBody, ERROR_CODES } from '#shared/api/errors.ts';
import { AppError } from '#server/base/app-error.ts';

/**
 * The one error handler: expected errors become `{ code, reason, message, field? }` with
 * their status; validation errors are 400 naming the field; anything else is a 500 whose
 * details stay in the log.
 */
export const errorsPlugin = fp(
  (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      if (error instanceof AppError) {
        return reply.code(error.statusCode).send(error.toBody());
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const first = error.validation[0];
        const location = error.validationContext ?? 'body';
        const field = (first?.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
        const message = first?.message ?? 'Invalid input';
        return reply.code(400).send(
          buildErrorBody(ERROR_CODES.invalidInput, `${field || location}: ${message}`, {
            field: field || location,
          }),
        );
      }
      if (isResponseSerializationError(error)) {
        request.log.error(
          { err: error, issues: error.cause.issues },
          'response did not match its schema',
        );
        return reply.code(500).send(buildErrorBody(ERROR_CODES.internal, 'Internal server error'));
      }
      if (isUnstorableTextError(error)) {
        // Text PostgreSQL cannot hold (a NUL character): the input's fault, found at the query.
        return reply
          .code(400)
          .send(buildErrorBody(ERROR_CODES.invalidInput, 'Text must not contain NUL characters'));
      }
      const statusCode = typeof error.statusCode === 'number' ? error.statusCode : 500;
      if (statusCode === 429) {
        // The rate limiter's own answer says when to try again: keep it as the detail.
        const message = typeof error.message === 'string' ? error.message : '';
        return reply
          .code(429)
          .send(buildErrorBody(ERROR_CODES.rateLimited, message || 'Too many requests, slow down'));
      }
      if (statusCode >= 400 && statusCode < 500) {
        // Fastify's own client errors (bad JSON, wrong content type, body too large).
        return reply
          .code(statusCode)
          .send(buildErrorBody(ERROR_CODES.invalidInput, error.message, { field: 'body' }));
      }
      if (isDatabaseUnavailable(error)) {
        // A restart of the database (the stack restarts an embedded one; a pool reconnects to
        // an external one): the client may simply try again shortly.
        request.log.warn({ err: error }, 'database unavailable');
        return reply
          .code(503)
          .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
          .send(buildErrorBody(ERROR_CODES.serviceUnavailable, 'The database is unavailable'));
      }
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send(buildErrorBody(ERROR_CODES.internal, 'Internal server error'));
    });
  },
  { name: 'errors' },
);

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before any route sees it
 * (headers over 16 KiB, a malformed request, a timeout) is answered with the API's error body.
 */
export function answerClientError(error: ConnectionError, socket: Socket): void {
  // The client hung up: there is no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) {
    return;
  }
  const [status, body] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, buildErrorBody(ERROR_CODES.requestTooLarge, 'Request header fields too large')]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, buildErrorBody(ERROR_CODES.invalidInput, 'The request did not arrive in time')]
        : [400, buildErrorBody(ERROR_CODES.invalidInput, 'Malformed HTTP request')];
  const json = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(json)}\r\n` +
        'Connection: close\r\n\r\n' +
        json,
    );
  }
  socket.destroy(error);
}

/** Seconds a client is asked to wait while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket errors of a database that is not there (refused, reset, gone mid-connect). */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

/**
 * True for failures that mean the database is down or restarting rather than a bug: socket
 * errors, node-postgres's lost connections, SQLSTATE class 08 (connection exception) and
 * 57P01-57P03 (shutting down, crashed, starting up).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (UNREACHABLE_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code)) {
    return true;
  }
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(
    error.message,
  );
}

/** SQLSTATEs of text the database cannot store: character_not_in_repertoire, untranslatable_character. */
const UNSTORABLE_TEXT_STATES = new Set(['22021', '22P05']);

function isUnstorableTextError(error: unknown): boolean {
  return (
    error instanceof Error &&
    'code' in error &&
    typeof error.code === 'string' &&
    UNSTORABLE_TEXT_STATES.has(error.code)
  );
}

/**
 * Fastify's `frameworkErrors`: a URL the router cannot read (a broken percent-encoding, a
 * path segment over the length limit) answered with the API's error body, not Fastify's.
 */
export function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const statusCode =
    typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
      ? error.statusCode
      : 400;
  void reply
    .code(statusCode)
    .send(
      buildErrorBody(ERROR_CODES.invalidInput, 'The request URL is not valid', { field: 'url' }),
    );
}
