// Contract tests on the answers Apple really gave (../shared/reference/apple/captures, each with
// its source): every pickup or fulfillment answer there must parse to what a person reading it
// sees. The checks read the capture itself for what to expect, so a capture added later is
// held to the same contract; the UAE answer is also read field by field.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fetchPickupAvailability } from '#shared/upstream/client.ts';
import { interpretPickupResponse } from '#shared/upstream/parse-response.ts';
import type { ParsedPickup, UpstreamResult } from '#shared/upstream/types.ts';
import { buildResponse, createScriptedFetch } from './support.ts';

const CAPTURES = path.resolve(process.cwd(), '../shared/reference/apple/captures');
const isPresent = existsSync(CAPTURES);
const AE_CAPTURE = 'ae-pickup-message-abu-dhabi-2026-09-21-mjx94.json';
const EMPTY_CAPTURE = 'hk-pickup-message-empty-content-2025-10-06.json';
const VERIFICATION_CAPTURE = 'hk-pickup-message-empty-content-2025-10-06.verification.json';
const NO_LOCATION_CAPTURE = 'hk-fulfillment-messages-no-location-2025-10-06.json';

type Json = Record<string, unknown>;
/** One answer found in the captures: where it came from and its decoded body. */
type CapturedAnswer = { name: string; document: Json };

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every pickup or fulfillment answer in the folder: files that are an answer (`head`/`body`),
 * and the answers a verification script recorded (`all_results[].response_data`). Buy-page
 * data and text slices are not answers of these endpoints.
 */
function listCapturedAnswers(): CapturedAnswer[] {
  const answers: CapturedAnswer[] = [];
  for (const name of readdirSync(CAPTURES)
    .filter((file) => file.endsWith('.json'))
    .sort()) {
    const document: unknown = JSON.parse(readFileSync(path.join(CAPTURES, name), 'utf8'));
    if (isRecord(document) && isRecord(document.body)) answers.push({ name, document });
    const results = isRecord(document) ? document.all_results : undefined;
    if (!Array.isArray(results)) continue;
    results.forEach((result, index) => {
      if (isRecord(result) && isRecord(result.response_data)) {
        answers.push({ name: `${name} all_results[${index}]`, document: result.response_data });
      }
    });
  }
  return answers;
}

/** The raw stores of an answer in either shape, as a reader finds them. */
function readRawStores(document: Json): Json[] {
  const body = document.body as Json;
  const content = isRecord(body.content) ? body.content : {};
  const pickupMessage = isRecord(content.pickupMessage) ? content.pickupMessage : {};
  const stores = Array.isArray(body.stores) ? body.stores : pickupMessage.stores;
  return Array.isArray(stores) ? stores.filter(isRecord) : [];
}

/** The parts each raw store lists, with the part's pickupDisplay. */
function readRawParts(store: Json): [string, string][] {
  const parts = isRecord(store.partsAvailability) ? store.partsAvailability : {};
  return Object.entries(parts).map(([partNumber, line]) => [
    partNumber,
    isRecord(line) && typeof line.pickupDisplay === 'string' ? line.pickupDisplay : '',
  ]);
}

function interpret(document: Json, requestedParts: readonly string[] = []) {
  return interpretPickupResponse(
    {
      status: 200,
      contentType: 'application/json;charset=utf-8',
      retryAfter: null,
      bodyText: JSON.stringify(document),
    },
    Date.UTC(2026, 8, 21),
    { requestedParts, defaultUnit: 'km' },
  );
}

function expectStores(result: UpstreamResult<ParsedPickup>): ParsedPickup {
  if (!result.ok)
    throw new Error(`expected stores, got ${result.failure.kind}: ${result.failure.message}`);
  return result.value;
}

/** Text a person reads: no markup, no entity, no U+00A0. */
function expectPlainText(text: string | null): void {
  if (text === null) return;
  expect(text).not.toMatch(/[<>]|&[a-z]+;|\u00a0/);
  expect(text).toBe(text.trim());
}

const title = `Apple's captured answers (${path.relative(process.cwd(), CAPTURES)})${
  isPresent ? '' : ': skipped, ../shared is not next to the repository'
}`;

