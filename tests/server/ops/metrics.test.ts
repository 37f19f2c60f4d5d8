import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics, type ShelfwatchMetrics } from '#server/ops/metrics.ts';
import { createAlertRecorder } from '#server/notify/record-alert.ts';
import type { ClaimedRow } from '#server/notify/outbox-claims.ts';
import { metricsRoutes } from '#server/ops/metrics-routes.ts';
import {
  listSeedParts,
  listSeedStores,
  startWatchHarness,
  type WatchHarness,
} from '#tests/server/watch/support.ts';

const TOKEN = 'scrape-secret';

let watch: WatchHarness;
let metrics: ShelfwatchMetrics;
let app: FastifyInstance;

/** The scrape's value of one series, e.g. `shelfwatch_poll_groups{state="all"}`. */
function readSeries(body: string, series: string): number | undefined {
  const line = body.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrape(): Promise<string> {
  const response = await app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toContain('text/plain');
  return response.body;
}

beforeAll(async () => {
  watch = await startWatchHarness();
  const user = await watch.createUser('metrics', 'best');
  await watch.createSearch(user, {
    productId: 'iphone16',
    storeId: listSeedStores('en_US')[0],
    preferred: [listSeedParts('US', 'iphone16')[0]],
  });
  metrics = createMetrics(watch.db, { now: watch.now });
  app = Fastify();
  await app.register(metricsRoutes, { metrics, token: TOKEN });
});

afterAll(async () => {
  await app.close();
  await watch.close();
});

describe('GET /metrics', () => {
  it('refuses a scrape without the configured token', async () => {
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'unauthenticated' });
  });

  it('reports upstream requests, groups and staleness from the database after a cycle', async () => {
    await watch.runCycle();
    watch.advance(30_000);
    const body = await scrape();
    const host = new URL(watch.simulator.url).host;
    expect(
      readSeries(body, `shelfwatch_upstream_recent_requests{host="${host}",outcome="ok"}`),
    ).toBe(1);
    expect(readSeries(body, 'shelfwatch_poll_groups{state="all"}')).toBe(1);
    expect(readSeries(body, 'shelfwatch_poll_groups{state="never_covered"}')).toBe(0);
    expect(readSeries(body, 'shelfwatch_group_staleness_seconds{quantile="1"}')).toBe(30);
    expect(readSeries(body, `shelfwatch_upstream_cool_down_seconds{host="${host}"}`)).toBe(0);
    expect(body).toContain('shelfwatch_process_resident_memory_bytes');
  });

  it('counts this process’s polls, cool-downs and alerts with their delay', async () => {
    metrics.recordPoll({ kind: 'polled' });
    metrics.recordPoll({ kind: 'failed', failureKind: 'blocked', coolDownSeconds: 900 });
    metrics.recordPoll({ kind: 'skipped', reason: 'covered' });
    const recordAlert = createAlertRecorder(metrics, () => 10_500);
    const row = { channel: 'email', created_at: new Date(10_000) } as ClaimedRow;
    recordAlert(row, { status: 'pending', error: 'busy', retryInMs: 1000 });
    recordAlert(row, { status: 'sent' });
    const body = await scrape();
    expect(readSeries(body, 'shelfwatch_upstream_requests_total{outcome="ok"}')).toBe(1);
    expect(readSeries(body, 'shelfwatch_upstream_requests_total{outcome="blocked"}')).toBe(1);
    expect(readSeries(body, 'shelfwatch_upstream_cool_downs_total{failure_kind="blocked"}')).toBe(
      1,
    );
    expect(readSeries(body, 'shelfwatch_poll_jobs_total{result="skipped:covered"}')).toBe(1);
    // The retry is not an outcome yet: one alert, sent half a second after its row was written.
    expect(readSeries(body, 'shelfwatch_alerts_total{channel="email",status="sent"}')).toBe(1);
    expect(readSeries(body, 'shelfwatch_alert_delay_seconds_sum{channel="email"}')).toBe(0.5);
    expect(
      readSeries(body, 'shelfwatch_alert_delay_seconds_bucket{le="0.5",channel="email"}'),
    ).toBe(1);
  });
});
