// `npm run bench:desktop`: how long a restock takes to become a native notification in the
// macOS app at a one-minute check interval (the fastest the app allows; the default is five),
// measured in the desktop harness: the real built main bundle with a recording fake of
// Electron, polling the upstream simulator over HTTP with the real client and token bucket.
import { COUNTRY_SEEDS, PRODUCT_MODEL_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';
import { createDesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import { measureDistanceKm, startUpstreamSimulator } from '#server/simulator/index.ts';
import { launchBrowser } from '#tests/helpers/browser.ts';
import type { FakeElectronEvent } from '#tests/helpers/fake-electron.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { startDesktopHarness } from '../e2e/desktop/desktop-harness.ts';

const FLIPS = Number(process.env.BENCH_FLIPS ?? 120);
const FLIP_EVERY_MS = 3_000;
const TAIL_MS = 90_000;
const HOME_STORE = 'R095';
const PRODUCT = 'iphone16pro';

type Flip = {
  storeId: string;
  storeName: string;
  partNumber: string;
  displayName: string;
  at: number;
};

/** The store and its 11 nearest same-country neighbours, as the simulator lists them. */
function listCoveredStores() {
  const home = STORE_SEEDS.find((store) => store.store_id === HOME_STORE)!;
  return STORE_SEEDS.filter((store) => store.country_locale === home.country_locale)
    .map((store) => ({ store, km: measureDistanceKm(home, store) }))
    .sort((a, b) => a.km - b.km || a.store.store_id.localeCompare(b.store.store_id))
    .slice(0, 12)
    .map(({ store }) => store);
}

/** The value at a quantile of sorted numbers (nearest rank). */
function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

async function main(): Promise<void> {
  const simulator = await startUpstreamSimulator({
    port: await getFreePort(),
    seed: 5,
    stores: STORE_SEEDS,
    models: PRODUCT_MODEL_SEEDS,
    countries: COUNTRY_SEEDS,
    now: Date.now,
  });
  const setShelf = async (storeId: string, partNumber: string, status: string) => {
    const response = await fetch(`${simulator.url}/_sim/stock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ store_id: storeId, part_number: partNumber, status }),
    });
    if (!response.ok) throw new Error(`Simulator refused a flip: ${response.status}`);
  };
  const models = createDesktopCatalog().listModels(PRODUCT, 'US');
  const stores = listCoveredStores();
  for (const store of stores) {
    for (const model of models) await setShelf(store.store_id, model.part_number, 'unavailable');
  }
  const browser = await launchBrowser();
  const app = await startDesktopHarness({ browser, upstreamUrl: simulator.url });
  try {
    await app.page.getByText('Add a search!').waitFor();
    await app.invoke('settings:update', { check_interval_minutes: 1 });
    const created = (await app.invoke('searches:create', {
      product_type: PRODUCT,
      store_id: HOME_STORE,
      include_nearby_store_results: true,
      product_models: models.map((model) => ({
        part_number: model.part_number,
        is_preferred: true,
      })),
    })) as { ok: boolean };
    if (!created.ok) throw new Error(`The search could not be created: ${JSON.stringify(created)}`);
    await new Promise((resolve) => setTimeout(resolve, 5_000));

    const combos = stores.flatMap((store) =>
      models.map((model) => ({
        storeId: store.store_id,
        storeName: store.store_name,
        partNumber: model.part_number,
        displayName: model.display_name,
      })),
    );
    const pending: Flip[] = [];
    const latencies: number[] = [];
    const seen = new Set<number>();
    const matchNotifications = () => {
      for (const event of app.events) {
        if (event.type !== 'notification' || seen.has(event.id)) continue;
        const candidates = pending.filter(
          (flip) => event.title.startsWith(flip.displayName) && event.body.includes(flip.storeName),
        );
        // The longest store name wins ("Apple Fifth Avenue" over a shorter name inside it).
        const flip = candidates.sort((a, b) => b.storeName.length - a.storeName.length)[0];
        if (flip === undefined) continue;
        seen.add(event.id);
        pending.splice(pending.indexOf(flip), 1);
        latencies.push(Date.now() - flip.at);
      }
    };
    const count = Math.min(FLIPS, combos.length);
    console.log(
      `Flipping ${count} shelves, one every ${FLIP_EVERY_MS / 1000} s, check interval 1 min...`,
    );
    for (let index = 0; index < count; index += 1) {
      const combo = combos.splice(Math.floor(Math.random() * combos.length), 1)[0];
      await setShelf(combo.storeId, combo.partNumber, 'available');
      pending.push({ ...combo, at: Date.now() });
      await new Promise((resolve) => setTimeout(resolve, FLIP_EVERY_MS));
      matchNotifications();
    }
    const deadline = Date.now() + TAIL_MS;
    while (pending.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      matchNotifications();
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const stray = app.events.filter(
      (event: FakeElectronEvent) => event.type === 'notification' && !seen.has(event.id),
    ).length;
    console.log('');
    console.log(
      'Simulator flip -> native notification, check interval 1 minute (shipped default: 5)',
    );
    console.log(
      `  samples   ${sorted.length} of ${count} flips (${pending.length} never notified)`,
    );
    console.log(`  p50       ${seconds(quantile(sorted, 0.5))}`);
    console.log(`  p90       ${seconds(quantile(sorted, 0.9))}`);
    if (sorted.length >= 100) console.log(`  p99       ${seconds(quantile(sorted, 0.99))}`);
    else console.log('  p99       not reported: fewer than 100 samples');
    console.log(`  max       ${seconds(sorted.at(-1) ?? 0)}`);
    console.log(`  notifications not matched to a flip: ${stray}`);
    console.log(
      'Left out: the time macOS takes to draw the notification (the fake records Notification.show()), ' +
        "and Apple's real response times (the simulator answers on loopback). Expected: uniform over the " +
        'interval (0-60 s plus jitter) plus one request; at the default five minutes, scale by five.',
    );
  } finally {
    await app.stop();
    await browser.close();
    await simulator.close();
  }
}

await main();
