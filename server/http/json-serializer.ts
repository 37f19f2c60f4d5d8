import type { FastifyReply, FastifySerializerCompiler } from 'fastify';
import fastJsonStringify, { type Schema as FastJsonSchema } from 'fast-json-stringify';
import { z } from 'zod';

/** A JSON Schema node as z.toJSONSchema writes it (draft-7). */
type JsonSchemaNode = { [keyword: string]: unknown };

/**
 * Keywords fast-json-stringify does not need to write a value. Dropping them keeps its
 * generated code to plain property writes: the schema describes replies, it does not
 * check them (route tests parse replies with the zod schemas instead).
 */
const IGNORED_KEYWORDS = new Set(['$schema', 'minimum', 'maximum', 'format', 'pattern']);

function isNode(value: unknown): value is JsonSchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNullNode(value: unknown): boolean {
  return isNode(value) && value.type === 'null' && Object.keys(value).length === 1;
}

/**
 * The required properties fast-json-stringify is told about: those before the first optional
 * one. It writes required properties first, so naming a later one would move it ahead of an
 * optional field and change the key order JSON.stringify of the zod output had. A later
 * required property is still written whenever present; only its absence goes unreported.
 */
function listLeadingRequired(propertyNames: readonly string[], required: unknown[]): string[] {
  const firstOptional = propertyNames.findIndex((name) => !required.includes(name));
  return firstOptional === -1 ? [...propertyNames] : propertyNames.slice(0, firstOptional);
}

/**
 * Rewrites `T | null` (zod's `anyOf [T, {type: null}]` or `type: [T, 'null']`) as fast-json-
 * stringify's `nullable`: an anyOf would make it pick the branch by running Ajv on every
 * value, a cost the replies' many nullable fields would pay on each request.
 */
function simplifySchema(node: unknown): unknown {
  if (Array.isArray(node)) {
    return node.map(simplifySchema);
  }
  if (!isNode(node)) {
    return node;
  }
  const anyOf: unknown = node.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2 && anyOf.some(isNullNode)) {
    const members: unknown[] = anyOf;
    const siblings = Object.fromEntries(Object.entries(node).filter(([key]) => key !== 'anyOf'));
    const other = members.find((member) => !isNullNode(member));
    return simplifySchema({ ...siblings, ...(isNode(other) ? other : {}), nullable: true });
  }
  const simplified: JsonSchemaNode = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (IGNORED_KEYWORDS.has(keyword)) {
      continue;
    }
    if (keyword === 'required' && Array.isArray(value) && isNode(node.properties)) {
      simplified.required = listLeadingRequired(Object.keys(node.properties), value);
      continue;
    }
    if (keyword === 'properties' && isNode(value)) {
      simplified.properties = Object.fromEntries(
        Object.entries(value).map(([name, schema]) => [name, simplifySchema(schema)]),
      );
    } else if (
      keyword === 'type' &&
      Array.isArray(value) &&
      value.length === 2 &&
      value.includes('null')
    ) {
      simplified.type = value.find((type) => type !== 'null');
      simplified.nullable = true;
    } else {
      simplified[keyword] = simplifySchema(value);
    }
  }
  return simplified;
}

/** The JSON Schema fast-json-stringify compiles for a zod schema of a reply. */
export function convertResponseSchema(schema: z.ZodType): JsonSchemaNode {
  const jsonSchema = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'output',
    // Transforms and the like have no JSON Schema; any value is then written as JSON.stringify would.
    unrepresentable: 'any',
  });
  const simplified = simplifySchema(jsonSchema);
  return isNode(simplified) ? simplified : {};
}

/** A reply writer compiled from a zod schema, or from a plain JSON Schema as Fastify's default. */
export function compileResponseSerializer(schema: unknown): (data: unknown) => string {
  const jsonSchema = schema instanceof z.ZodType ? convertResponseSchema(schema) : schema;
  const stringify: (data: unknown) => string = fastJsonStringify(jsonSchema as FastJsonSchema);
  return stringify;
}

/**
 * Fastify serializer compiler for routes whose response schemas are the shared zod schemas:
 * each is turned into JSON Schema once and compiled by fast-json-stringify, so replies are
 * written without a zod parse per request. Schemas shared by many routes (the error body)
 * compile once.
 */
export function createJsonSerializerCompiler(): FastifySerializerCompiler<unknown> {
  const compiled = new WeakMap<object, (data: unknown) => string>();
  return ({ schema }) => {
    if (typeof schema !== 'object' || schema === null) {
      return (data) => JSON.stringify(data);
    }
    let serializer = compiled.get(schema);
    if (serializer === undefined) {
      serializer = compileResponseSerializer(schema);
      compiled.set(schema, serializer);
    }
    return serializer;
  };
}

/**
 * Sends a body the route's own serializer already wrote (kept in memory between requests).
 * Fastify passes it through as it is. Small bodies stay strings: Node writes headers and a
 * string body in one system call, and a Buffer body in a second buffer of a gathered write,
 * which cost a cheap catalog route a tenth of its speed. Long bodies are Buffers: the store
 * list (about 20 KB) and search lists (several KB, one per user, many of them kept) are
 * encoded once instead of on every write, and kept outside the JavaScript heap, where copying
 * them made the collector's pauses long.
 */
export function sendSerializedJson(reply: FastifyReply, body: string | Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body);
}
