import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

/** Replies that did not match their route's response schema, as readable lines. */
export type ResponseSchemaChecks = {
  /** Throws with every mismatch seen since the last call, then forgets them. */
  assertNoMismatch: () => void;
};

function findResponseSchema(request: FastifyRequest, statusCode: number): unknown {
  const responses = (
    request.routeOptions.schema as { response?: Record<string, unknown> } | undefined
  )?.response;
  if (responses === undefined) {
    return undefined;
  }
  return (
    responses[String(statusCode)] ??
    responses[`${String(statusCode).charAt(0)}xx`] ??
    responses.default
  );
}

function readJsonPayload(reply: FastifyReply, payload: unknown): unknown {
  const contentType = String(reply.getHeader('content-type') ?? '');
  if (!contentType.includes('json')) {
    return undefined;
  }
  if (typeof payload === 'string') {
    return JSON.parse(payload) as unknown;
  }
  if (Buffer.isBuffer(payload)) {
    return JSON.parse(payload.toString('utf8')) as unknown;
  }
  return undefined;
}

/**
 * Checks every JSON reply of `app` against its route's zod response schema, the contract
 * the server no longer enforces per request (its serializer writes, it does not validate).
 * Call before `app.ready()`.
 */
export function checkResponseSchemas(app: FastifyInstance): ResponseSchemaChecks {
  const mismatches: string[] = [];
  app.addHook('onSend', async (request, reply, payload) => {
    const schema = findResponseSchema(request, reply.statusCode);
    if (!(schema instanceof z.ZodType)) {
      return payload;
    }
    let body: unknown;
    try {
      body = readJsonPayload(reply, payload);
    } catch (error) {
      mismatches.push(
        `${request.method} ${request.url} ${reply.statusCode}: not JSON (${String(error)})`,
      );
      return payload;
    }
    if (body === undefined) {
      return payload;
    }
    const result = schema.safeParse(body);
    if (!result.success) {
      mismatches.push(
        `${request.method} ${request.url} ${reply.statusCode} does not match its schema: ${z.prettifyError(result.error)}`,
      );
    }
    return payload;
  });
  return {
    assertNoMismatch: () => {
      if (mismatches.length > 0) {
        throw new Error(mismatches.splice(0).join('\n'));
      }
    },
  };
}
