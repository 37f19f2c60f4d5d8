import { createHash } from 'node:crypto';
import path from 'node:path';
import type nodemailer from 'nodemailer';
import type { SendMailOptions } from 'nodemailer';
import { loadOnFirstUse } from '#server/base/load-on-first-use.ts';
import { DeliveryError, writeFileAtomically } from './delivery-error.ts';
import type { EmailContent } from './templates.ts';

/** One alert email ready to go. */
export type OutgoingEmail = {
  outboxId: string;
  idempotencyKey: string;
  to: string;
  content: EmailContent;
  unsubscribe: { url: string; mailto: string };
};

/** Sends alert emails over SMTP, or writes them as .eml files when SMTP is not configured. */
export type EmailSender = {
  kind: 'smtp' | 'file';
  send: (email: OutgoingEmail) => Promise<void>;
  close: () => void;
};

/**
 * The Message-ID of an alert, a pure function of its idempotency key: if a worker dies after
 * the SMTP server accepted a message but before the row was marked sent, the resend carries
 * the same Message-ID, which receivers (and mailbox software) use to discard the duplicate.
 */
export function deriveMessageId(idempotencyKey: string, from: string): string {
  const digest = createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 40);
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'shelfwatch.invalid';
  return `<alert-${digest}@${domain}>`;
}

/** Creates the sender: SMTP when `smtpUrl` is set, else files under dataDir/outbox/email/. */
export function createEmailSender(options: {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
}): EmailSender {
  const build = (email: OutgoingEmail): SendMailOptions => ({
    from: options.from,
    to: email.to,
    subject: email.content.subject,
    text: email.content.text,
    html: email.content.html,
    messageId: deriveMessageId(email.idempotencyKey, options.from),
    headers: {
      'List-Unsubscribe': `<${email.unsubscribe.url}>, <${email.unsubscribe.mailto}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'X-Shelfwatch-Alert': email.idempotencyKey,
    },
  });
  const transport = createMailTransport({ ...options, isPooled: true });
  return {
    kind: transport.kind,
    send: async (email) => {
      try {
        // Named after the row: a resend overwrites the same file instead of adding a second one.
        await transport.sendMail(build(email), `alert-${email.outboxId}.eml`);
      } catch (error) {
        throw transport.kind === 'smtp' ? classifySmtpError(error) : error;
      }
    },
    close: () => transport.close(),
  };
}

/** Where mail goes: an SMTP server, or .eml files in the data folder's outbox. */
export type MailTransport = {
  kind: 'smtp' | 'file';
  /** Sends the message; in the outbox it is written as `fileName`. */
  sendMail: (message: SendMailOptions, fileName: string) => Promise<void>;
  close: () => void;
};

/**
 * The one mail transport of alerts and account emails: SMTP when `smtpUrl` is set (pooled
 * when `isPooled`: reusing connections skips the TCP/EHLO handshake per alert during a
 * burst), else files under dataDir/outbox/email/.
 */
export function createMailTransport(options: {
  smtpUrl: string | undefined;
  dataDir: string;
  isPooled: boolean;
}): MailTransport {
  let opened: { close: () => void } | undefined;
  // nodemailer loads with the first message, not at start; a failed load fails that send.
  const openOnFirstUse = <T extends { close: () => void }>(
    create: (mailer: typeof nodemailer) => T,
  ): (() => Promise<T>) =>
    loadOnFirstUse(async () => {
      const transport = create((await import('nodemailer')).default);
      opened = transport;
      return transport;
    });
  if (options.smtpUrl === undefined) {
    const folder = path.join(options.dataDir, 'outbox', 'email');
    const open = openOnFirstUse((mailer) =>
      mailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    );
    return {
      kind: 'file',
      sendMail: async (message, fileName) => {
        const info = await (await open()).sendMail(message);
        if (!Buffer.isBuffer(info.message)) {
          throw new Error('nodemailer returned a stream although buffer: true was asked for');
        }
        await writeFileAtomically(path.join(folder, fileName), info.message);
      },
      close: () => opened?.close(),
    };
  }
  const smtpUrl = options.smtpUrl;
  const open = openOnFirstUse((mailer) =>
    mailer.createTransport({
      url: smtpUrl,
      ...(options.isPooled ? { pool: true, maxConnections: 5 } : {}),
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 30_000,
    }),
  );
  return {
    kind: 'smtp',
    sendMail: async (message) => {
      await (await open()).sendMail(message);
    },
    close: () => opened?.close(),
  };
}

/** 5xx replies are final (bad address, policy); 4xx replies and network errors are worth retrying. */
function classifySmtpError(error: unknown): DeliveryError {
  const responseCode =
    typeof error === 'object' && error !== null && 'responseCode' in error
      ? Number(error.responseCode)
      : NaN;
  const message = error instanceof Error ? error.message : String(error);
  const kind = responseCode >= 500 && responseCode < 600 ? 'permanent' : 'transient';
  return new DeliveryError(kind, `SMTP: ${message}`, { cause: error });
}
