import { escapeHtml } from '#server/base/escape-html.ts';

/** Wraps a message in the small standalone page the unsubscribe link shows. */
function renderPage(title: string, body: string): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(title)} · Shelfwatch</title>`,
    '<style>body{font-family:-apple-system,Helvetica,Arial,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1d1d1f}',
    'button{font-size:1rem;padding:.6rem 1.2rem;border-radius:8px;border:0;background:#0071e3;color:#fff;cursor:pointer}</style>',
    `</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
  ].join('');
}

/**
 * The page behind the link: it only asks. Mail scanners fetch links with GET, so the
 * actual change needs the button's POST (the same request RFC 8058 one-click clients send).
 */
export function renderUnsubscribeConfirmPage(actionUrl: string, isAlreadyOff: boolean): string {
  const note = isAlreadyOff ? '<p>Email alerts for this search are already off.</p>' : '';
  return renderPage(
    'Stop email alerts?',
    `${note}<p>You will no longer get emails when models of this search become available. Text and push alerts, and your other searches, are not affected.</p>` +
      `<form method="post" action="${escapeHtml(actionUrl)}">` +
      '<input type="hidden" name="List-Unsubscribe" value="One-Click">' +
      '<button type="submit">Unsubscribe</button></form>',
  );
}

/** Shown after the POST. */
export function renderUnsubscribedPage(isSearchFound: boolean): string {
  return isSearchFound
    ? renderPage(
        'Unsubscribed',
        '<p>Email alerts for this search are off. You can turn them back on in the search’s settings.</p>',
      )
    : renderPage(
        'Nothing to unsubscribe',
        '<p>This search no longer exists, so it sends no emails.</p>',
      );
}

/** Shown for a malformed or forged token. */
export function renderInvalidLinkPage(): string {
  return renderPage(
    'This link is not valid',
    '<p>The unsubscribe link is incomplete or was altered. Open it again from the email, or turn off email alerts in the search’s settings.</p>',
  );
}
