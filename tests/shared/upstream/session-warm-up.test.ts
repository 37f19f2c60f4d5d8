import { describe, expect, it } from 'vitest';
import { PRODUCT_MODEL_SEEDS } from '#shared/catalog/index.ts';
import { BROWSER_USER_AGENT } from '#shared/upstream/browser-identity.ts';
import { fetchPickupAvailability } from '#shared/upstream/client.ts';
import {
  createSessionWarmUp,
  findStoreRoot,
  type CookieResponseLike,
  type WarmUpEvent,
} from '#shared/upstream/session-warm-up.ts';
import { buildPickupHeaders, buildPickupUrl } from '#shared/upstream/urls.ts';

const APPLE = 'https://www.apple.com';
const GB_PART = PRODUCT_MODEL_SEEDS.find((model) => model.country_code === 'GB')!.part_number;
const DE_PART = PRODUCT_MODEL_SEEDS.find((model) => model.country_code === 'DE')!.part_number;
const GB_REQUEST = { countryCode: 'GB', location: 'W1B 2EL', partNumbers: [GB_PART] };
const UK_PICKUP = buildPickupUrl(APPLE, 'pickup-message', GB_REQUEST);
const DE_PICKUP = buildPickupUrl(APPLE, 'pickup-message', {
  countryCode: 'DE',
  location: '10178',
  partNumbers: [DE_PART],
});
const UK_FULFILLMENT = buildPickupUrl(APPLE, 'fulfillment-messages', GB_REQUEST);
const UK_BAG = 'https://www.apple.com/uk/shop/bag';
const UK_BUY = 'https://www.apple.com/uk/shop/buy-iphone';
const EMPTY_ANSWER = '{"head":{"status":"200","data":{}},"body":{"content":{}}}';

type Call = { url: string; headers: Record<string, string> };
type Answer = { status: number; body?: string; headers?: [string, string][] };

/**
 * A fake Apple: the bag page sets a fresh `dssid2` per visit (unless `bag` says otherwise);
 * everything else answers `answer(url)`. Every call is recorded with its headers.
 */
function createFakeApple(
  options: {
    bag?: (visit: number) => Answer | Error;
    answer?: (url: string) => Answer;
  } = {},
) {
  const calls: Call[] = [];
  let visits = 0;
  const fetch = async (url: string, init: { headers: Record<string, string> }) => {
    calls.push({ url, headers: init.headers });
    await Promise.resolve();
    const isBag = new URL(url).pathname.endsWith('/shop/bag');
    if (isBag) visits += 1;
    const answer = isBag
      ? (options.bag?.(visits) ?? {
          status: 200,
          body: '<html><body>Your bag is empty.</body></html>',
          headers: [
            ['content-type', 'text/html; charset=UTF-8'],
            ['set-cookie', `dssid2=session-${visits}; Path=/; Secure; HttpOnly`],
            ['set-cookie', 'as_dc=ucp4; Path=/; Secure'],
          ],
        })
      : (options.answer?.(url) ?? { status: 200, body: EMPTY_ANSWER });
    if (answer instanceof Error) throw answer;
    const headers = new Headers(answer.headers ?? [['content-type', 'application/json']]);
    return new Response(answer.body ?? '', { status: answer.status, headers });
  };
  return { fetch, calls, getVisits: () => visits };
}

