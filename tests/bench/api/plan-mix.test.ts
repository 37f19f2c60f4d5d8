import { describe, expect, it } from 'vitest';
import { getPlan, PLAN_CODES } from '#shared/domain/plans.ts';
import { createSeededRandom, generatePlanMix } from './plan-mix.ts';

const BENCH_MIX = {
  users: 10_000,
  searches: 50_000,
  shares: { good: 0.15, better: 0.35, best: 0.5 },
  fullPremiumUsers: 100,
};

describe('generatePlanMix', () => {
  it('gives 10,000 users exactly 50,000 searches, each within 1 and their plan limit', () => {
    const shapes = generatePlanMix({ ...BENCH_MIX, random: createSeededRandom(1) });
    expect(shapes).toHaveLength(10_000);
    expect(shapes.reduce((sum, shape) => sum + shape.searches, 0)).toBe(50_000);
    for (const shape of shapes) {
      expect(shape.searches).toBeGreaterThanOrEqual(1);
      expect(shape.searches).toBeLessThanOrEqual(getPlan(shape.plan).searches);
    }
  });

  it('splits users by the shares and puts every plan in the mix', () => {
    const shapes = generatePlanMix({ ...BENCH_MIX, random: createSeededRandom(2) });
    const count = (plan: string) => shapes.filter((shape) => shape.plan === plan).length;
    expect([count('good'), count('better'), count('best')]).toEqual([1500, 3500, 5000]);
    for (const plan of PLAN_CODES) expect(count(plan)).toBeGreaterThan(0);
  });

  it('gives the first Premium users the Premium maximum of 10 searches', () => {
    const shapes = generatePlanMix({ ...BENCH_MIX, random: createSeededRandom(3) });
    const premium = shapes.filter((shape) => shape.plan === 'best');
    expect(premium.slice(0, 100).every((shape) => shape.searches === 10)).toBe(true);
  });

  it('is the same for the same seed', () => {
    const first = generatePlanMix({ ...BENCH_MIX, random: createSeededRandom(4) });
    const second = generatePlanMix({ ...BENCH_MIX, random: createSeededRandom(4) });
    expect(second).toEqual(first);
  });

  it('refuses a total the plans cannot hold', () => {
    const tooMany = { ...BENCH_MIX, searches: 100_000, random: createSeededRandom(5) };
    expect(() => generatePlanMix(tooMany)).toThrow(/cannot be spread/);
    const tooFew = { ...BENCH_MIX, searches: 9_999, random: createSeededRandom(6) };
    expect(() => generatePlanMix(tooFew)).toThrow(/cannot be spread/);
  });
});
