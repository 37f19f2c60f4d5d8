import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { upsertPushSubscription } from '#server/db/repositories/notify-repository.ts';
import { enqueueAlerts } from '#server/notify/outbox.ts';
import { loadOrCreateNotifySecrets } from '#server/notify/secrets.ts';
import { createNotifyFixture, TEST_PUBLIC_URL, type NotifyFixture } from './fixtures.ts';
import { startLocalPushService, type LocalPushService } from './push-service.ts';

describe('web push alerts', () => {
  let fixture: NotifyFixture;
  let pushService: LocalPushService;
  beforeAll(async () => {
    fixture = await createNotifyFixture();
    pushService = await startLocalPushService();
  });
  afterEach(async () => fixture.stopWorkers());
  afterAll(async () => {
    await fixture.close();
    await pushService.close();
  });

  async function waitForStatus(key: string, status: string): Promise<void> {
    await fixture.waitFor(`${key} to be ${status}`, async () =>
      (await fixture.listOutbox()).some(
        (row) => row.idempotency_key === key && row.status === status,
      ),
    );
  }

  it('delivers an encrypted, VAPID-signed notification the browser can read', async () => {
    const user = await fixture.createUser('quinn', 'best');
    const search = await fixture.createSearch(user);
    const browser = pushService.createBrowser('quinn-laptop');
    await upsertPushSubscription(fixture.db, user.id, browser);
    await enqueueAlerts(fixture.db, [fixture.buildAlert(user, search, 'push', 'delivered')]);
    await fixture.startWorker(fixture.buildConfig(), { pushAgent: pushService.agent });
    await waitForStatus('delivered:push', 'sent');

    const [push] = pushService.received;
    expect(push?.path).toBe('/push/quinn-laptop');
    expect(push?.headers['content-encoding']).toBe('aes128gcm');
    expect(push?.headers.topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const { vapid } = await loadOrCreateNotifySecrets(fixture.db);
    expect(String(push?.headers.authorization)).toMatch(
      new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${vapid.publicKey}$`),
    );
    const content = JSON.parse(browser.decrypt(push?.body ?? Buffer.alloc(0))) as Record<
      string,
      string
    >;
    expect(content).toEqual({
      title: 'iPhone 16 Pro 256GB Desert Titanium at Fifth Avenue, 2.4 mi',
      body: 'Apple Fifth Avenue (New York, NY) · Available Today · seen 10:15',
      url: `${TEST_PUBLIC_URL}/search/${search.id}`,
      tag: `shelfwatch:${search.id}:R095:MYMJ3LL/A`,
    });
  });

  it('deletes a subscription the push service answers 410 for, and suppresses when none is left', async () => {
    const user = await fixture.createUser('rae', 'best');
    const search = await fixture.createSearch(user);
    const gone = pushService.createBrowser('rae-old-phone');
    pushService.goneEndpoints.add('/push/rae-old-phone');
    await upsertPushSubscription(fixture.db, user.id, gone);
    await enqueueAlerts(fixture.db, [fixture.buildAlert(user, search, 'push', 'gone')]);
    await fixture.startWorker(fixture.buildConfig(), { pushAgent: pushService.agent });
    await waitForStatus('gone:push', 'suppressed');
    const left = await fixture.db
      .selectFrom('push_subscriptions')
      .select('endpoint')
      .where('user_id', '=', user.id)
      .execute();
    expect(left).toEqual([]);
    expect(
      (await fixture.listOutbox()).find((row) => row.idempotency_key === 'gone:push')?.last_error,
    ).toBe('no_push_subscription');
  });
});
