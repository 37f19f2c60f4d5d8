import { describe, expect, it } from 'vitest';
import { describePlanPrice, formatSearchCount, formatUsd } from '#shared/domain/price-format.ts';
import { getPlan, PLANS } from '#shared/domain/plans.ts';

describe('formatUsd', () => {
  it('drops cents on whole amounts and keeps two digits otherwise', () => {
    expect(formatUsd(7)).toBe('$7');
    expect(formatUsd(2.5)).toBe('$2.50');
    expect(formatUsd(45 / 12)).toBe('$3.75');
    expect(formatUsd(0.1 + 0.2)).toBe('$0.30');
  });
});

describe('plan prices', () => {
  it('shows annual plans per month (annual / 12) with the shared savings percent', () => {
    expect(describePlanPrice(getPlan('better'), true)).toEqual({
      perMonth: '$2.50',
      billedNote: 'billed annually ($30 per year)',
      savingsNote: 'Save 64%',
    });
    expect(describePlanPrice(getPlan('best'), true)).toEqual({
      perMonth: '$3.75',
      billedNote: 'billed annually ($45 per year)',
      savingsNote: 'Save 63%',
    });
  });

  it('shows monthly plans at the monthly price without savings', () => {
    expect(describePlanPrice(getPlan('better'), false)).toEqual({
      perMonth: '$7',
      billedNote: 'billed monthly',
      savingsNote: null,
    });
    expect(describePlanPrice(getPlan('best'), false).perMonth).toBe('$10');
  });

  it('calls the free plan free in both periods', () => {
    for (const isAnnual of [true, false]) {
      expect(describePlanPrice(getPlan('good'), isAnnual)).toEqual({
        perMonth: 'Free',
        billedNote: null,
        savingsNote: null,
      });
    }
  });

  it('computes a sale discount against the regular annual price', () => {
    const sale = { ...getPlan('best'), saleAnnualCost: 36 };
    expect(describePlanPrice(sale, true)).toEqual({
      perMonth: '$3',
      billedNote: 'billed annually ($36 per year)',
      savingsNote: 'Save 20%',
    });
  });

  it('names search counts with plurals', () => {
    expect(PLANS.map((plan) => formatSearchCount(plan.searches))).toEqual([
      '1 search',
      '5 searches',
      '10 searches',
    ]);
  });
});
