import { sql } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '#server/db/database.ts';
import { QUEUE_SCHEMA, WATCH_POLL_QUEUE } from '#server/db/queue-schema.ts';

/** What a process reports to Prometheus: its own counters, and the shared state read at scrape. */
export type ShelfwatchMetrics = {
  registry: Registry;
  /** Counts one poll job's outcome in this process. */
  recordPoll: (outcome: PollOutcomeLabel) => void;
  /** Counts one alert's final outcome on a channel, and its delay from the change when sent. */
  recordAlert: (alert: { channel: string; status: string; delaySeconds?: number }) => void;
};

/** A poll outcome as metrics see it. */
export type PollOutcomeLabel =
  | { kind: 'polled' }
  | { kind: 'failed'; failureKind: string; coolDownSeconds: number }
  | { kind: 'skipped'; reason: string };

/** Window the upstream request gauges cover (the status page reads the same). */
const RECENT_WINDOW_MINUTES = 15;

/**
 * Builds the registry. Counters count what this process did (each worker reports its own;
 * Prometheus sums them); gauges are read from the database at scrape time, so every process
 * reports the same shared state: upstream health, cool-downs, staleness, queue depth, outbox.
 */
export function createMetrics(db: Db, options: { now?: () => number } = {}): ShelfwatchMetrics {
  const now = options.now ?? Date.now;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'shelfwatch_' });

  const polls = new Counter({
    name: 'shelfwatch_poll_jobs_total',
    help: 'Poll jobs run by this process, by result (ok, a failure kind, or skipped:<reason>)',
    labelNames: ['result'],
    registers: [registry],
  });
  const upstream = new Counter({
    name: 'shelfwatch_upstream_requests_total',
    help: 'Requests this process sent upstream, by outcome (ok or the failure kind)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const coolDowns = new Counter({
    name: 'shelfwatch_upstream_cool_downs_total',
    help: 'Failures that put a host in cool-down, started by this process',
    labelNames: ['failure_kind'],
    registers: [registry],
  });
  const alerts = new Counter({
    name: 'shelfwatch_alerts_total',
    help: 'Alerts this process settled, by channel and status (sent, suppressed, failed)',
    labelNames: ['channel', 'status'],
    registers: [registry],
  });
  const alertDelay = new Histogram({
    name: 'shelfwatch_alert_delay_seconds',
    help: 'From the answer that saw the change (outbox row written) to the alert handed to its channel',
    labelNames: ['channel'],
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
    registers: [registry],
  });

  new Gauge({
    name: 'shelfwatch_upstream_recent_requests',
    help: `Upstream requests of all workers in the last ${RECENT_WINDOW_MINUTES} minutes, by host and outcome`,
    labelNames: ['host', 'outcome'],
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await db
        .selectFrom('upstream_requests')
        .select(['host', sql<string>`coalesce(failure_kind, 'ok')`.as('outcome')])
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('requested_at', '>=', new Date(now() - RECENT_WINDOW_MINUTES * 60_000))
        .groupBy(['host', 'failure_kind'])
        .execute();
      for (const row of rows) this.set({ host: row.host, outcome: row.outcome }, Number(row.count));
    },
  });
  new Gauge({
    name: 'shelfwatch_upstream_cool_down_seconds',
    help: 'Seconds left of each upstream host cool-down (0 when it may be asked)',
    labelNames: ['host'],
    registers: [registry],
    async collect() {
      this.reset();
      const hosts = await db
        .selectFrom('upstream_hosts')
        .select(['host', 'cool_down_until'])
        .execute();
      for (const host of hosts) {
        const left = (host.cool_down_until?.getTime() ?? 0) - now();
        this.set({ host: host.host }, Math.max(0, left / 1000));
      }
    },
  });
  new Gauge({
    name: 'shelfwatch_group_staleness_seconds',
    help: 'Age of the newest answer covering each poll group: median, 95th percentile and maximum (groups never covered excluded)',
    labelNames: ['quantile'],
    registers: [registry],
    async collect() {
      this.reset();
      const row = await sql<{ p50: number | null; p95: number | null; max: number | null }>`
        select
          percentile_cont(0.5) within group (order by age) as p50,
          percentile_cont(0.95) within group (order by age) as p95,
          max(age) as max
        from (
          select extract(epoch from (${new Date(now())}::timestamptz - last_covered_at)) as age
          from poll_targets where last_covered_at is not null
        ) ages`.execute(db);
      const ages = row.rows[0];
      if (ages?.max === null || ages === undefined) return;
      this.set({ quantile: '0.5' }, Number(ages.p50));
      this.set({ quantile: '0.95' }, Number(ages.p95));
      this.set({ quantile: '1' }, Number(ages.max));
    },
  });
  new Gauge({
    name: 'shelfwatch_poll_groups',
    help: 'Poll groups: all, never covered yet, and overdue (older than the freshness the budget promises)',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const freshness = await db
        .selectFrom('watch_freshness')
        .select('all_fresh_within_ms')
        .executeTakeFirst();
      const bound = freshness?.all_fresh_within_ms;
      // Without a promise yet (no worker planned a cycle) nothing counts as overdue.
      const overdueBefore = new Date(
        bound !== undefined && Number.isFinite(bound) ? now() - bound : 0,
      );
      const row = await db
        .selectFrom('poll_targets')
        .select((eb) => [
          eb.fn.countAll<number>().as('total'),
          sql<number>`count(*) filter (where last_covered_at is null)`.as('never'),
          sql<number>`count(*) filter (where last_covered_at < ${overdueBefore})`.as('overdue'),
        ])
        .executeTakeFirstOrThrow();
      this.set({ state: 'all' }, Number(row.total));
      this.set({ state: 'never_covered' }, Number(row.never));
      this.set({ state: 'overdue' }, Number(row.overdue));
    },
  });
  new Gauge({
    name: 'shelfwatch_freshness_promise_seconds',
    help: 'Staleness the request budget of all live workers gives: alerting groups, and every group',
    labelNames: ['groups'],
    registers: [registry],
    async collect() {
      this.reset();
      const row = await db.selectFrom('watch_freshness').selectAll().executeTakeFirst();
      if (row === undefined) return;
      this.set({ groups: 'alerting' }, row.alerting_fresh_within_ms / 1000);
      this.set({ groups: 'all' }, row.all_fresh_within_ms / 1000);
    },
  });
  new Gauge({
    name: 'shelfwatch_poll_queue_jobs',
    help: 'Poll jobs waiting and running across all workers (pg-boss counts, refreshed every 10 s)',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      this.reset();
      const table = await sql<{
        name: string | null;
      }>`select to_regclass(${`${QUEUE_SCHEMA}.queue`})::text as name`.execute(db);
      if (table.rows[0]?.name === null || table.rows[0]?.name === undefined) return;
      const row = await sql<{ queued: number; active: number }>`
        select queued_count as queued, active_count as active
        from ${sql.table(`${QUEUE_SCHEMA}.queue`)} where name = ${WATCH_POLL_QUEUE}`.execute(db);
      const counts = row.rows[0];
      if (counts === undefined) return;
      this.set({ state: 'queued' }, Number(counts.queued));
      this.set({ state: 'active' }, Number(counts.active));
    },
  });
  new Gauge({
    name: 'shelfwatch_alert_outbox',
    help: 'Alerts in the outbox by status (pending and sending are waiting for delivery)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await db
        .selectFrom('alert_outbox')
        .select('status')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .groupBy('status')
        .execute();
      for (const row of rows) this.set({ status: row.status }, Number(row.count));
    },
  });

  return {
    registry,
    recordPoll: (outcome) => {
      if (outcome.kind === 'polled') {
        polls.inc({ result: 'ok' });
        upstream.inc({ outcome: 'ok' });
      } else if (outcome.kind === 'failed') {
        polls.inc({ result: outcome.failureKind });
        upstream.inc({ outcome: outcome.failureKind });
        if (outcome.coolDownSeconds > 0) coolDowns.inc({ failure_kind: outcome.failureKind });
      } else {
        polls.inc({ result: `skipped:${outcome.reason}` });
      }
    },
    recordAlert: ({ channel, status, delaySeconds }) => {
      alerts.inc({ channel, status });
      if (status === 'sent' && delaySeconds !== undefined) {
        alertDelay.observe({ channel }, delaySeconds);
      }
    },
  };
}
