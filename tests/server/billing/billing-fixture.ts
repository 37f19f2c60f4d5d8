import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createAccountMailer } from '#server/accounts/index.ts';
import { createBilling } from '#server/billing/index.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';
import { startSmtpSink, type SmtpSink } from '#tests/helpers/smtp-sink.ts';
import {
  signStripeEvent,
  startStripeStandIn,
  type StripeJson,
  type StripeStandIn,
} from '#tests/helpers/stripe-stand-in.ts';

/** The website origin the billing service sends Stripe's buyers back to. */
export const SITE_URL = 'http://localhost:3000';

/** The webhook signing secret the app is configured with. */
export const WEBHOOK_SECRET = 'whsec_test_fixture_secret';

/** The API with Stripe billing on, the real `stripe` client talking to the stand-in. */
export type BillingFixture = {
  api: ApiHarness;
  /** The app with billing (the harness's own app has none). */
  app: FastifyInstance;
  stripe: StripeStandIn;
  smtp: SmtpSink;
  warnings: string[];
  /** Sends a request to the billing app, with the user's token when given. */
  call: (request: {
    method: 'GET' | 'POST' | 'DELETE';
    url: string;
    as?: TestUser;
    body?: unknown;
  }) => Promise<LightMyRequestResponse>;
  /** Posts `event` to the webhook endpoint, signed with `secret` (default: the app's). */
  postEvent: (event: StripeJson, secret?: string) => Promise<LightMyRequestResponse>;
  close: () => Promise<void>;
};

/** Starts the harness, the Stripe stand-in (with the four plan prices) and an SMTP sink. */
export async function startBillingFixture(): Promise<BillingFixture> {
  const api = await startApiHarness();
  const stripe = await startStripeStandIn();
  stripe.addPlanPrices();
  const smtp = await startSmtpSink();
  const warnings: string[] = [];
  const billing = createBilling({
    db: api.testDb.db,
    settings: { stripeSecretKey: stripe.secretKey, webhookSecret: WEBHOOK_SECRET },
    accounts: {
      publicUrl: SITE_URL,
      login: { kind: 'embedded', issuer: api.idp.issuer },
      mailer: createAccountMailer({
        smtpUrl: smtp.url,
        from: 'Shelfwatch <accounts@shelfwatch.test>',
        dataDir: '',
      }),
      supportEmail: 'support@shelfwatch.test',
    },
    connection: stripe.connection,
    log: { info: () => undefined, warn: (line) => warnings.push(line) },
  });
  const app = await api.buildVariant({ billing });
  return {
    api,
    app,
    stripe,
    smtp,
    warnings,
    call: async (request) =>
      await app.inject({
        method: request.method,
        url: request.url,
        headers: request.as === undefined ? {} : { authorization: `Bearer ${request.as.token}` },
        ...(request.body === undefined ? {} : { payload: request.body as Record<string, unknown> }),
      }),
    postEvent: async (event, secret = WEBHOOK_SECRET) => {
      const { payload, signature } = signStripeEvent(event, secret);
      return await app.inject({
        method: 'POST',
        url: '/v2/billing/webhook',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signature,
        },
        payload,
      });
    },
    close: async () => {
      await app.close();
      await smtp.close();
      await stripe.close();
      await api.close();
    },
  };
}
