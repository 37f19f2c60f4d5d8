import { chooseBestPlan, type PlanCode } from '#shared/domain/plans.ts';
import type { Executor } from '#server/db/database.ts';
import { announceUserChanges } from './users-repository.ts';
import type { UserRow } from '#server/db/schema.ts';

/**
 * Subscription statuses that keep the paid plan: `past_due` too, while Stripe retries the
 * payment (its dunning settings end in `canceled` or `unpaid`, which drop it).
 */
export const PLAN_GRANTING_STATUSES: ReadonlySet<string> = new Set([
  'active',
  'trialing',
  'past_due',
]);

/** A subscription as one webhook event's object describes it. */
export type SubscriptionState = {
  id: string;
  customerId: string;
  status: string;
  priceId: string | null;
  lookupKey: string | null;
  plan: PlanCode | null;
  currentPeriodEnd: Date | null;
  /** The event's `created`: an older event never overwrites a newer one's state. */
  eventCreated: Date;
};

/** Statuses a subscription never leaves: on a tie of `created` they win. */
const FINAL_STATUSES = ['canceled', 'incomplete_expired'];

/**
 * Records a webhook event id; false when it was recorded before (a replay, or Stripe's
 * retry of an event already handled), in which case the caller does nothing more.
 */
export async function recordBillingEvent(
  db: Executor,
  event: { id: string; type: string; created: Date },
): Promise<boolean> {
  const inserted = await db
    .insertInto('billing_events')
    .values(event)
    .onConflict((conflict) => conflict.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * Stores a subscription's state unless a newer event already did (events arrive in any
 * order). On a tie of seconds, a final status (canceled) wins and `incomplete` loses, since
 * Checkout sends created and updated within one second. True when the row was written.
 */
export async function saveSubscriptionState(
  db: Executor,
  state: SubscriptionState,
): Promise<boolean> {
  const values = {
    id: state.id,
    customer_id: state.customerId,
    status: state.status,
    price_id: state.priceId,
    lookup_key: state.lookupKey,
    plan: state.plan,
    current_period_end: state.currentPeriodEnd,
    event_created: state.eventCreated,
    updated_at: new Date(),
  };
  const written = await db
    .insertInto('billing_subscriptions')
    .values(values)
    .onConflict((conflict) =>
      conflict
        .column('id')
        .doUpdateSet({ ...values, id: undefined })
        .where((eb) =>
          eb.or([
            eb('billing_subscriptions.event_created', '<', eb.ref('excluded.event_created')),
            eb.and([
              eb('billing_subscriptions.event_created', '=', eb.ref('excluded.event_created')),
              eb.or([
                eb('excluded.status', 'in', FINAL_STATUSES),
                eb.and([
                  eb('billing_subscriptions.status', 'not in', FINAL_STATUSES),
                  eb('excluded.status', '!=', 'incomplete'),
                ]),
              ]),
            ]),
          ]),
        ),
    )
    .returning('id')
    .executeTakeFirst();
  return written !== undefined;
}

/** Notes a failed renewal payment on the subscription (Stripe retries; its status follows). */
export async function markPaymentFailed(
  db: Executor,
  subscriptionId: string,
  at: Date,
): Promise<void> {
  await db
    .updateTable('billing_subscriptions')
    .set({ last_payment_failed_at: at })
    .where('id', '=', subscriptionId)
    .execute();
}

/**
 * The plan a customer's subscriptions give: the best of those in a granting status, Good
 * when none is; undefined when no event about any of them has arrived yet.
 */
export async function findPlanOfCustomer(
  db: Executor,
  customerId: string,
): Promise<PlanCode | undefined> {
  const rows = await db
    .selectFrom('billing_subscriptions')
    .select(['status', 'plan'])
    .where('customer_id', '=', customerId)
    .execute();
  if (rows.length === 0) {
    return undefined;
  }
  return chooseBestPlan(
    rows
      .filter((row) => PLAN_GRANTING_STATUSES.has(row.status))
      .map((row) => row.plan)
      .filter((plan) => plan !== null),
  );
}

/** The user a Stripe customer pays for, locked for update when `isLocked`. */
export async function findUserByCustomer(
  db: Executor,
  customerId: string,
  options: { isLocked?: boolean } = {},
): Promise<UserRow | undefined> {
  const query = db.selectFrom('users').selectAll().where('stripe_customer_id', '=', customerId);
  return await (options.isLocked === true ? query.forUpdate() : query).executeTakeFirst();
}

/** The Stripe customer of a user as stored now (a cached user row may predate checkout). */
export async function findCustomerOfUser(db: Executor, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select('stripe_customer_id')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.stripe_customer_id ?? null;
}

/**
 * Links a customer to a user who has none yet; false when the user already pays through
 * another customer or the customer is another user's (neither is taken over).
 */
export async function linkCustomer(
  db: Executor,
  userId: string,
  customerId: string,
): Promise<boolean> {
  const owner = await findUserByCustomer(db, customerId);
  if (owner !== undefined) {
    return owner.id === userId;
  }
  const updated = await db
    .updateTable('users')
    .set({ stripe_customer_id: customerId, updated_at: new Date() })
    .where('id', '=', userId)
    .where('stripe_customer_id', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (updated !== undefined) await announceUserChanges(db, [userId]);
  // A concurrent post_checkout or webhook may have linked the same customer first.
  return updated !== undefined || (await findUserByCustomer(db, customerId))?.id === userId;
}

/** Marks a Checkout session as answered; false when post_checkout already used it. */
export async function claimCheckoutSession(db: Executor, sessionId: string): Promise<boolean> {
  const inserted = await db
    .insertInto('billing_checkouts')
    .values({ session_id: sessionId })
    .onConflict((conflict) => conflict.column('session_id').doNothing())
    .returning('session_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Notes whose account a claimed Checkout session opened. */
export async function noteCheckoutUser(
  db: Executor,
  sessionId: string,
  userId: string,
): Promise<void> {
  await db
    .updateTable('billing_checkouts')
    .set({ user_id: userId })
    .where('session_id', '=', sessionId)
    .execute();
}
