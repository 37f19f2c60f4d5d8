// Alert volume (issue 42): messages per search per hour at the simulator's default stock churn
// (seed 1, a new schedule bucket every 300 s), for the demo account's two searches, through
// the real watch engine, matching, outbox and delivery worker on one injected clock. Each
// configuration gets a fresh database; every cycle asks everything (no Apple budget), so every
// flip of the schedule is seen: the most alerts the churn can cause. Email is counted; every
// other channel follows the same cadence per channel, so its count is the same.
// In the suite it runs one simulated hour of the defaults for one demo account and checks the
// issue's target (at most 4 messages per search per hour). `npm run bench:alerts` runs BENCH_ALERT_HOURS (default 6)
// hours of the three configurations below and writes bench/alert-volume-results.md.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { loadConfig } from '#server/config/app-config.ts';
import { startAlertDelivery } from '#server/notify/delivery-worker.ts';
import { parseAlertPayload } from '#server/notify/alert-payload.ts';
import type { AlertItem } from '#server/notify/alert-types.ts';
import type { Db } from '#server/db/database.ts';
import { chooseDemoSearch, DEMO_SEARCH_SLOTS } from '#server/searches/demo-searches.ts';
import { createUserSearch } from '#server/searches/searches-service.ts';
import { DEFAULT_CHANGE_EVERY_SECONDS } from '#server/simulator/index.ts';
import { startWatchHarness } from '#tests/server/watch/support.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const IS_BENCH = process.env.BENCH_ALERT_VOLUME === '1';
const HOURS = Number(process.env.BENCH_ALERT_HOURS ?? (IS_BENCH ? '6' : '1'));
/** Demo accounts per run: each has the demo's two searches. */
const ACCOUNTS = Number(process.env.BENCH_ALERT_ACCOUNTS ?? (IS_BENCH ? '3' : '1'));

/** One way of configuring every search of a run. */
type Configuration = {
  label: string;
  /** "default": the country's (30 mi); null: no limit, as searches had before. */
  maxDistance: 'default' | null;
  cadenceMinutes: number;
};

const CONFIGURATIONS: readonly Configuration[] = [
  {
    label: 'before issue 42: no distance limit, every wave at once',
    maxDistance: null,
    cadenceMinutes: 0,
  },
  {
    label: 'distance limit only (30 mi), every wave at once',
    maxDistance: 'default',
    cadenceMinutes: 0,
  },
  {
    label: 'defaults: 30 mi, at most one message per 15 min',
    maxDistance: 'default',
    cadenceMinutes: 15,
  },
];

/** What one configuration measured. */
type Measured = {
  configuration: Configuration;
  searches: number;
  hours: number;
  messages: number;
  perSearchPerHour: number;
  busiestSearchPerHour: number;
  pairsPerMessage: { mean: number; max: number };
  farthestStoreMiles: number;
  restocks: number;
};

