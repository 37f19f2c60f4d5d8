import Stripe from 'stripe';
import type { PostCheckoutResponse } from '#shared/api/billing.ts';
import type { PlanCode } from '#shared/domain/plans.ts';
import { ERROR_CODES } from '#shared/api/errors.ts';
import {
  AccountProvisioningError,
  applyPlanChange,
  createFinishSetupLink,
  provisionAccount,
  sendFinishSetupEmail,
  type AccountSettings,
  type FinishSetupLink,
} from '#server/accounts/index.ts';
import { findUserByIdentity, findUsersByEmail } from '#server/db/repositories/users-repository.ts';
import type { UserRow } from '#server/db/schema.ts';
import { AppError } from '#server/base/app-error.ts';
import {
  claimCheckoutSession,
  findPlanOfCustomer,
  findUserByCustomer,
  linkCustomer,
  noteCheckoutUser,
} from '#server/db/repositories/billing-repository.ts';
import { callStripe, type CheckoutContext } from './checkout.ts';
import { chooseBestPlan } from '#shared/domain/plans.ts';
import { findPlanOfLookupKey, readStripeId } from './stripe-client.ts';

/** The action for anything but a paid, unused subscription checkout: the website logs out. */
export const CHECKOUT_ERROR_ACTION = 'ERROR';

/** What post_checkout needs besides the Stripe calls. */
export type PostCheckoutContext = CheckoutContext & {
  accounts: Pick<AccountSettings, 'login' | 'publicUrl' | 'mailer' | 'supportEmail'>;
};

const ERROR_ANSWER: PostCheckoutResponse = { action: CHECKOUT_ERROR_ACTION };

/**
 * Answers what the Checkout session `sessionId` did (spec section 4): a paid session of a
 * new buyer makes their account (ACCOUNT_CREATED, a finish-setup email on its way), one of a
 * known customer, user or email answers SIGN_IN; an unknown, unpaid or already used session
 * answers ERROR. The account, the customer link, the plan and the session's use are written
 * in one transaction; the email goes once it committed (its link must work when clicked).
 */
export async function completeCheckout(
  context: PostCheckoutContext,
  sessionId: string,
): Promise<PostCheckoutResponse> {
  const session = await retrieveSession(context, sessionId);
  if (session === undefined || !isPaid(session)) {
    return ERROR_ANSWER;
  }
  const customerId = readStripeId(session.customer);
  const email = session.customer_details?.email ?? session.customer_email;
  if (customerId === null || email === null || email === '') {
    context.warn(`Checkout session ${session.id} has no customer or email`);
    return ERROR_ANSWER;
  }
  const outcome = await context.db
    .transaction()
    .execute(async (trx) => {
      if (!(await claimCheckoutSession(trx, session.id))) {
        return undefined;
      }
      const known = await findKnownUser(context, trx, {
        customerId,
        reference: session.client_reference_id,
        email,
      });
      const { user, isNew } =
        known === undefined
          ? await provisionAccount(context.db, context.accounts, { email, plan: 'good' }, trx)
          : { user: known, isNew: false };
      if (!(await linkCustomer(trx, user.id, customerId))) {
        context.warn(`customer ${customerId} not linked: user ${user.id} pays through another`);
      }
      const plan = (await findPlanOfCustomer(trx, customerId)) ?? readSessionPlan(session);
      if (plan !== undefined) {
        await applyPlanChange(context.db, user.id, plan, trx);
      }
      await noteCheckoutUser(trx, session.id, user.id);
      const link: FinishSetupLink | undefined = isNew
        ? await createFinishSetupLink(context.db, context.accounts, user, { trx })
        : undefined;
      return { user, link };
    })
    .catch((error: unknown) => {
      if (error instanceof AccountProvisioningError) {
        context.warn(`post_checkout could not create the account: ${error.message}`);
        throw new AppError(
          503,
          ERROR_CODES.serviceUnavailable,
          'The account could not be created',
          {
            reason:
              'Your account could not be created right now. Please reload this page in a few minutes.',
          },
        );
      }
      throw error;
    });
  if (outcome === undefined) {
    return ERROR_ANSWER;
  }
  const userEmail = outcome.user.email ?? email;
  if (outcome.link === undefined) {
    return { action: 'SIGN_IN', user_email: userEmail };
  }
  try {
    await sendFinishSetupEmail(context.accounts, { email: userEmail, link: outcome.link });
  } catch (error) {
    // The account exists and is paid for; "Forgot password?" sends a new link.
    context.warn(`finish-setup email to ${userEmail} failed: ${String(error)}`);
  }
  return { action: 'ACCOUNT_CREATED', user_email: userEmail };
}

/** The session with its line items, or undefined when Stripe has no such session. */
async function retrieveSession(
  context: PostCheckoutContext,
  sessionId: string,
): Promise<Stripe.Checkout.Session | undefined> {
  try {
    return await callStripe(context.warn, () =>
      context.stripe.checkout.sessions.retrieve(sessionId, { expand: ['line_items'] }),
    );
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError) {
      return undefined;
    }
    throw error;
  }
}

/** A subscription checkout that finished with its first payment made (or none due). */
function isPaid(session: Stripe.Checkout.Session): boolean {
  return (
    session.mode === 'subscription' &&
    session.status === 'complete' &&
    (session.payment_status === 'paid' || session.payment_status === 'no_payment_required')
  );
}

/** The account this checkout belongs to: by customer, by the signed-in buyer, by email. */
async function findKnownUser(
  context: PostCheckoutContext,
  trx: Parameters<typeof findUserByCustomer>[0],
  buyer: { customerId: string; reference: string | null; email: string },
): Promise<UserRow | undefined> {
  const byCustomer = await findUserByCustomer(trx, buyer.customerId);
  if (byCustomer !== undefined) {
    return byCustomer;
  }
  const byReference =
    buyer.reference === null
      ? undefined
      : await findUserByIdentity(trx, { issuer: context.issuer, subject: buyer.reference });
  if (byReference !== undefined) {
    return byReference;
  }
  const byEmail = await findUsersByEmail(trx, buyer.email.trim().toLowerCase());
  return byEmail.find((user) => user.issuer === context.issuer);
}

/** The plan the session's prices stand for, before any subscription event arrived. */
function readSessionPlan(session: Stripe.Checkout.Session): PlanCode | undefined {
  const plans = (session.line_items?.data ?? []).flatMap((item) => {
    const plan = findPlanOfLookupKey(item.price?.lookup_key);
    return plan === null ? [] : [plan];
  });
  return plans.length === 0 ? undefined : chooseBestPlan(plans);
}
