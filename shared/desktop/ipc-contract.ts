import { z } from 'zod';
import type { ErrorBody } from '#shared/api/errors.ts';
import { newSearchSchema, searchUpdateSchema } from '#shared/api/searches.ts';
import type { IpcInvokeChannel } from './ipc-channels.ts';
import { desktopSettingsPatchSchema } from './local-search.ts';

export * from './ipc-channels.ts';

// The IPC contract between the macOS app's preload and its main process: the channel names
// (ipc-channels.ts) and the schema every request payload is parsed with in the main process.
// Requests go renderer -> main with `invoke` and answer an IpcResult; events go main -> renderer.

/**
 * An API call the window asks the main process to make with the signed-in user's token (the
 * token never reaches the window). Only the product's own /v2 resources may be named.
 */
export const apiRequestSchema = z.object({
  method: z.enum(['GET', 'POST', 'PATCH', 'DELETE']),
  path: z
    .string()
    .max(300)
    .regex(
      /^\/(account|searches|notifications|inventory|products|stores|countries|status)(\/[A-Za-z0-9_-]+)*$/,
      'must be a /v2 resource path such as /searches/my_searches',
    ),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  body: z.unknown().optional(),
});
/** An API call through the main process. */
export type ApiRequest = z.infer<typeof apiRequestSchema>;
/** Its answer: the HTTP status and the parsed JSON body. */
export type ApiResponse = { status: number; body: unknown };

const searchIdSchema = z.object({ id: z.string().uuid({ message: 'Not a search id' }) });
const emptySchema = z.undefined().or(z.object({}).strict());

/** Payload schema of every request channel; the main process parses payloads as `unknown`. */
export const IPC_REQUEST_SCHEMAS = {
  'searches:list': emptySchema,
  'searches:get': searchIdSchema,
  'searches:create': newSearchSchema,
  'searches:update': z.object({ id: searchIdSchema.shape.id, update: searchUpdateSchema }),
  'searches:remove': searchIdSchema,
  'searches:inventory': searchIdSchema,
  'searches:history': z.object({
    id: searchIdSchema.shape.id,
    days: z.number().int().min(1).max(30),
  }),
  'catalog:products': emptySchema,
  'catalog:stores': emptySchema,
  'catalog:countries': emptySchema,
  'watch:status': emptySchema,
  'watch:check-now': emptySchema,
  'watch:set-paused': z.object({ paused: z.boolean() }),
  'settings:get': emptySchema,
  'settings:update': desktopSettingsPatchSchema,
  'notices:take': emptySchema,
  'shell:open-external': z.object({ url: z.string().max(2048) }),
  'notifications:show': z.object({
    title: z.string().min(1).max(200),
    body: z.string().max(1000),
    searchId: z.string().uuid().optional(),
  }),
  'auth:status': emptySchema,
  'auth:login': emptySchema,
  'auth:cancel': emptySchema,
  'auth:logout': emptySchema,
  'api:request': apiRequestSchema,
} satisfies Record<IpcInvokeChannel, z.ZodType>;

/** The parsed payload of a request channel. */
export type IpcRequest<C extends IpcInvokeChannel> = z.infer<(typeof IPC_REQUEST_SCHEMAS)[C]>;

/**
 * Why a request failed, shaped as the API's error body: a stable `code`, a `reason` sentence
 * for the person, the `message` detail and the field when input was bad.
 */
export type IpcError = ErrorBody;

/** Every answer of a request channel. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/** True for a channel name of the request list. */
export function isIpcInvokeChannel(channel: unknown): channel is IpcInvokeChannel {
  return typeof channel === 'string' && Object.hasOwn(IPC_REQUEST_SCHEMAS, channel);
}
