import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productListSchema, storeListSchema } from '#shared/api/catalog.ts';
import { startTestStack, type TestStack } from '#tests/helpers/stack.ts';

describe('the embedded stack', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack?.stop());

  it('serves health, the catalog and the website configuration over real HTTP', async () => {
    expect((await fetch(`${stack.baseUrl}/healthz`)).status).toBe(200);
    const products = productListSchema.parse(
      await (await fetch(`${stack.baseUrl}/v2/products`)).json(),
    );
    expect(products.length).toBeGreaterThan(20);
    const stores = storeListSchema.parse(await (await fetch(`${stack.baseUrl}/v2/stores`)).json());
    expect(stores.length).toBeGreaterThanOrEqual(40);
    const config = (await (await fetch(`${stack.baseUrl}/app-config.json`)).json()) as {
      auth: { domain: string };
    };
    expect(`${config.auth.domain}/`).toBe(stack.issuer);
  });

  it('publishes the login provider discovery document with Auth0-style endpoints', async () => {
    const discovery = (await (
      await fetch(`${stack.issuer}.well-known/openid-configuration`)
    ).json()) as Record<string, string>;
    expect(discovery.issuer).toBe(stack.issuer);
    expect(discovery.token_endpoint).toBe(`${stack.issuer}oauth/token`);
    expect(discovery.jwks_uri).toBe(`${stack.issuer}.well-known/jwks.json`);
  });
});
