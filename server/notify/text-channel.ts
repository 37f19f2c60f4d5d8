import path from 'node:path';
import type TwilioSdk from 'twilio';
import { DeliveryError, writeFileAtomically } from './delivery-error.ts';

/** Twilio's error for "the recipient replied STOP to this sender". */
const TWILIO_UNSUBSCRIBED_RECIPIENT = 21610;

/** Twilio sending credentials. */
export type TwilioSettings = {
  accountSid: string;
  authToken: string;
  fromNumber: string;
  apiBaseUrl: string | undefined;
};

/** Sends alert texts through Twilio, or writes them under dataDir/outbox/text/ without it. */
export type TextSender = {
  kind: 'twilio' | 'file';
  send: (text: {
    outboxId: string;
    to: string;
    body: string;
  }) => Promise<{ sid: string | undefined }>;
};

/**
 * Creates the sender for the configured mode. The Twilio SDK (~95 ms of modules) is loaded
 * only when Twilio is configured; its client checks the settings here, as the worker starts.
 */
export async function createTextSender(options: {
  twilio: TwilioSettings | undefined;
  dataDir: string;
}): Promise<TextSender> {
  const settings = options.twilio;
  if (settings === undefined) {
    const folder = path.join(options.dataDir, 'outbox', 'text');
    return {
      kind: 'file',
      send: async (text) => {
        const record = { to: text.to, body: text.body, writtenAt: new Date().toISOString() };
        await writeFileAtomically(
          path.join(folder, `alert-${text.outboxId}.json`),
          `${JSON.stringify(record, null, 2)}\n`,
        );
        return { sid: undefined };
      },
    };
  }
  const twilio = (await import('twilio')).default;
  // Its class extends the SDK's client, so it loads with the SDK.
  const { RebasedRequestClient } = await import('./twilio-request-client.ts');
  const client = twilio(settings.accountSid, settings.authToken, {
    ...(settings.apiBaseUrl === undefined
      ? {}
      : { httpClient: new RebasedRequestClient(settings.apiBaseUrl) }),
  });
  return {
    kind: 'twilio',
    send: async (text) => {
      try {
        const message = await client.messages.create({
          to: text.to,
          from: settings.fromNumber,
          body: text.body,
        });
        return { sid: message.sid };
      } catch (error) {
        throw classifyTwilioError(error, twilio.RestException);
      }
    },
  };
}

/** 429 and 5xx are retried; other 4xx (bad number, unsubscribed) will not get better. */
function classifyTwilioError(
  error: unknown,
  RestException: typeof TwilioSdk.RestException,
): DeliveryError {
  if (error instanceof RestException) {
    const detail = `Twilio ${error.status}${error.code === undefined ? '' : ` (${error.code})`}: ${error.message}`;
    if (error.code === TWILIO_UNSUBSCRIBED_RECIPIENT) {
      return new DeliveryError('opted-out', detail, { cause: error });
    }
    const isRetryable = error.status === 429 || error.status >= 500;
    return new DeliveryError(isRetryable ? 'transient' : 'permanent', detail, { cause: error });
  }
  return new DeliveryError(
    'transient',
    `Twilio: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}