async function measure(configuration: Configuration): Promise<Measured> {
  // 09:00 in New York on a Thursday, when stores are open.
  const watch = await startWatchHarness({
    startMs: Date.UTC(2026, 0, 15, 14, 0, 0),
    schedule: { seed: 1, changeEverySeconds: DEFAULT_CHANGE_EVERY_SECONDS },
  });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-alert-volume-'));
  const worker = await startAlertDelivery({
    db: watch.db,
    config: loadConfig({ SHELFWATCH_DATA_DIR: dataDir, PUBLIC_URL: 'https://shelfwatch.test' }),
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    now: watch.now,
    pollIntervalMs: HOUR,
  });
  try {
    const searchIds: string[] = [];
    for (let account = 0; account < ACCOUNTS; account += 1) {
      const user = await watch.createUser(`demo${account}`, 'better');
      for (const slot of DEMO_SEARCH_SLOTS) {
        const choice = await chooseDemoSearch(watch.db, slot);
        if (choice === undefined) continue;
        const search = await createUserSearch(watch.db, user, {
          product_type: choice.product_type,
          store_id: choice.store_id,
          include_nearby_store_results: true,
          send_email_updates: true,
          alert_cadence_minutes: configuration.cadenceMinutes,
          ...(configuration.maxDistance === null ? { max_distance_miles: null } : {}),
          product_models: choice.part_numbers.map((part_number) => ({
            part_number,
            is_preferred: true,
          })),
        });
        searchIds.push(search.id);
      }
    }
    // The first answers file what is on the shelves already; the hour is counted after them.
    for (let warmUp = 0; warmUp < 3; warmUp += 1) {
      watch.advance(MINUTE);
      await watch.runCycle();
      await worker.drain();
    }
    const before = new Set((await listSentRows(watch.db)).map((row) => row.id));
    const startedAt = new Date(watch.now());
    for (let minute = 0; minute < HOURS * 60; minute += 1) {
      watch.advance(MINUTE);
      await watch.runCycle();
      await worker.drain();
    }
    const rows = (await listSentRows(watch.db)).filter((row) => !before.has(row.id));
    const perSearch = new Map<string, number>();
    for (const row of rows) perSearch.set(row.search_id, (perSearch.get(row.search_id) ?? 0) + 1);
    const pairs = rows.map((row) => row.items.length);
    const distances = rows.flatMap((row) => row.items.map((item) => item.distanceMiles ?? 0));
    const restocks = await watch.db
      .selectFrom('availability_events')
      .select(sql<number>`count(*)::int`.as('count'))
      .where('to_status', '=', 'available')
      .where('observed_at', '>', startedAt)
      .executeTakeFirstOrThrow();
    return {
      configuration,
      searches: searchIds.length,
      hours: HOURS,
      messages: rows.length,
      perSearchPerHour: rows.length / searchIds.length / HOURS,
      busiestSearchPerHour: Math.max(0, ...perSearch.values()) / HOURS,
      pairsPerMessage: {
        mean: pairs.length === 0 ? 0 : pairs.reduce((a, b) => a + b, 0) / pairs.length,
        max: Math.max(0, ...pairs),
      },
      farthestStoreMiles: Math.max(0, ...distances),
      restocks: restocks.count,
    };
  } finally {
    await worker.stop();
    await watch.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** One sent email row and the pairs it listed. */
type SentRow = { id: string; search_id: string; items: AlertItem[] };

/** Every email row sent so far, with the pairs it listed. */
async function listSentRows(db: Db): Promise<SentRow[]> {
  const rows = await db
    .selectFrom('alert_outbox')
    .select(['id', 'search_id', 'payload'])
    .where('channel', '=', 'email')
    .where('status', '=', 'sent')
    .execute();
  return rows.map((row) => {
    const payload = parseAlertPayload(row.payload);
    return {
      id: String(row.id),
      search_id: row.search_id ?? '',
      items: payload.isValid ? payload.payload.items : [],
    };
  });
}

function formatRow(result: Measured): string {
  return `| ${result.configuration.label} | ${result.messages} | ${result.perSearchPerHour.toFixed(2)} | ${result.busiestSearchPerHour.toFixed(2)} | ${result.pairsPerMessage.mean.toFixed(1)} / ${result.pairsPerMessage.max} | ${result.farthestStoreMiles.toFixed(1)} | ${result.restocks} |`;
}

function formatReport(results: readonly Measured[]): string {
  const [first] = results;
  return [
    '# Alert volume: messages per search per hour (issue 42)',
    '',
    `Date: ${new Date().toISOString()}  `,
    `Run: \`npm run bench:alerts\`; ${first?.searches ?? 0} searches (${ACCOUNTS} demo accounts × the demo's two searches: iPhone at Fifth Avenue, 3 preferred models; iPhone at Union Square, 2 preferred), ${first?.hours ?? 0} simulated hours each, one cycle a minute (POLL_INTERVAL_SECONDS 60), ALERT_QUIET_WINDOW_MINUTES 30.  `,
    `Stock: the simulator's default churn (seed 1, a new schedule bucket every ${DEFAULT_CHANGE_EVERY_SECONDS} s).`,
    '',
    '| configuration | email messages | per search per hour | busiest search per hour | pairs per message (mean / max) | farthest store named (mi) | restocks seen |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...results.map(formatRow),
    '',
    'What the figures leave out:',
    '',
    '- Every cycle asks every watched part at every store (no Apple budget): every flip of the schedule is seen, so these are the most messages the churn can cause. At the default budget (one request a minute per address) fewer flips are seen and fewer messages go.',
    "- One channel (email). Text, push and each of the user's own channels follow the same cadence separately, so a search with three channels gets three times as many messages in all.",
    '- Quiet hours are off; with them on, a night is one summary per channel.',
    "- The distance limit changes nothing here: the simulator lists the 12 stores nearest to a location, all within 29 miles of Fifth Avenue and of Union Square. It matters where a search's store has farther neighbours on file (other seeds' answers, larger nearby lists); the issue's 340-mile store is kept out by the matching query's limit (tests/e2e/website/alert-relevance.test.ts restocks it beside a near one; tests/server/notify/alert-volume.test.ts checks a 10-mile limit).",
    "- A preferred model at the search's own store goes at once, whatever the cadence: the busiest search can exceed 4 an hour only through those.",
    '- Messages whose every pair sold out before sending are dropped (suppressed `stock_gone`) and not counted.',
    '',
  ].join('\n');
}

describe('alert volume at the simulator’s default churn', () => {
  const results: Measured[] = [];
  afterAll(async () => {
    if (results.length === 0) return;
    const report = formatReport(results);
    console.log(report);
    const file = process.env.BENCH_ALERT_RESULTS;
    if (file !== undefined && file !== '') await writeFile(file, report);
  });

  it(
    'sends at most 4 messages per search per hour with the defaults',
    async () => {
      const configurations = IS_BENCH ? CONFIGURATIONS : CONFIGURATIONS.slice(-1);
      for (const configuration of configurations) results.push(await measure(configuration));
      const defaults = results.at(-1);
      expect(defaults?.perSearchPerHour).toBeLessThanOrEqual(4);
      expect(defaults?.farthestStoreMiles).toBeLessThanOrEqual(30);
    },
    IS_BENCH ? 3 * 3_600_000 : 300_000,
  );
});
