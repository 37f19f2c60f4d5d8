// A fake Apple for the engine's unit tests, answering through the real client as Apple's
// 2025-2026 pickup-message answers do (../shared/reference/apple/captures): the first 20 parts
// asked are answered, a part not sold there is left out of every store, and when nothing asked
// is sellable the answer is the empty-content body. Stores and parts are shaped like the UAE
// capture's, trimmed to the fields the client reads.
import {
  fetchPickupAvailability,
  type FetchLike,
  type KnownPickupStatus,
  type PickupAnswer,
  type UpstreamResult,
} from '#shared/upstream/index.ts';
import type { RetirementEvidence } from '#shared/upstream/index.ts';
import type { WatchPort } from '#shared/watch/engine/index.ts';

/** Apple answers at most this many parts a request (Dgon5000/iphone-stock-watch-hk). */
export const APPLE_PART_CAP = 20;
const EMPTY_CONTENT = '{"head":{"status":"200","data":{}},"body":{"content":{}}}';
const STORES = ['R706', 'R595', 'R596'];

/** What the fake Apple sells, and how. */
export type FakeAppleOptions = {
  /** Parts Apple sells in the country; any other is left out, or empty content alone. */
  sold: ReadonlySet<string>;
  /** Status of a sold part at every store (available unless set). */
  statusOf?: (partNumber: string, storeNumber: string) => KnownPickupStatus;
  /** Parts to leave out of the next answers, once each: an answer's glitch. */
  glitches?: Set<string>;
  /** Answer "Product(s) Invalid or not buyable" (older answers) when any of these is asked. */
  invalidMessageFor?: ReadonlySet<string>;
};

/** A fetch that answers pickup-message as Apple does, recording the parts of every request. */
export function createFakeApple(options: FakeAppleOptions): {
  fetch: FetchLike;
  asked: string[][];
} {
  const asked: string[][] = [];
  const fetch: FetchLike = async (url) => {
    const query = new URL(url).searchParams;
    const parts = [...query.keys()]
      .filter((key) => key.startsWith('parts.'))
      .map((key) => query.get(key)!);
    asked.push(parts);
    const json = (body: string) =>
      new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    if (parts.some((part) => options.invalidMessageFor?.has(part))) {
      return json(
        JSON.stringify({
          head: { status: '200' },
          body: {
            content: { pickupMessage: { errorMessage: 'Product(s) Invalid or not buyable' } },
          },
        }),
      );
    }
    const answered = parts
      .slice(0, APPLE_PART_CAP)
      .filter((part) => options.sold.has(part))
      .filter((part) => !(options.glitches?.delete(part) ?? false));
    if (answered.length === 0) return json(EMPTY_CONTENT);
    const stores = STORES.map((storeNumber, index) => ({
      storeNumber,
      storeName: `Store ${storeNumber}`,
      country: 'AE',
      city: 'Abu Dhabi',
      storedistance: 10 * (index + 1),
      storeDistanceWithUnit: `${10 * (index + 1)} km`,
      partsAvailability: Object.fromEntries(
        answered.map((part) => {
          const status = options.statusOf?.(part, storeNumber) ?? 'available';
          return [
            part,
            {
              storePickEligible: true,
              partNumber: part,
              pickupDisplay: status,
              pickupSearchQuote:
                status === 'available' ? 'Available Today' : 'Currently unavailable',
              messageTypes: { regular: { storePickupProductTitle: `Model ${part}` } },
            },
          ];
        }),
      ),
    }));
    return json(JSON.stringify({ head: { status: '200', data: {} }, body: { stores } }));
  };
  return { fetch, asked };
}

/** What the fake port recorded. */
export type PortRecord = {
  refused: string[];
  answers: { answer: PickupAnswer; askedParts: readonly string[] }[];
  evidence: RetirementEvidence[];
  backOffs: number;
};

/** A port over the fake Apple: every send is one HTTP request through the real client. */
export function createFakePort(fetch: FetchLike): { port: WatchPort; record: PortRecord } {
  const record: PortRecord = { refused: [], answers: [], evidence: [], backOffs: 0 };
  const port: WatchPort = {
    send: async (partNumbers): Promise<UpstreamResult<PickupAnswer>> =>
      await fetchPickupAvailability(
        {
          fetch,
          now: () => 0,
          baseUrl: 'https://www.apple.com',
          shape: 'pickup-message',
          fallbackShape: false,
        },
        { countryCode: 'AE', location: 'Abu Dhabi', partNumbers },
      ),
    recordRefusedParts: async (parts) => {
      record.refused.push(...parts);
    },
    recordAnswer: async (answer, askedParts) => {
      record.answers.push({ answer, askedParts });
    },
    recordRetirementEvidence: async (evidence) => {
      record.evidence.push(evidence);
      return [];
    },
    backOff: async () => {
      record.backOffs += 1;
    },
  };
  return { port, record };
}

/** Part numbers P01, P02, ... as one product type's models. */
export function listModels(
  count: number,
  productId = 'phone',
): { part_number: string; product_id: string }[] {
  return Array.from({ length: count }, (_, index) => ({
    part_number: `P${String(index + 1).padStart(2, '0')}`,
    product_id: productId,
  }));
}
