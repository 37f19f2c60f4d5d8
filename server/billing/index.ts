export { createBilling, type Billing, type BillingDependencies } from './billing-service.ts';
export { CHECKOUT_ERROR_ACTION } from './post-checkout.ts';
export {
  findPlanOfLookupKey,
  type StripeConnection,
  type StripeSettings,
} from './stripe-client.ts';
