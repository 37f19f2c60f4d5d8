import { z } from 'zod';
import { optionalString } from './environment-values.ts';

/** Channel settings from the environment (README: ALLOW_PRIVATE_CHANNEL_TARGETS, TELEGRAM_API_BASE_URL). */
export type ChannelSettings = {
  allowPrivateTargets: boolean;
  telegramApiBaseUrl: string;
  /** Per request: connecting, headers and body each. */
  timeoutMs: number;
};

/** Alert delivery: SMTP/Twilio unset means messages are written under dataDir/outbox/. */
export type NotifySettings = {
  smtpUrl: string | undefined;
  mailFrom: string;
  twilio:
    | {
        accountSid: string;
        authToken: string;
        fromNumber: string;
        apiBaseUrl: string | undefined;
      }
    | undefined;
  /** Twilio's auth token verifies inbound webhooks even when sending is not configured. */
  twilioAuthToken: string | undefined;
  vapidSubject: string;
  storePageBaseUrl: string;
  /** Users' own channels: ALLOW_PRIVATE_CHANNEL_TARGETS, TELEGRAM_API_BASE_URL, 10 s timeouts. */
  channels: ChannelSettings;
};

/** The variables of alert delivery: email, texts, web push, users' own channels, alert pacing. */
export const notifyEnvironmentSchema = z.object({
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default('Shelfwatch <alerts@shelfwatch.app>'),
  TWILIO_ACCOUNT_SID: optionalString,
  TWILIO_AUTH_TOKEN: optionalString,
  TWILIO_FROM_NUMBER: optionalString,
  TWILIO_API_BASE_URL: optionalString,
  // Development only: lets ntfy/Discord/webhook channels point at http:// and private addresses.
  ALLOW_PRIVATE_CHANNEL_TARGETS: z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((value) => value === 'true' || value === '1'),
  TELEGRAM_API_BASE_URL: z.string().url().default('https://api.telegram.org'),
  VAPID_SUBJECT: optionalString,
  ALERT_QUIET_WINDOW_MINUTES: z.coerce.number().int().min(0).default(30),
  STORE_PAGE_BASE_URL: z.string().url().default('https://www.apple.com/retail/'),
});

/** Delivery settings from the validated environment; web push names `supportEmail` by default. */
export function readNotifySettings(
  values: z.output<typeof notifyEnvironmentSchema>,
  supportEmail: string,
): NotifySettings {
  return {
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    twilio:
      values.TWILIO_ACCOUNT_SID !== undefined &&
      values.TWILIO_AUTH_TOKEN !== undefined &&
      values.TWILIO_FROM_NUMBER !== undefined
        ? {
            accountSid: values.TWILIO_ACCOUNT_SID,
            authToken: values.TWILIO_AUTH_TOKEN,
            fromNumber: values.TWILIO_FROM_NUMBER,
            apiBaseUrl: values.TWILIO_API_BASE_URL,
          }
        : undefined,
    twilioAuthToken: values.TWILIO_AUTH_TOKEN,
    vapidSubject: values.VAPID_SUBJECT ?? `mailto:${supportEmail}`,
    storePageBaseUrl: values.STORE_PAGE_BASE_URL.endsWith('/')
      ? values.STORE_PAGE_BASE_URL
      : `${values.STORE_PAGE_BASE_URL}/`,
    channels: {
      allowPrivateTargets: values.ALLOW_PRIVATE_CHANNEL_TARGETS,
      telegramApiBaseUrl: values.TELEGRAM_API_BASE_URL,
      timeoutMs: 10_000,
    },
  };
}
