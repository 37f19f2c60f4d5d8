import { randomBytes } from 'node:crypto';
import http from 'node:http';
import Stripe from 'stripe';
import type { StripeConnection } from '#server/billing/index.ts';

/** A JSON object as Stripe sends it. */
export type StripeJson = Record<string, unknown>;

/** A decoded form or query value: Stripe's `a[0][b]=c` nesting, arrays kept as arrays. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };

/** One request the stand-in answered, decoded. */
export type RecordedRequest = {
  method: string;
  path: string;
  query: Record<string, FormValue>;
  body: Record<string, FormValue>;
  authorization: string | undefined;
};

/** Where and how the stand-in delivers webhook events after its hosted checkout page is paid. */
export type StandInWebhook = { url: string; secret: string };

/**
 * Stripe's REST API for the calls Shelfwatch makes, on a loopback port: the real `stripe`
 * client, given `connection` (host, port, protocol http), talks to it unchanged. It checks
 * the bearer secret key, decodes Stripe's form and query encoding, answers Stripe's objects
 * (`object`, `id`, lists) and its error shape `{ error: { type, code, message, param } }`
 * (404 for an unknown id in the path), and records every request. It also serves a hosted
 * checkout page (`/c/pay/:id`) whose Pay button completes the session, delivers the signed
 * events Stripe would send, then redirects to the session's success URL.
 */
export type StripeStandIn = {
  url: string;
  connection: StripeConnection;
  secretKey: string;
  requests: RecordedRequest[];
  /** Adds an active recurring price (and its product); answers the price. */
  addPrice: (input: {
    lookupKey: string;
    unitAmount: number;
    interval: 'month' | 'year';
    isActive?: boolean;
  }) => StripeJson;
  /** Adds the four plan prices of shared/domain/plans.ts. */
  addPlanPrices: () => void;
  /** Activates or archives every price of a lookup key. */
  setPriceActive: (lookupKey: string, isActive: boolean) => void;
  /** Pays an open session as `email` would: a customer, an active subscription, status complete. */
  completeCheckout: (
    sessionId: string,
    email: string,
  ) => { session: StripeJson; subscription: StripeJson; customer: StripeJson };
  /** Every price, as GET /v1/prices answers them. */
  listPrices: () => StripeJson[];
  /** A stored object by id (sessions, subscriptions, customers, prices). */
  find: (id: string) => StripeJson | undefined;
  /** Turns on webhook delivery from the hosted checkout page. */
  setWebhook: (webhook: StandInWebhook) => void;
  close: () => Promise<void>;
};

const API_VERSION = Stripe.API_VERSION;

/** A Stripe-style id: prefix and random characters. */
function makeId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url').replaceAll(/[-_]/g, 'x')}`;
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Decodes `a[0][b]=c&a[1][b]=d&e[]=f` into nested objects and arrays, as Stripe does. */
export function decodeStripeForm(encoded: string): Record<string, FormValue> {
  const root: { [key: string]: FormValue } = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    const [head = '', ...rest] = key.split('[').map((part) => part.replace(/]$/, ''));
    let container: FormValue = root;
    const path = [head, ...rest];
    for (const [index, part] of path.entries()) {
      const isLast = index === path.length - 1;
      const next = path[index + 1];
      const isNextArray = next !== undefined && (next === '' || /^\d+$/.test(next));
      if (Array.isArray(container)) {
        const position: number = part === '' ? container.length : Number(part);
        if (isLast) {
          container[position] = value;
        } else {
          container[position] ??= isNextArray ? [] : {};
          container = container[position];
        }
      } else if (typeof container === 'object') {
        if (isLast) {
          container[part] = value;
        } else {
          container[part] ??= isNextArray ? [] : {};
          container = container[part];
        }
      }
    }
  }
  return root;
}

function readString(form: Record<string, FormValue>, key: string): string | undefined {
  const value = form[key];
  return typeof value === 'string' ? value : undefined;
}

function readList(form: Record<string, FormValue>, key: string): FormValue[] {
  const value = form[key];
  return Array.isArray(value) ? value : [];
}

