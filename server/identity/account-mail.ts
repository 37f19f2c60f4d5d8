import { randomBytes } from 'node:crypto';
import { createMailTransport } from '#server/notify/email-channel.ts';
import { escapeHtml } from '#server/base/escape-html.ts';

/** One account email (finish setup, forgot password): plain text and HTML. */
export type AccountEmail = { to: string; subject: string; text: string; html: string };

/**
 * Sends account emails the way alerts go (server/notify/email-channel.ts): over SMTP_URL, or
 * as .eml files under SHELFWATCH_DATA_DIR/outbox/email/ when SMTP is not configured.
 */
export type AccountMailer = { kind: 'smtp' | 'file'; send: (email: AccountEmail) => Promise<void> };

/** The mailer of an SMTP URL, or of the data folder's outbox without one. */
export function createAccountMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
}): AccountMailer {
  // One connection per message: these are rare, so nothing is kept open between them.
  const transport = createMailTransport({ ...options, isPooled: false });
  return {
    kind: transport.kind,
    send: async (email) => {
      const fileName = `account-${Date.now()}-${randomBytes(4).toString('hex')}.eml`;
      await transport.sendMail({ from: options.from, ...email }, fileName);
    },
  };
}

/** A short account email: greeting lines, one button-like link, then closing lines. */
export function composeLinkEmail(options: {
  to: string;
  subject: string;
  intro: string[];
  link: { url: string; text: string };
  outro: string[];
}): AccountEmail {
  const text = [
    ...options.intro,
    '',
    `${options.link.text}: ${options.link.url}`,
    '',
    ...options.outro,
    '',
    '— Shelfwatch',
  ].join('\n');
  const paragraphs = (lines: string[]): string =>
    lines.map((line) => `<p style="margin:0 0 12px">${escapeHtml(line)}</p>`).join('\n');
  const html = `<!DOCTYPE html>
<html lang="en"><body style="font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#212529;line-height:1.5">
${paragraphs(options.intro)}
<p style="margin:20px 0"><a href="${escapeHtml(options.link.url)}" style="display:inline-block;padding:10px 18px;background:#0d6efd;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(options.link.text)}</a></p>
<p style="margin:0 0 12px;color:#6c757d;font-size:14px">If the button does not work, copy this address into your browser:<br>${escapeHtml(options.link.url)}</p>
${paragraphs(options.outro)}
<p style="margin:0;color:#6c757d">— Shelfwatch</p>
</body></html>`;
  return { to: options.to, subject: options.subject, text, html };
}
