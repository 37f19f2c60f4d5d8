/** Plan codes stored on accounts. */
export const PLAN_CODES = ['good', 'better', 'best'] as const;

/** One of the plan codes. */
export type PlanCode = (typeof PLAN_CODES)[number];

/** A plan as the pricing page and the server's limits see it (spec section 9). */
export type Plan = {
  code: PlanCode;
  title: string;
  monthlyCost: number;
  annualCost: number;
  saleAnnualCost: number | null;
  searches: number;
  features: {
    tracking: boolean;
    noAds: boolean;
    emailNotifications: boolean;
    textNotifications: boolean;
  };
  lookupKeys: { monthly: string; annual: string } | null;
};

/** The one plan table: pricing cards, search limits and channel rights all read it. */
export const PLANS: readonly Plan[] = [
  {
    code: 'good',
    title: 'Good',
    monthlyCost: 0,
    annualCost: 0,
    saleAnnualCost: null,
    searches: 1,
    features: { tracking: true, noAds: false, emailNotifications: false, textNotifications: false },
    lookupKeys: null,
  },
  {
    code: 'better',
    title: 'Better',
    monthlyCost: 7,
    annualCost: 30,
    saleAnnualCost: null,
    searches: 5,
    features: { tracking: true, noAds: true, emailNotifications: true, textNotifications: false },
    lookupKeys: { monthly: 'iw-basic-monthly', annual: 'iw-basic-yearly' },
  },
  {
    code: 'best',
    title: 'Premium',
    monthlyCost: 10,
    annualCost: 45,
    saleAnnualCost: null,
    searches: 10,
    features: { tracking: true, noAds: true, emailNotifications: true, textNotifications: true },
    lookupKeys: { monthly: 'iw-premium-monthly', annual: 'iw-premium-yearly' },
  },
];

/** The plan of a code. */
export function getPlan(code: PlanCode): Plan {
  const plan = PLANS.find((candidate) => candidate.code === code);
  if (plan === undefined) {
    throw new Error(`Unknown plan ${code}`);
  }
  return plan;
}

/** Web search access is for paid plans (spec section 6). */
export function isPaidPlan(code: PlanCode): boolean {
  return getPlan(code).monthlyCost > 0;
}

/**
 * Percent saved by paying annually: round((12*monthly - annual) / (12*monthly) * 100).
 * With a sale price the discount is computed against the regular annual price.
 */
export function computeAnnualSavingsPercent(
  plan: Pick<Plan, 'monthlyCost' | 'annualCost' | 'saleAnnualCost'>,
): number {
  if (plan.saleAnnualCost !== null) {
    if (plan.annualCost === 0) {
      return 0;
    }
    return Math.round(((plan.annualCost - plan.saleAnnualCost) / plan.annualCost) * 100);
  }
  const yearOfMonths = 12 * plan.monthlyCost;
  if (yearOfMonths === 0) {
    return 0;
  }
  return Math.round(((yearOfMonths - plan.annualCost) / yearOfMonths) * 100);
}

/** Annual price shown per month: annual / 12 (the sale price when there is one). */
export function computeAnnualPricePerMonth(
  plan: Pick<Plan, 'annualCost' | 'saleAnnualCost'>,
): number {
  return (plan.saleAnnualCost ?? plan.annualCost) / 12;
}

/** The plan of `codes` allowing the most searches; Good when there is none. */
export function chooseBestPlan(codes: readonly PlanCode[]): PlanCode {
  return codes.reduce<PlanCode>(
    (best, code) => (getPlan(code).searches > getPlan(best).searches ? code : best),
    'good',
  );
}
