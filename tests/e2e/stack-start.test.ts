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

  it('serves the website for client-side routes with 200 and keeps JSON 404s for the API', async () => {
    for (const route of ['/', '/plans', '/search/5d1c0c52-0000-4000-8000-000000000000']) {
      const response = await fetch(`${stack.baseUrl}${route}`);
      expect(response.status, route).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(await response.text()).toContain('id="root"');
    }
    const api = await fetch(`${stack.baseUrl}/v2/unknown`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ reason: 'not_found' });
    expect((await fetch(`${stack.baseUrl}/assets/missing.js`)).status).toBe(404);
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
