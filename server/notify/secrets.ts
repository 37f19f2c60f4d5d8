import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Executor } from '#server/db/database.ts';
import { loadOrCreateSecret } from '#server/db/repositories/secrets-repository.ts';

/** `app_secrets` row holding the HMAC key of unsubscribe links. */
const UNSUBSCRIBE_SECRET = 'notify.unsubscribe-hmac';
/** `app_secrets` row holding the VAPID key pair of web push. */
const VAPID_SECRET = 'notify.vapid-keys';

const unsubscribeSecretSchema = z.object({ key: z.string().min(32) });
const vapidKeysSchema = z.object({ publicKey: z.string().min(1), privateKey: z.string().min(1) });

/** The VAPID key pair the push services know this server by. */
export type VapidKeys = z.infer<typeof vapidKeysSchema>;

/** Secrets of the notification channels, generated on first use and kept in the database. */
export type NotifySecrets = { unsubscribeKey: Buffer; vapid: VapidKeys };

/** Reads the channel secrets, generating each once; concurrent first starts agree on one value. */
export async function loadOrCreateNotifySecrets(db: Executor): Promise<NotifySecrets> {
  const unsubscribe = unsubscribeSecretSchema.parse(
    await loadOrCreateSecret(db, UNSUBSCRIBE_SECRET, () => ({
      key: randomBytes(32).toString('base64url'),
    })),
  );
  const vapid = vapidKeysSchema.parse(
    // web-push is loaded only to make the keys, once per database, not on every start.
    await loadOrCreateSecret(db, VAPID_SECRET, async () =>
      (await import('web-push')).default.generateVAPIDKeys(),
    ),
  );
  return { unsubscribeKey: Buffer.from(unsubscribe.key, 'base64url'), vapid };
}
