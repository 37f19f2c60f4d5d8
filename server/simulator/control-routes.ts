import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AddressBudget } from './address-budget.ts';
import type { SimCatalog } from './sim-catalog.ts';
import { FAULT_KINDS, type SimulatorState } from './sim-state.ts';
import type { StoreListState } from './store-list.ts';
import type { SimulatorBehaviour } from '#server/config/simulator-settings.ts';

// The /_sim control API: flip stock, inject faults, read counters. Errors use the API's
// own body, `{ reason, message, field }`, so tests and scripts read them the same way.

/** Longest fault the control API accepts: a day. */
export const MAX_FAULT_SECONDS = 86_400;

/** Body of POST /_sim/stock. */
export const stockChangeSchema = z.object({
  store_id: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^R\d{3,4}$/, 'must be an Apple store number such as R072'),
  part_number: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(32, 'must be at most 32 characters'),
  status: z.enum(['available', 'unavailable', 'ineligible']),
});

/** Body of POST /_sim/fault. */
export const faultSchema = z.object({
  kind: z.enum(FAULT_KINDS),
  seconds: z
    .number()
    .positive('must be more than 0')
    .max(MAX_FAULT_SECONDS, `must be at most ${MAX_FAULT_SECONDS}`),
  retry_after_seconds: z.number().int().min(0).max(MAX_FAULT_SECONDS).optional(),
});

const optionalText = z.string().trim().max(200).nullish();

/** Body of POST /_sim/store-list: list or take off a store; `store` files a new one. */
export const storeListChangeSchema = z.object({
  store_id: stockChangeSchema.shape.store_id,
  listed: z.boolean({ message: 'must be true or false' }),
  store: z
    .object({
      store_name: z.string().trim().min(1, 'must not be empty').max(200),
      country_locale: z.string().regex(/^[a-z]{2,3}_[A-Z]{2}$/, 'must be a locale such as en_US'),
      city: z.string().trim().min(1, 'must not be empty').max(200),
      address1: z.string().trim().min(1, 'must not be empty').max(200),
      store_slug: z.string().trim().min(1, 'must not be empty').max(200),
      address2: optionalText,
      state_code: optionalText,
      state_name: optionalText,
      postal_code: optionalText,
      telephone: optionalText,
    })
    .optional(),
});

/** Body of POST /_sim/store-list-settings: make a locale's store-list answer 404 or not. */
export const storeListSettingsSchema = z.object({
  locale: z.string().regex(/^[a-z]{2,3}_[A-Z]{2}$/, 'must be a locale such as th_TH'),
  missing: z.boolean({ message: 'must be true or false' }),
});

