import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { buildErrorBody, ERROR_CODES } from '#shared/api/errors.ts';
import { AppError } from '#server/services/app-error.ts';

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
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send(buildErrorBody(ERROR_CODES.internal, 'Internal server error'));
    });
  },
  { name: 'errors' },
);