describe.skipIf(!isPresent)(title, () => {
  const answers = isPresent ? listCapturedAnswers() : [];

  it('finds the captured pickup and fulfillment answers the reference lists', () => {
    const names = answers.map((answer) => answer.name.split(' ')[0]);
    expect(new Set(names)).toEqual(
      new Set([AE_CAPTURE, EMPTY_CAPTURE, VERIFICATION_CAPTURE, NO_LOCATION_CAPTURE]),
    );
  });

  it('reads every listed store with its number, plain name, distance in the unit shown and every status shown', () => {
    const withStores = answers.filter((answer) => readRawStores(answer.document).length > 0);
    expect(withStores.length).toBeGreaterThan(0);
    for (const { name, document } of withStores) {
      const raw = readRawStores(document);
      const parsed = expectStores(interpret(document));
      expect(
        parsed.stores.map((store) => store.storeNumber),
        name,
      ).toEqual(raw.map((store) => store.storeNumber));
      for (const [index, store] of parsed.stores.entries()) {
        const rawStore = raw[index] ?? {};
        expectPlainText(store.name);
        expectPlainText(store.city);
        const shown =
          typeof rawStore.storeDistanceWithUnit === 'string' ? rawStore.storeDistanceWithUnit : '';
        const [value, unit] = shown.split(' ');
        expect(store.distance, `${name} ${store.storeNumber}`).toEqual({
          value: Number(value),
          unit,
        });
        const statuses = Object.fromEntries(
          store.parts.map((part) => [part.partNumber, part.status]),
        );
        expect(statuses).toEqual(Object.fromEntries(readRawParts(rawStore)));
        for (const part of store.parts) {
          expectPlainText(part.pickupQuote);
          expectPlainText(part.productTitle);
        }
      }
    }
  });

  it('reads the empty-content body as nothing sellable, every time it was recorded', () => {
    const empty = answers.filter(
      (answer) =>
        isRecord(answer.document.body) &&
        isRecord(answer.document.body.content) &&
        Object.keys(answer.document.body.content).length === 0,
    );
    // The derived file and the four answers its verification script recorded.
    expect(empty).toHaveLength(5);
    for (const { document } of empty) {
      const result = interpret(document, ['MYD83ZP/A']);
      expect(result.ok ? 'stores' : result.failure).toMatchObject({
        kind: 'nothing_sellable',
        coolDownSeconds: 0,
      });
    }
  });

  it('reads a fulfillment answer asked without a location as no stores, never as unavailable', () => {
    const { document } = answers.find((answer) => answer.name === NO_LOCATION_CAPTURE)!;
    const result = interpret(document, ['MFYP4ZA/A']);
    expect(result.ok).toBe(false);
    expect(result.ok ? null : result.failure.message).toMatch(/no stores/);
  });

  it('reads the UAE answer field by field: five stores nearest first, km, Dubai Mall ineligible, what filing a store needs', async () => {
    const body = readFileSync(path.join(CAPTURES, AE_CAPTURE), 'utf8');
    const { fetch } = createScriptedFetch(() => buildResponse(200, body));
    const result = await fetchPickupAvailability(
      {
        fetch,
        now: () => 0,
        baseUrl: 'https://www.apple.com',
        shape: 'pickup-message',
        fallbackShape: false,
      },
      { countryCode: 'AE', location: 'Abu Dhabi', partNumbers: ['MJX94AH/A'] },
    );
    const answer = expectStores(result);
    expect(answer.location).toBe('Abu Dhabi');
    expect(
      answer.stores.map((store) => [
        store.storeNumber,
        store.name,
        store.city,
        store.distance?.value,
      ]),
    ).toEqual([
      ['R706', 'Al Maryah Island', 'Abu Dhabi', 9.44],
      ['R595', 'Yas Mall', 'Abu Dhabi', 19.47],
      ['R596', 'Mall of the Emirates', 'Dubai', 109.47],
      ['R597', 'Dubai Mall', 'Dubai', 121.02],
      ['R785', 'Al Jimi Mall', 'Al Ain', 132.89],
    ]);
    expect(answer.stores.every((store) => store.distance?.unit === 'km')).toBe(true);
    expect(answer.stores.map((store) => store.parts[0]?.status)).toEqual([
      'unavailable',
      'unavailable',
      'unavailable',
      'ineligible',
      'unavailable',
    ]);
    expect(answer.stores[0]).toMatchObject({
      country: 'AE',
      state: null,
      latitude: 24.501327,
      longitude: 54.388378,
      facts: {
        timezone: 'Asia/Dubai',
        street: 'The Galleria Al Maryah Island',
        street2: null,
        postalCode: null,
        phone: '800-04440521',
      },
    });
    expect(answer.stores[3]?.parts[0]).toEqual({
      partNumber: 'MJX94AH/A',
      status: 'ineligible',
      pickupQuote: 'Unavailable for pickup at Apple Dubai Mall',
      productTitle: 'iPhone 18 Pro Max 512GB Black',
      isPickEligible: true,
    });
  });
});
