import { useEffect, useState } from 'react';
import ToggleButton from 'react-bootstrap/ToggleButton';
import ToggleButtonGroup from 'react-bootstrap/ToggleButtonGroup';
import { PLANS, type Plan } from '#shared/domain/plans.ts';
import { useApiSettings } from '../api/api-context.ts';
import { createCheckoutSession, type LookupKey } from '../api/billing-calls.ts';
import { useAuth } from '../auth/auth-context.tsx';
import { useAppConfig } from '../boot/app-config-context.tsx';
import { loadChunk } from '#renderer/components/layout/chunk-loading.ts';
import { PlanCard } from '#renderer/components/account/plan-card.tsx';
import { usePageTitle } from '#renderer/components/hooks/use-page-title.ts';
import { useHost } from '../host/host-context.tsx';
import { useBillingPeriodStore } from '../state/billing-period-store.ts';

/** /plans: plan cards with the annual/monthly toggle (default annual, kept in a cookie). */
export function PlansRoute() {
  usePageTitle('Pricing');
  const { cookiePrefix, isBillingConfigured } = useAppConfig();
  const { isBilledAnnually, loadBillingPeriod, chooseBillingPeriod } = useBillingPeriodStore();
  const auth = useAuth();
  const apiSettings = useApiSettings();
  const host = useHost();
  const [busyPlan, setBusyPlan] = useState<string | null>(null);

  useEffect(() => loadBillingPeriod(cookiePrefix), [cookiePrefix, loadBillingPeriod]);

  const startCheckout = async (plan: Plan) => {
    if (plan.lookupKeys === null) return;
    setBusyPlan(plan.code);
    try {
      const lookupKey = isBilledAnnually ? plan.lookupKeys.annual : plan.lookupKeys.monthly;
      // The API client loads with the first checkout: visitors reading prices never need it.
      const { getApiClients } = await loadChunk(() => import('../api/api-client.ts'));
      const url = await createCheckoutSession(getApiClients(apiSettings).publicApi, {
        // PLANS holds exactly the four LOOKUP_KEYS; checking at run time would bring zod here.
        lookup_key: lookupKey as LookupKey,
        // Visitors without an account check out too (there is no sign-up): paying creates it.
        auth0_id: auth.isAuthenticated && auth.user !== null ? auth.user.sub : '',
      });
      if (url === undefined) {
        console.error('Checkout session answer had no checkout_url');
      } else {
        await host.openExternal(url);
      }
    } finally {
      setBusyPlan(null);
    }
  };

  return (
    <section>
      <div className="text-center mb-4">
        <h1 className="h2">Pricing</h1>
        <p className="text-body-secondary">
          Pick the plan that fits how badly you want that new device.
        </p>
        <ToggleButtonGroup
          type="radio"
          name="billing-period"
          value={isBilledAnnually ? 'annual' : 'monthly'}
          onChange={(value: string) => chooseBillingPeriod(cookiePrefix, value === 'annual')}
          aria-label="Billing period"
        >
          <ToggleButton id="billing-annual" value="annual" variant="outline-primary">
            Annual
          </ToggleButton>
          <ToggleButton id="billing-monthly" value="monthly" variant="outline-primary">
            Monthly
          </ToggleButton>
        </ToggleButtonGroup>
        {isBillingConfigured ? null : (
          <p className="small text-body-secondary mt-2 mb-0">
            Online checkout is not available right now.
          </p>
        )}
      </div>
      <div className="row row-cols-1 row-cols-md-3 g-4">
        {PLANS.map((plan) => (
          <div className="col" key={plan.code}>
            <PlanCard
              plan={plan}
              isBilledAnnually={isBilledAnnually}
              isCheckoutEnabled={isBillingConfigured}
              isCheckoutBusy={busyPlan === plan.code}
              onCheckout={(chosen) => {
                startCheckout(chosen).catch((error: unknown) =>
                  console.error('Checkout could not start', error),
                );
              }}
            />
          </div>
        ))}
      </div>
    </section>
  );
}
