import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config/app-config.ts';
import { updateQuietHours } from '#server/db/repositories/quiet-hours-repository.ts';
import type { UserRow } from '#server/db/schema.ts';
import { startAlertDelivery, type AlertDelivery } from '#server/notify/delivery-worker.ts';
import type { AlertPayload } from '#server/notify/alert-types.ts';
import { startSmtpSink, type SmtpSink } from '#tests/helpers/smtp-sink.ts';
import {
  listSeedParts,
  listSeedStores,
  startWatchHarness,
  type WatchHarness,
} from '../watch/support.ts';
import { createTestLogger, TEST_PUBLIC_URL } from './fixtures.ts';

const HOUR = 3_600_000;
const HOME = 'R095'; // Fifth Avenue
const NEAR = 'R032'; // SoHo, about 2.3 miles away
/** 22:00 in New York (EST) on 14 January 2026: the quiet hours below begin. */
const NIGHT_START_MS = Date.UTC(2026, 0, 15, 3, 0, 0);
const NIGHT_END = '2026-01-15T12:00:00.000Z'; // 07:00 EST

type Row = {
  idempotency_key: string;
  user_id: string;
  status: string;
  next_attempt_at: Date;
  payload: AlertPayload;
};

describe('quiet hours', () => {
  let watch: WatchHarness;
  let sink: SmtpSink;
  let dataDir: string;
  let worker: AlertDelivery | undefined;
  let parts: [string, string, string];
  let exempting: UserRow;
  let strict: UserRow;

  async function readRows(): Promise<Row[]> {
    const rows = await watch.db
      .selectFrom('alert_outbox')
      .select(['idempotency_key', 'user_id', 'status', 'next_attempt_at', 'payload'])
      .orderBy('id')
      .execute();
    return rows as unknown as Row[];
  }

  beforeAll(async () => {
    watch = await startWatchHarness({ startMs: NIGHT_START_MS });
    sink = await startSmtpSink();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-quiet-'));
    parts = listSeedParts('US', 'iphone16pro').slice(0, 3) as [string, string, string];
    for (const storeId of listSeedStores('en_US')) {
      for (const part of parts) watch.simulator.setStatus(storeId, part, 'unavailable');
    }
    const night = {
      quiet_hours_enabled: true,
      quiet_hours_start: '22:00',
      quiet_hours_end: '07:00',
      quiet_hours_time_zone: 'America/New_York',
    };
    exempting = await watch.createUser('exempting', 'better');
    await updateQuietHours(watch.db, exempting.id, {
      ...night,
      quiet_hours_preferred_at_store: true,
    });
    strict = await watch.createUser('strict', 'better');
    await updateQuietHours(watch.db, strict.id, {
      ...night,
      quiet_hours_preferred_at_store: false,
    });
    for (const user of [exempting, strict]) {
      await watch.createSearch(user, {
        productId: 'iphone16pro',
        storeId: HOME,
        preferred: parts,
        isNearby: true,
        isText: false,
      });
    }
    expect((await watch.runCycle()).failed).toBe(0);
  });
  afterAll(async () => {
    await worker?.stop();
    await watch.close();
    await sink.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('holds a night of waves in one summary per search released at the end, and sends preferred models at my store at once', async () => {
    // 23:00: a model comes in nearby. 01:00: another nearby. 04:00: one at the search's store.
    watch.advance(HOUR);
    watch.simulator.setStatus(NEAR, parts[0], 'available');
    await watch.runCycle();
    watch.advance(2 * HOUR);
    watch.simulator.setStatus(NEAR, parts[1], 'available');
    await watch.runCycle();
    watch.advance(3 * HOUR);
    watch.simulator.setStatus(HOME, parts[2], 'available');
    await watch.runCycle();

    const rows = await readRows();
    const held = rows.filter((row) => row.idempotency_key.includes(':held:'));
    expect(held).toHaveLength(2);
    for (const row of held) {
      expect(row.status).toBe('pending');
      expect(row.next_attempt_at.toISOString()).toBe(NIGHT_END);
      expect(row.payload.heldUntil).toBe(NIGHT_END);
    }
    const strictSummary = held.find((row) => row.user_id === strict.id);
    // Nearest first: the model at the search's own store, then the two at SoHo.
    const strictParts = strictSummary?.payload.items.map((item) => item.partNumber) ?? [];
    expect(strictParts[0]).toBe(parts[2]);
    expect(strictParts.slice(1).sort()).toEqual([parts[0], parts[1]].sort());
    const exemptSummary = held.find((row) => row.user_id === exempting.id);
    expect(exemptSummary?.payload.items.map((item) => item.storeId)).toEqual([NEAR, NEAR]);
    const atOnce = rows.filter((row) => !row.idempotency_key.includes(':held:'));
    expect(atOnce).toHaveLength(1);
    expect(atOnce[0]?.user_id).toBe(exempting.id);
    expect(atOnce[0]?.payload.items.map((item) => item.partNumber)).toEqual([parts[2]]);
    expect(atOnce[0]?.payload.heldUntil).toBeNull();

    // The window ended long ago in real time, so the worker sends everything now: three emails.
    worker = await startAlertDelivery({
      db: watch.db,
      config: loadConfig({
        SHELFWATCH_DATA_DIR: dataDir,
        PUBLIC_URL: TEST_PUBLIC_URL,
        SMTP_URL: sink.url,
      }),
      logger: createTestLogger(),
      pollIntervalMs: 100,
    });
    await sink.waitForMessages(3);
    await worker.drain();
    expect(sink.messages).toHaveLength(3);
    const toStrict = sink.messages.filter((mail) => mail.envelopeTo.includes('strict@example.com'));
    expect(toStrict).toHaveLength(1);
    expect(toStrict[0]?.parsed.subject).toMatch(
      /^Quiet hours summary: .+ at Fifth Avenue, your store, and 2 more$/,
    );
    expect(toStrict[0]?.parsed.text).toContain('Held during your quiet hours');
    for (const part of parts) expect(toStrict[0]?.parsed.text).toContain(`(${part})`);
    const toExempting = sink.messages
      .filter((mail) => mail.envelopeTo.includes('exempting@example.com'))
      .map((mail) => mail.parsed.subject ?? '');
    expect(toExempting.sort()).toEqual([
      expect.stringMatching(/^Quiet hours summary: .+ at SoHo, \d+\.\d mi, and 1 more$/),
      expect.stringMatching(/^iPhone .+ at Fifth Avenue, your store$/),
    ]);
  });

  it('keeps a held summary back while its window lasts', async () => {
    sink.messages.length = 0;
    // Move the watch clock to the real present and open a window around it (in UTC).
    watch.advance(Date.now() - watch.now());
    const clock = (offsetMs: number): string =>
      new Date(Date.now() + offsetMs).toISOString().slice(11, 16);
    await updateQuietHours(watch.db, strict.id, {
      quiet_hours_enabled: true,
      quiet_hours_start: clock(-HOUR),
      quiet_hours_end: clock(2 * HOUR),
      quiet_hours_time_zone: 'UTC',
      quiet_hours_preferred_at_store: false,
    });
    watch.simulator.setStatus(HOME, parts[0], 'available');
    await watch.runCycle();
    await worker?.drain();
    const held = (await readRows()).filter(
      (row) => row.user_id === strict.id && row.status === 'pending',
    );
    expect(held).toHaveLength(1);
    expect(held[0]?.next_attempt_at.getTime()).toBeGreaterThan(Date.now() + HOUR);
    expect(sink.messages.some((mail) => mail.envelopeTo.includes('strict@example.com'))).toBe(
      false,
    );
  });
});
