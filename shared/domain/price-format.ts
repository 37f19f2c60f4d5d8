import { computeAnnualPricePerMonth, computeAnnualSavingsPercent, type Plan } from './plans.ts';

/** US dollars as the pricing page shows them: "$7" for whole amounts, "$3.75" otherwise. */
export function formatUsd(amount: number): string {
  const cents = Math.round(amount * 100);
  return cents % 100 === 0 ? `$${cents / 100}` : `$${(cents / 100).toFixed(2)}`;
}

/** "1 search" or "{n} searches". */
export function formatSearchCount(count: number): string {
  return count === 1 ? '1 search' : `${count} searches`;
}

/** What a plan card shows for the chosen billing period. */
export type PlanPriceDisplay = {
  perMonth: string;
  billedNote: string | null;
  savingsNote: string | null;
};

/**
 * A plan's price for the pricing page: per month (annual shown as annual / 12), how it is
 * billed, and the annual saving percent from the shared formula. Free plans say "Free".
 */
export function describePlanPrice(plan: Plan, isBilledAnnually: boolean): PlanPriceDisplay {
  if (plan.monthlyCost === 0 && plan.annualCost === 0) {
    return { perMonth: 'Free', billedNote: null, savingsNote: null };
  }
  if (!isBilledAnnually) {
    return {
      perMonth: formatUsd(plan.monthlyCost),
      billedNote: 'billed monthly',
      savingsNote: null,
    };
  }
  const savings = computeAnnualSavingsPercent(plan);
  return {
    perMonth: formatUsd(computeAnnualPricePerMonth(plan)),
    billedNote: `billed annually (${formatUsd(plan.saleAnnualCost ?? plan.annualCost)} per year)`,
    savingsNote: savings > 0 ? `Save ${savings}%` : null,
  };
}
