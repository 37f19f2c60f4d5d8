import { describe, expect, it } from 'vitest';
import { STORE_SEEDS } from '#shared/catalog/index.ts';
import { LEGACY_SIMULATOR_BEHAVIOUR } from '#server/simulator/index.ts';
import { getScheduledStatus } from '#server/simulator/stock-schedule.ts';
import {
  expectAnswer,
  listPartNumbers,
  START_MS,
  startSimulatorHarness,
  BROWSER_HEADERS,
} from './support.ts';

// Sold parts: a retired one reads ineligible whatever the schedule says.
const US_PARTS = listPartNumbers('US', 'iphone16');
const US_STORES = STORE_SEEDS.filter((store) => store.country_locale === 'en_US').map(
  (store) => store.store_id,
);

describe('simulated stock', () => {
  it('gives byte-identical answers for the same seed and time, in separate simulators', async () => {
    const bodies: string[] = [];
    for (let run = 0; run < 2; run += 1) {
      const harness = await startSimulatorHarness({ seed: 2024 });
      try {
        const url = `${harness.simulator.url}/shop/fulfillment-messages?pl=true&mts.0=regular&${US_PARTS.map((part, index) => `parts.${index}=${part}`).join('&')}&searchNearby=true&store=R095`;
        bodies.push(await (await fetch(url, { headers: BROWSER_HEADERS })).text());
      } finally {
        await harness.close();
      }
    }
    expect(bodies[0]).toBe(bodies[1]);
  });

  it('gives different shelves for a different seed', () => {
    const shelves = (seed: number): string =>
      US_STORES.flatMap((store) =>
        US_PARTS.map((part) => getScheduledStatus(seed, store, part, START_MS, 300)),
      ).join();
    expect(shelves(1)).toBe(shelves(1));
    expect(shelves(1)).not.toBe(shelves(2));
  });

  it('changes stock over time, a bucket at a time, with most shelves empty', () => {
    let changes = 0;
    let available = 0;
    let observed = 0;
    for (const store of US_STORES) {
      for (const part of US_PARTS) {
        let previous = getScheduledStatus(7, store, part, START_MS, 60);
        for (let minute = 1; minute <= 30; minute += 1) {
          const status = getScheduledStatus(7, store, part, START_MS + minute * 60_000, 60);
          if (status !== previous) changes += 1;
          if (status === 'available') available += 1;
          observed += 1;
          previous = status;
        }
      }
    }
    expect(changes).toBeGreaterThan(observed / 10);
    expect(available / observed).toBeGreaterThan(0.1);
    expect(available / observed).toBeLessThan(0.5);
  });

  it('holds a status within a bucket, so polls seconds apart agree', () => {
    for (const part of US_PARTS) {
      // Every pair has its own phase; sampling a whole period finds at most one change.
      let changes = 0;
      let previous = getScheduledStatus(7, 'R095', part, START_MS, 60);
      for (let second = 1; second <= 60; second += 1) {
        const status = getScheduledStatus(7, 'R095', part, START_MS + second * 1000, 60);
        if (status !== previous) changes += 1;
        previous = status;
      }
      expect(changes).toBeLessThanOrEqual(1);
    }
  });

  it('serves the schedule through the real client as time moves on', async () => {
    const harness = await startSimulatorHarness({
      seed: 11,
      changeEverySeconds: 60,
      behaviour: LEGACY_SIMULATOR_BEHAVIOUR,
    });
    try {
      const request = { countryCode: 'US', storeNumber: 'R095', partNumbers: US_PARTS };
      const first = expectAnswer(await harness.ask(request));
      const again = expectAnswer(await harness.ask(request));
      const listStatuses = (stores: typeof first.stores): string[] =>
        stores.flatMap((store) =>
          store.parts.map((part) => `${store.storeNumber}:${part.partNumber}:${part.status}`),
        );
      expect(listStatuses(again.stores)).toEqual(listStatuses(first.stores));
      for (const store of first.stores) {
        for (const part of store.parts) {
          expect(part.status).toBe(
            getScheduledStatus(11, store.storeNumber, part.partNumber, START_MS, 60),
          );
        }
      }
      harness.advanceClock(10 * 60_000);
      const later = expectAnswer(await harness.ask(request));
      expect(listStatuses(later.stores)).not.toEqual(listStatuses(first.stores));
    } finally {
      await harness.close();
    }
  });
});