/** Starts the stand-in on a free loopback port with a fresh test secret key. */
export async function startStripeStandIn(): Promise<StripeStandIn> {
  const secretKey = `sk_test_${randomBytes(16).toString('hex')}`;
  const requests: RecordedRequest[] = [];
  const objects = new Map<string, StripeJson>();
  const sessionLines = new Map<string, StripeJson[]>();
  let webhook: StandInWebhook | undefined;
  let baseUrl = '';

  const list = (data: StripeJson[], url: string): StripeJson => ({
    object: 'list',
    data,
    has_more: false,
    url,
  });
  const expandProduct = (price: StripeJson): StripeJson => ({
    ...price,
    product: objects.get(String(price.product)) ?? price.product,
  });

  const addPrice: StripeStandIn['addPrice'] = (input) => {
    const product: StripeJson = {
      id: makeId('prod'),
      object: 'product',
      active: true,
      created: nowSeconds(),
      livemode: false,
      metadata: {},
      name: input.lookupKey,
    };
    objects.set(String(product.id), product);
    const price: StripeJson = {
      id: makeId('price'),
      object: 'price',
      active: input.isActive ?? true,
      billing_scheme: 'per_unit',
      created: nowSeconds(),
      currency: 'usd',
      livemode: false,
      lookup_key: input.lookupKey,
      metadata: {},
      nickname: null,
      product: product.id,
      recurring: {
        interval: input.interval,
        interval_count: 1,
        meter: null,
        trial_period_days: null,
        usage_type: 'licensed',
      },
      tax_behavior: 'unspecified',
      tiers_mode: null,
      transform_quantity: null,
      type: 'recurring',
      unit_amount: input.unitAmount,
      unit_amount_decimal: String(input.unitAmount),
    };
    objects.set(String(price.id), price);
    return price;
  };

  const createSubscription = (customerId: string, price: StripeJson): StripeJson => {
    const id = makeId('sub');
    const start = nowSeconds();
    const interval = (price.recurring as { interval: string }).interval;
    const end = start + (interval === 'year' ? 365 : 30) * 24 * 3600;
    const subscription: StripeJson = {
      id,
      object: 'subscription',
      cancel_at_period_end: false,
      canceled_at: null,
      created: start,
      currency: 'usd',
      customer: customerId,
      ended_at: null,
      items: list(
        [
          {
            id: makeId('si'),
            object: 'subscription_item',
            created: start,
            current_period_start: start,
            current_period_end: end,
            metadata: {},
            price,
            quantity: 1,
            subscription: id,
          },
        ],
        `/v1/subscription_items?subscription=${id}`,
      ),
      latest_invoice: null,
      livemode: false,
      metadata: {},
      start_date: start,
      status: 'active',
    };
    objects.set(id, subscription);
    return subscription;
  };

  const completeCheckout: StripeStandIn['completeCheckout'] = (sessionId, email) => {
    const session = objects.get(sessionId);
    if (session === undefined || session.object !== 'checkout.session') {
      throw new Error(`No such checkout.session: ${sessionId}`);
    }
    const existing =
      typeof session.customer === 'string' ? objects.get(session.customer) : undefined;
    const customer: StripeJson = existing ?? {
      id: makeId('cus'),
      object: 'customer',
      created: nowSeconds(),
      email,
      livemode: false,
      metadata: {},
      name: null,
    };
    objects.set(String(customer.id), customer);
    const [line] = sessionLines.get(sessionId) ?? [];
    const subscription = createSubscription(String(customer.id), (line?.price ?? {}) as StripeJson);
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      customer: customer.id,
      customer_details: { email, name: null, phone: null, tax_exempt: 'none', address: null },
      subscription: subscription.id,
    });
    return { session, subscription, customer };
  };

  const answer = (response: http.ServerResponse, status: number, body: unknown): void => {
    response.writeHead(status, {
      'content-type': 'application/json',
      'request-id': makeId('req'),
      'stripe-version': API_VERSION,
    });
    response.end(JSON.stringify(body));
  };
  const answerError = (
    response: http.ServerResponse,
    status: number,
    error: { type: string; message: string; code?: string; param?: string },
  ): void => answer(response, status, { error });
  const answerMissing = (response: http.ServerResponse, kind: string, id: string): void =>
    answerError(response, 404, {
      type: 'invalid_request_error',
      code: 'resource_missing',
      message: `No such ${kind}: '${id}'`,
      param: 'id',
    });

  const handleApi = (request: RecordedRequest, response: http.ServerResponse): void => {
    const { method, path, query, body } = request;
    if (request.authorization !== `Bearer ${secretKey}`) {
      answerError(response, 401, {
        type: 'invalid_request_error',
        message: 'Invalid API Key provided',
      });
      return;
    }
    if (method === 'GET' && path === '/v1/prices') {
      const lookupKeys = readList(query, 'lookup_keys');
      const isActiveOnly = readString(query, 'active') === 'true';
      const isProductExpanded = readList(query, 'expand').includes('data.product');
      const prices = [...objects.values()].filter(
        (object) =>
          object.object === 'price' &&
          (lookupKeys.length === 0 || lookupKeys.includes(String(object.lookup_key))) &&
          (!isActiveOnly || object.active === true),
      );
      answer(
        response,
        200,
        list(isProductExpanded ? prices.map(expandProduct) : prices, '/v1/prices'),
      );
      return;
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const lines = readList(body, 'line_items');
      const priceId = readString((lines[0] ?? {}) as Record<string, FormValue>, 'price') ?? '';
      const price = objects.get(priceId);
      if (price === undefined || price.object !== 'price') {
        answerError(response, 400, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such price: '${priceId}'`,
          param: 'line_items[0][price]',
        });
        return;
      }
      const id = `cs_test_${randomBytes(24).toString('hex')}`;
      const session: StripeJson = {
        id,
        object: 'checkout.session',
        cancel_url: readString(body, 'cancel_url') ?? null,
        client_reference_id: readString(body, 'client_reference_id') ?? null,
        created: nowSeconds(),
        currency: 'usd',
        customer: readString(body, 'customer') ?? null,
        customer_details: null,
        customer_email: readString(body, 'customer_email') ?? null,
        expires_at: nowSeconds() + 24 * 3600,
        livemode: false,
        metadata: {},
        mode: readString(body, 'mode') ?? 'payment',
        payment_status: 'unpaid',
        status: 'open',
        subscription: null,
        success_url: readString(body, 'success_url') ?? null,
        url: `${baseUrl}/c/pay/${id}`,
      };
      objects.set(id, session);
      sessionLines.set(id, [
        { id: makeId('li'), object: 'item', price, quantity: 1, currency: 'usd' },
      ]);
      answer(response, 200, session);
      return;
    }
    const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && sessionMatch !== null) {
      const id = decodeURIComponent(sessionMatch[1] ?? '');
      const session = objects.get(id);
      if (session === undefined || session.object !== 'checkout.session') {
        answerMissing(response, 'checkout.session', id);
        return;
      }
      const isLinesExpanded = readList(query, 'expand').includes('line_items');
      answer(
        response,
        200,
        isLinesExpanded
          ? {
              ...session,
              line_items: list(
                sessionLines.get(id) ?? [],
                `/v1/checkout/sessions/${id}/line_items`,
              ),
            }
          : session,
      );
      return;
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const customerId = readString(body, 'customer') ?? '';
      if (objects.get(customerId)?.object !== 'customer') {
        answerError(response, 400, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such customer: '${customerId}'`,
          param: 'customer',
        });
        return;
      }
      const id = makeId('bps');
      answer(response, 200, {
        id,
        object: 'billing_portal.session',
        created: nowSeconds(),
        customer: customerId,
        livemode: false,
        return_url: readString(body, 'return_url') ?? null,
        url: `${baseUrl}/p/session/${id}`,
      });
      return;
    }
    if (method === 'GET' && path === '/v1/subscriptions') {
      const customerId = readString(query, 'customer');
      const status = readString(query, 'status');
      const subscriptions = [...objects.values()].filter(
        (object) =>
          object.object === 'subscription' &&
          (customerId === undefined || object.customer === customerId) &&
          (status === 'all' || object.status !== 'canceled'),
      );
      answer(response, 200, list(subscriptions, '/v1/subscriptions'));
      return;
    }
    const subscriptionMatch = /^\/v1\/subscriptions\/([^/]+)(\/cancel)?$/.exec(path);
    if (
      subscriptionMatch !== null &&
      (method === 'DELETE' || (method === 'POST' && subscriptionMatch[2] === '/cancel'))
    ) {
      const id = decodeURIComponent(subscriptionMatch[1] ?? '');
      const subscription = objects.get(id);
      if (subscription === undefined || subscription.object !== 'subscription') {
        answerMissing(response, 'subscription', id);
        return;
      }
      Object.assign(subscription, {
        status: 'canceled',
        canceled_at: nowSeconds(),
        ended_at: nowSeconds(),
      });
      answer(response, 200, subscription);
      return;
    }
    const customerMatch = /^\/v1\/customers\/([^/]+)$/.exec(path);
    if (method === 'GET' && customerMatch !== null) {
      const id = decodeURIComponent(customerMatch[1] ?? '');
      const customer = objects.get(id);
      if (customer === undefined || customer.object !== 'customer') {
        answerMissing(response, 'customer', id);
        return;
      }
      answer(response, 200, customer);
      return;
    }
    answerError(response, 404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}).`,
    });
  };

  /** The hosted checkout page: a form, and its Pay button completing the session. */
  const handleHostedPage = async (
    method: string,
    path: string,
    body: Record<string, FormValue>,
    response: http.ServerResponse,
  ): Promise<void> => {
    const id = decodeURIComponent(path.slice('/c/pay/'.length));
    const session = objects.get(id);
    if (session === undefined || session.status !== 'open') {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Session expired</h1>');
      return;
    }
    if (method === 'GET') {
      const email = typeof session.customer_email === 'string' ? session.customer_email : '';
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        `<!DOCTYPE html><html lang="en"><head><title>Stand-in Checkout</title></head><body>
<h1>Stand-in Checkout</h1>
<form method="post"><label>Email <input name="email" type="email" value="${email}"></label>
<button type="submit">Pay</button></form></body></html>`,
      );
      return;
    }
    const { session: paid, subscription } = completeCheckout(id, readString(body, 'email') ?? '');
    if (webhook !== undefined) {
      await deliverEvent(webhook, buildStripeEvent('checkout.session.completed', paid));
      await deliverEvent(webhook, buildStripeEvent('customer.subscription.created', subscription));
    }
    const successUrl = String(paid.success_url).replace('{CHECKOUT_SESSION_ID}', id);
    response.writeHead(303, { location: successUrl }).end();
  };

  const server = http.createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://stand-in');
      const recorded: RecordedRequest = {
        method: incoming.method ?? 'GET',
        path: url.pathname,
        query: decodeStripeForm(url.search.slice(1)),
        body: decodeStripeForm(Buffer.concat(chunks).toString('utf8')),
        authorization: incoming.headers.authorization,
      };
      if (url.pathname.startsWith('/c/pay/')) {
        handleHostedPage(recorded.method, url.pathname, recorded.body, response).catch(
          (error: unknown) => response.writeHead(500).end(String(error)),
        );
        return;
      }
      requests.push(recorded);
      handleApi(recorded, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  baseUrl = `http://127.0.0.1:${port}`;

  return {
    url: baseUrl,
    connection: { host: '127.0.0.1', port, protocol: 'http' },
    secretKey,
    requests,
    addPrice,
    addPlanPrices: () => {
      addPrice({ lookupKey: 'iw-basic-monthly', unitAmount: 700, interval: 'month' });
      addPrice({ lookupKey: 'iw-basic-yearly', unitAmount: 3000, interval: 'year' });
      addPrice({ lookupKey: 'iw-premium-monthly', unitAmount: 1000, interval: 'month' });
      addPrice({ lookupKey: 'iw-premium-yearly', unitAmount: 4500, interval: 'year' });
    },
    setPriceActive: (lookupKey, isActive) => {
      for (const object of objects.values()) {
        if (object.object === 'price' && object.lookup_key === lookupKey) {
          object.active = isActive;
        }
      }
    },
    completeCheckout,
    find: (id) => objects.get(id),
    listPrices: () => [...objects.values()].filter((object) => object.object === 'price'),
    setWebhook: (value) => {
      webhook = value;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A Stripe event around `object` (a copy, as Stripe snapshots it), `created` in seconds. */
export function buildStripeEvent(
  type: string,
  object: StripeJson,
  options: { id?: string; created?: number } = {},
): StripeJson {
  return {
    id: options.id ?? makeId('evt'),
    object: 'event',
    api_version: API_VERSION,
    created: options.created ?? nowSeconds(),
    data: { object: structuredClone(object) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** The body and Stripe-Signature header of `event`, signed with `secret` as Stripe signs. */
export function signStripeEvent(
  event: StripeJson,
  secret: string,
): { payload: string; signature: string } {
  const payload = JSON.stringify(event);
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}

/** POSTs a signed event to a webhook endpoint; throws unless it answers 2xx. */
export async function deliverEvent(webhook: StandInWebhook, event: StripeJson): Promise<void> {
  const { payload, signature } = signStripeEvent(event, webhook.secret);
  const response = await fetch(webhook.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    body: payload,
  });
  if (!response.ok) {
    throw new Error(`webhook answered ${response.status}: ${await response.text()}`);
  }
}