/** Registers the control API on the simulator. */
export function registerControlRoutes(
  app: FastifyInstance,
  options: {
    catalog: SimCatalog;
    state: SimulatorState;
    budget: AddressBudget;
    behaviour: SimulatorBehaviour;
    directory: StoreListState;
  },
): void {
  const { catalog, state, budget, behaviour, directory } = options;

  app.post('/_sim/store-list', async (request, reply) => {
    const parsed = storeListChangeSchema.safeParse(request.body ?? {});
    if (!parsed.success) return sendInvalid(reply, parsed.error);
    const { store_id: storeId, listed, store } = parsed.data;
    if (store !== undefined) {
      if (!listed) {
        return sendError(
          reply,
          400,
          'invalid_input',
          'listed: must be true with a store',
          'listed',
        );
      }
      directory.listStore({
        store_id: storeId,
        ...store,
        address2: store.address2 ?? null,
        state_code: store.state_code ?? null,
        state_name: store.state_name ?? null,
        postal_code: store.postal_code ?? null,
        telephone: store.telephone ?? null,
      });
    } else if (listed ? !directory.relistStore(storeId) : !directory.unlistStore(storeId)) {
      const message = listed
        ? `Store ${storeId} is not off the directory (send \`store\` to list a new one)`
        : `Store ${storeId} is not listed in the directory`;
      return sendError(reply, 404, 'not_found', message, 'store_id');
    }
    return { store_id: storeId, listed };
  });

  app.post('/_sim/store-list-settings', async (request, reply) => {
    const parsed = storeListSettingsSchema.safeParse(request.body ?? {});
    if (!parsed.success) return sendInvalid(reply, parsed.error);
    directory.setLocaleMissing(parsed.data.locale, parsed.data.missing);
    return { missing_locales: directory.listMissingLocales() };
  });

  app.post('/_sim/stock', async (request, reply) => {
    const parsed = stockChangeSchema.safeParse(request.body ?? {});
    if (!parsed.success) return sendInvalid(reply, parsed.error);
    const { store_id: storeId, part_number: partNumber, status } = parsed.data;
    const store = catalog.findAnyStore(storeId);
    if (store === undefined)
      return sendError(reply, 404, 'not_found', `No seeded store ${storeId}`, 'store_id');
    if (catalog.findModel(store.countryCode, partNumber) === undefined) {
      const message = `Part ${partNumber} is not sold in ${store.countryCode}, the country of ${storeId}`;
      return sendError(reply, 404, 'not_found', message, 'part_number');
    }
    state.setOverride(storeId, partNumber, status);
    return { store_id: storeId, part_number: partNumber, country_code: store.countryCode, status };
  });

  app.delete('/_sim/stock', async () => ({ cleared: state.clearOverrides() }));

  app.post('/_sim/fault', async (request, reply) => {
    const parsed = faultSchema.safeParse(request.body ?? {});
    if (!parsed.success) return sendInvalid(reply, parsed.error);
    const fault = state.setFault(
      parsed.data.kind,
      parsed.data.seconds,
      parsed.data.retry_after_seconds,
    );
    return describeFault(fault, state.now());
  });

  app.delete('/_sim/fault', async () => ({ cleared: state.clearFault() }));

  app.delete('/_sim/blocks', async () => {
    const clearedAddresses = budget.listAddresses().size;
    return { lifted: budget.reset(), cleared_addresses: clearedAddresses };
  });

  app.get('/_sim/state', async () => {
    const now = state.now();
    const fault = state.getActiveFault();
    return {
      seed: state.seed,
      change_every_seconds: state.changeEverySeconds,
      now: new Date(now).toISOString(),
      overrides: state.listOverrides().map((override) => ({
        store_id: override.storeId,
        part_number: override.partNumber,
        status: override.status,
      })),
      fault: fault === undefined ? null : describeFault(fault, now),
      settings: {
        fulfillment_messages: behaviour.fulfillmentMessages,
        pickup_message: behaviour.pickupMessage,
        block_after_requests: behaviour.blockAfterRequests,
        block_window_seconds: behaviour.blockWindowSeconds,
        block_seconds: behaviour.blockSeconds,
      },
      requests: describeRequests(state, budget),
    };
  });

  app.get('/_sim/requests', async () => {
    const { total, ...rest } = describeRequests(state, budget);
    return { count: total, ...rest };
  });
}

// Counts per endpoint shape and per caller address; benchmarks read answered_541 from here.
function describeRequests(
  state: SimulatorState,
  budget: AddressBudget,
): {
  total: number;
  fulfillment_messages: number;
  pickup_message: number;
  answered_541: number;
  by_address: Record<string, Record<string, unknown>>;
} {
  const counts = state.getRequestCounts();
  const byAddress: Record<string, Record<string, unknown>> = {};
  let answered541 = 0;
  for (const [address, entry] of budget.listAddresses()) {
    answered541 += entry.answered541;
    byAddress[address] = {
      requests: entry.requests,
      requests_in_window: entry.requestsInWindow,
      answered_541: entry.answered541,
      blocked_answers: entry.blockedAnswers,
      blocks: entry.blocks,
      blocked_until:
        entry.blockedUntil === null ? null : new Date(entry.blockedUntil).toISOString(),
    };
  }
  return {
    total: counts.total,
    fulfillment_messages: counts['fulfillment-messages'],
    pickup_message: counts['pickup-message'],
    answered_541: answered541,
    by_address: byAddress,
  };
}

function describeFault(
  fault: NonNullable<ReturnType<SimulatorState['getActiveFault']>>,
  now: number,
): Record<string, unknown> {
  return {
    kind: fault.kind,
    started_at: new Date(fault.startedAt).toISOString(),
    ends_at: new Date(fault.endsAt).toISOString(),
    seconds_left: Math.max(0, Math.ceil((fault.endsAt - now) / 1000)),
    retry_after_seconds: fault.retryAfterSeconds ?? null,
  };
}

function sendInvalid(reply: FastifyReply, error: z.ZodError): FastifyReply {
  const issue = error.issues[0];
  const field = issue !== undefined && issue.path.length > 0 ? issue.path.join('.') : 'body';
  return sendError(
    reply,
    400,
    'invalid_input',
    `${field}: ${issue?.message ?? 'invalid input'}`,
    field,
  );
}

/** Sends the API's error body. */
export function sendError(
  reply: FastifyReply,
  statusCode: number,
  reason: string,
  message: string,
  field?: string,
): FastifyReply {
  return reply
    .code(statusCode)
    .send(field === undefined ? { reason, message } : { reason, message, field });
}
