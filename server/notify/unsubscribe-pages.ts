import { escapeHtml } from '#server/base/escape-html.ts';

// The site's brand mark (assets/brand-icon.svg), inline so the page needs no other request.
const BRAND_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="28" height="28" aria-hidden="true"><circle cx="16" cy="16" r="15" fill="#0d6efd"/><path d="M9 16l5 5 9-10" stroke="white" stroke-width="3" fill="none"/></svg>';

// The website's look in a few rules: Bootstrap's system font stack, body colours and primary
// blue, a navbar with the brand, a card, and the same light/dark schemes.
const PAGE_STYLE = [
  ':root{color-scheme:light dark;--fg:#212529;--muted:#6c757d;--bg:#f8f9fa;--card:#fff;--line:#dee2e6;--primary:#0d6efd}',
  '@media (prefers-color-scheme:dark){:root{--fg:#dee2e6;--muted:#adb5bd;--bg:#212529;--card:#2b3035;--line:#495057;--primary:#6ea8fe}}',
  '*{box-sizing:border-box}',
  'body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;line-height:1.5;color:var(--fg);background:var(--bg)}',
  'header{background:var(--card);border-bottom:1px solid var(--line);padding:.75rem 1rem}',
  '.brand{display:inline-flex;align-items:center;gap:.5rem;font-size:1.25rem;font-weight:600;color:var(--fg);text-decoration:none}',
  'main{max-width:34rem;margin:3rem auto;padding:0 1rem}',
  '.card{background:var(--card);border:1px solid var(--line);border-radius:.5rem;padding:1.5rem}',
  'h1{font-size:1.5rem;margin:0 0 1rem}',
  'a{color:var(--primary)}',
  'button{font:inherit;padding:.5rem 1rem;border-radius:.375rem;border:0;background:#0d6efd;color:#fff;cursor:pointer}',
  'footer{margin-top:1rem;color:var(--muted);font-size:.875rem}',
].join('');

/** Wraps a message in the site's look: the brand linking home, a card, a way back to the site. */
function renderPage(title: string, body: string): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(title)} · Shelfwatch</title>`,
    `<style>${PAGE_STYLE}</style>`,
    '</head><body>',
    `<header><a class="brand" href="/">${BRAND_ICON}<span>Shelfwatch</span></a></header>`,
    `<main><div class="card"><h1>${escapeHtml(title)}</h1>${body}</div>`,
    '<footer><a href="/">Back to Shelfwatch</a></footer>',
    '</main></body></html>',
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