function createClock(startMs = Date.UTC(2026, 10, 28, 9, 0, 0)) {
  let at = startMs;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

function pickupInit(countryCode = 'GB') {
  return {
    method: 'GET' as const,
    headers: buildPickupHeaders(countryCode, 'https://www.apple.com/uk/shop/buy-iphone'),
  };
}

function cookieOf(call: Call | undefined): string | undefined {
  return call?.headers.Cookie;
}

describe('session warm-up before pickup requests', () => {
  it('visits the country’s bag page once, then sends its cookies with every pickup request', async () => {
    const apple = createFakeApple();
    const clock = createClock();
    const session = createSessionWarmUp({ fetch: apple.fetch, now: clock.now });
    await session.fetch(UK_PICKUP, pickupInit());
    await session.fetch(UK_PICKUP, pickupInit());
    expect(apple.calls.map((call) => call.url)).toEqual([UK_BAG, UK_PICKUP, UK_PICKUP]);
    expect(cookieOf(apple.calls[0])).toBeUndefined();
    expect(cookieOf(apple.calls[1])).toBe('dssid2=session-1; as_dc=ucp4');
    expect(cookieOf(apple.calls[2])).toBe('dssid2=session-1; as_dc=ucp4');
  });

  it('opens the bag page as a browser opens a page, in the pickup request’s language', async () => {
    const apple = createFakeApple();
    const session = createSessionWarmUp({ fetch: apple.fetch, now: createClock().now });
    await session.fetch(UK_PICKUP, pickupInit());
    expect(apple.calls[0]?.headers).toEqual({
      'User-Agent': BROWSER_USER_AGENT,
      Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'Accept-Language': 'en-GB,en;q=0.9',
    });
  });

  it('warms each country on its own bag page, and concurrent first requests share one visit', async () => {
    const apple = createFakeApple();
    const session = createSessionWarmUp({ fetch: apple.fetch, now: createClock().now });
    await Promise.all([
      session.fetch(UK_PICKUP, pickupInit()),
      session.fetch(UK_PICKUP, pickupInit()),
      session.fetch(DE_PICKUP, pickupInit('DE')),
    ]);
    const bags = apple.calls.filter((call) => call.url.endsWith('/shop/bag')).map((c) => c.url);
    expect(bags.sort()).toEqual(['https://www.apple.com/de/shop/bag', UK_BAG]);
    const pickups = apple.calls.filter((call) => call.url.includes('pickup-message'));
    expect(pickups).toHaveLength(3);
    for (const pickup of pickups) expect(cookieOf(pickup)).toMatch(/dssid2=session-\d/);
  });

  it('renews a session once it is an hour old', async () => {
    const apple = createFakeApple();
    const clock = createClock();
    const session = createSessionWarmUp({ fetch: apple.fetch, now: clock.now });
    await session.fetch(UK_PICKUP, pickupInit());
    clock.advance(59 * 60_000);
    await session.fetch(UK_PICKUP, pickupInit());
    expect(apple.getVisits()).toBe(1);
    clock.advance(60_000);
    await session.fetch(UK_PICKUP, pickupInit());
    expect(apple.getVisits()).toBe(2);
    expect(cookieOf(apple.calls.at(-1))).toBe('dssid2=session-2; as_dc=ucp4');
  });

  it('asks without a session when the page set no cookie, and tries the page again a minute later', async () => {
    const events: WarmUpEvent[] = [];
    const apple = createFakeApple({ bag: () => ({ status: 200, body: '<html></html>' }) });
    const clock = createClock();
    const session = createSessionWarmUp({
      fetch: apple.fetch,
      now: clock.now,
      onWarmUp: (event) => events.push(event),
    });
    const answer = await session.fetch(UK_PICKUP, pickupInit());
    expect(await answer.text()).toBe(EMPTY_ANSWER);
    await session.fetch(UK_PICKUP, pickupInit());
    expect(apple.getVisits()).toBe(1);
    clock.advance(60_000);
    await session.fetch(UK_PICKUP, pickupInit());
    expect(apple.getVisits()).toBe(2);
    expect(events.map((event) => event.outcome)).toEqual(['no_cookie', 'no_cookie']);
    expect(cookieOf(apple.calls.at(-1))).toBeUndefined();
  });

  it('still sends the pickup request when the bag page cannot be reached', async () => {
    const events: WarmUpEvent[] = [];
    const apple = createFakeApple({ bag: () => new TypeError('fetch failed') });
    const session = createSessionWarmUp({
      fetch: apple.fetch,
      now: createClock().now,
      onWarmUp: (event) => events.push(event),
    });
    const answer = await session.fetch(UK_PICKUP, pickupInit());
    expect(answer.status).toBe(200);
    expect(apple.calls.map((call) => call.url)).toEqual([UK_BAG, UK_PICKUP]);
    expect(events).toEqual([
      expect.objectContaining({ outcome: 'network', status: null, detail: 'fetch failed' }),
    ]);
  });

  it('answers a blocked visit in place of the pickup request, which is not sent', async () => {
    const apple = createFakeApple({
      bag: (visit) =>
        visit === 1
          ? { status: 541, body: '<html>Page Not Found</html>', headers: [['retry-after', '120']] }
          : { status: 200, headers: [['set-cookie', 'dssid2=fresh; Path=/']] },
    });
    const clock = createClock();
    const session = createSessionWarmUp({ fetch: apple.fetch, now: clock.now });
    const result = await fetchPickupAvailability(
      {
        fetch: session.fetch,
        now: clock.now,
        baseUrl: APPLE,
        shape: 'pickup-message',
        fallbackShape: false,
      },
      GB_REQUEST,
    );
    expect(result).toMatchObject({
      ok: false,
      failure: { kind: 'blocked', httpStatus: 541, coolDownSeconds: 120 },
    });
    expect(apple.calls.map((call) => call.url)).toEqual([UK_BAG]);
    // The next request (after the cool-down) visits again at once.
    await session.fetch(UK_PICKUP, pickupInit());
    expect(apple.calls.map((call) => call.url)).toEqual([UK_BAG, UK_BAG, UK_PICKUP]);
    expect(cookieOf(apple.calls[2])).toBe('dssid2=fresh');
  });

  it('starts a new session after pickup-message blocks: the burnt cookies are never sent again', async () => {
    let isBlocking = false;
    const apple = createFakeApple({
      answer: () =>
        isBlocking ? { status: 541, body: '<html></html>' } : { status: 200, body: EMPTY_ANSWER },
    });
    const session = createSessionWarmUp({ fetch: apple.fetch, now: createClock().now });
    await session.fetch(UK_PICKUP, pickupInit());
    isBlocking = true;
    expect((await session.fetch(UK_PICKUP, pickupInit())).status).toBe(541);
    isBlocking = false;
    await session.fetch(UK_PICKUP, pickupInit());
    expect(apple.calls.map((call) => call.url)).toEqual([
      UK_BAG,
      UK_PICKUP,
      UK_PICKUP,
      UK_BAG,
      UK_PICKUP,
    ]);
    expect(cookieOf(apple.calls[3])).toBeUndefined();
    expect(cookieOf(apple.calls[4])).toBe('dssid2=session-2; as_dc=ucp4');
  });

  it('treats a challenge page where JSON was expected as a block of the session', async () => {
    let isChallenging = true;
    const apple = createFakeApple({
      answer: () =>
        isChallenging
          ? {
              status: 200,
              body: '<html>challenge</html>',
              headers: [['content-type', 'text/html']],
            }
          : { status: 200, body: EMPTY_ANSWER },
    });
    const session = createSessionWarmUp({ fetch: apple.fetch, now: createClock().now });
    await session.fetch(UK_PICKUP, pickupInit());
    isChallenging = false;
    await session.fetch(UK_PICKUP, pickupInit());
    expect(apple.getVisits()).toBe(2);
  });

  it('keeps the session when the dead fulfillment-messages endpoint answers 541', async () => {
    const apple = createFakeApple({
      answer: (url) =>
        url.includes('fulfillment-messages')
          ? { status: 541, body: '<html>Page Not Found</html>' }
          : { status: 200, body: EMPTY_ANSWER },
    });
    const session = createSessionWarmUp({ fetch: apple.fetch, now: createClock().now });
    await session.fetch(UK_PICKUP, pickupInit());
    await session.fetch(UK_FULFILLMENT, pickupInit());
    await session.fetch(UK_PICKUP, pickupInit());
    expect(apple.getVisits()).toBe(1);
    expect(cookieOf(apple.calls.at(-1))).toBe('dssid2=session-1; as_dc=ucp4');
  });

  it('sends the session’s cookies to other pages of the store without visiting the bag for them', async () => {
    const apple = createFakeApple({
      answer: (url) =>
        url === UK_BUY
          ? { status: 200, body: '<html></html>', headers: [['set-cookie', 'geo=GB; Path=/']] }
          : { status: 200, body: EMPTY_ANSWER },
    });
    const session = createSessionWarmUp({ fetch: apple.fetch, now: createClock().now });
    await session.fetch(UK_BUY, pickupInit());
    expect(apple.getVisits()).toBe(0);
    await session.fetch(UK_PICKUP, pickupInit());
    expect(cookieOf(apple.calls.at(-1))).toBe('geo=GB; dssid2=session-1; as_dc=ucp4');
  });

  it('reports each visit with its cookie names, never their values', async () => {
    const events: WarmUpEvent[] = [];
    const apple = createFakeApple();
    const session = createSessionWarmUp({
      fetch: apple.fetch,
      now: createClock().now,
      onWarmUp: (event) => events.push(event),
    });
    await session.fetch(UK_PICKUP, pickupInit());
    expect(events).toEqual([
      {
        url: UK_BAG,
        outcome: 'warm',
        status: 200,
        cookieNames: ['dssid2', 'as_dc'],
        durationMs: 0,
        detail: null,
      },
    ]);
    expect(JSON.stringify(events)).not.toContain('session-1');
  });

  it('reads one cookie from a fetch whose headers cannot list them one by one', async () => {
    const calls: Call[] = [];
    const plainFetch = async (
      url: string,
      init: { headers: Record<string, string> },
    ): Promise<CookieResponseLike> => {
      calls.push({ url, headers: init.headers });
      await Promise.resolve();
      const setCookie = url.endsWith('/shop/bag') ? 'dssid2=only; Path=/' : null;
      return {
        status: 200,
        headers: { get: (name) => (name === 'set-cookie' ? setCookie : null) },
        text: () => Promise.resolve(EMPTY_ANSWER),
      };
    };
    const session = createSessionWarmUp({ fetch: plainFetch, now: createClock().now });
    await session.fetch(UK_PICKUP, pickupInit());
    expect(cookieOf(calls[1])).toBe('dssid2=only');
  });
});

describe('store root of an Apple URL', () => {
  it('is everything before shop/, country path included', () => {
    expect(findStoreRoot('https://www.apple.com/shop/retail/pickup-message?x=1')).toBe(
      'https://www.apple.com/',
    );
    expect(findStoreRoot('https://www.apple.com/hk/en/shop/fulfillment-messages')).toBe(
      'https://www.apple.com/hk/en/',
    );
    expect(findStoreRoot('http://127.0.0.1:4010/cn/shop/retail/pickup-message')).toBe(
      'http://127.0.0.1:4010/cn/',
    );
  });
});
