import { describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config/app-config.ts';

describe('Stripe settings in the environment', () => {
  it('leaves billing unconfigured by default', () => {
    expect(loadConfig({}).billing).toBeUndefined();
  });

  it('turns billing on when both the secret key and the webhook secret are set', () => {
    expect(
      loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' }).billing,
    ).toEqual({ stripeSecretKey: 'sk_test_1', webhookSecret: 'whsec_1' });
  });

  it('refuses half a setup, naming both variables', () => {
    for (const env of [{ STRIPE_SECRET_KEY: 'sk_test_1' }, { STRIPE_WEBHOOK_SECRET: 'whsec_1' }]) {
      expect(() => loadConfig(env)).toThrow(/STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET/);
    }
  });
});
