import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { ERROR_REASONS, type ErrorBody } from '#shared/api/errors.ts';
import { AppError } from '#server/services/app-error.ts';

/**
 * The one error handler: expected errors become `{ reason, message, field? }` with their
 * status; validation errors are 400 naming the field; anything else is a 500 whose
 * details stay in the log.
 */
export const errorsPlugin = fp(
  (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      if (error instanceof AppError) {
        return reply.code(error.statusCode).send(toBody(error.reason, error.message, error.field));
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const first = error.validation[0];
        const location = error.validationContext ?? 'body';
        const field = (first?.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
        const message = first?.message ?? 'Invalid input';
        return reply
          .code(400)
          .send(
            toBody(
              ERROR_REASONS.invalidInput,
              `${field || location}: ${message}`,
              field || location,
            ),
          );
      }
      if (isResponseSerializationError(error)) {
        request.log.error(
          { err: error, issues: error.cause.issues },
          'response did not match its schema',
        );
        return reply.code(500).send(toBody(ERROR_REASONS.internal, 'Internal server error'));
      }
      const statusCode = typeof error.statusCode === 'number' ? error.statusCode : 500;
      if (statusCode === 429) {
        return reply
          .code(429)
          .send(toBody(ERROR_REASONS.rateLimited, 'Too many requests, slow down'));
      }
      if (statusCode >= 400 && statusCode < 500) {
        // Fastify's own client errors (bad JSON, wrong content type, body too large).
        return reply
          .code(statusCode)
          .send(toBody(ERROR_REASONS.invalidInput, error.message, 'body'));
      }
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send(toBody(ERROR_REASONS.internal, 'Internal server error'));
    });
  },
  { name: 'errors' },
);

function toBody(reason: string, message: string, field?: string): ErrorBody {
  return field === undefined ? { reason, message } : { reason, message, field };
}
