import { FAVICON_PATH } from './favicon.ts';
import { escapeHtml } from '#server/base/escape-html.ts';

/** Message shown when a sign-in attempt fails; deliberately silent about which part was wrong. */
export const WRONG_CREDENTIALS_MESSAGE = 'Wrong email or password.';

// Bootstrap 5's look (colours, radii, focus ring) inlined: the provider serves no static files.
const STYLES = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:1rem;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:1rem;
line-height:1.5;color:#212529;background:#f8f9fa}
.card{width:100%;max-width:400px;background:#fff;border:1px solid rgba(0,0,0,.175);border-radius:.5rem;
box-shadow:0 .125rem .25rem rgba(0,0,0,.075);padding:2rem}
.brand{margin:0 0 .25rem;font-size:1.75rem;font-weight:600;text-align:center;color:#0d6efd}
.lead{margin:0 0 1.5rem;text-align:center;color:#6c757d}
.mb-3{margin-bottom:1rem}
label{display:inline-block;margin-bottom:.5rem;font-weight:500}
.form-control{display:block;width:100%;padding:.375rem .75rem;font:inherit;color:#212529;background:#fff;
border:1px solid #dee2e6;border-radius:.375rem;transition:border-color .15s,box-shadow .15s}
.form-control:focus{outline:0;border-color:#86b7fe;box-shadow:0 0 0 .25rem rgba(13,110,253,.25)}
.btn{display:inline-block;width:100%;padding:.375rem .75rem;font:inherit;font-weight:500;text-align:center;
text-decoration:none;color:#fff;background:#0d6efd;border:1px solid #0d6efd;border-radius:.375rem;cursor:pointer}
.btn:hover{background:#0b5ed7;border-color:#0a58ca}
.btn:focus-visible{outline:0;box-shadow:0 0 0 .25rem rgba(49,132,253,.5)}
.alert{padding:.75rem 1rem;margin-bottom:1rem;border:1px solid transparent;border-radius:.375rem}
.alert-danger{color:#58151c;background:#f8d7da;border-color:#f1aeb5}
.text-muted{color:#6c757d}
.links{margin:1rem 0 0;text-align:center}
a{color:#0d6efd}
`;

/** A complete page: the product's card layout around `body` (already safe HTML). */
export function renderPage(title: string, body: string, options: { head?: string } = {}): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" type="image/svg+xml" href="${FAVICON_PATH}">
<title>${escapeHtml(title)} · Shelfwatch</title>
<style>${STYLES}</style>
${options.head ?? ''}
</head>
<body>
<main class="card">
<h1 class="brand">Shelfwatch</h1>
${body}
</main>
</body>
</html>`;
}

/**
 * The sign-in form of one interaction; `error` is shown above the fields, `email` kept, and
 * a "Forgot password?" link when the provider can mail reset links.
 */
export function renderLoginPage(options: {
  uid: string;
  email?: string;
  error?: string;
  forgotPasswordHref?: string;
}): string {
  const email = options.email ?? '';
  const action = `/interaction/${encodeURIComponent(options.uid)}/login`;
  const alert =
    options.error === undefined
      ? ''
      : `<div class="alert alert-danger" role="alert">${escapeHtml(options.error)}</div>`;
  // Focus where the person will type next: the password once the email is known.
  const emailFocus = email === '' ? ' autofocus' : '';
  const passwordFocus = email === '' ? '' : ' autofocus';
  return renderPage(
    'Sign in',
    `<p class="lead">Sign in to your account</p>
${alert}
<form method="post" action="${escapeHtml(action)}">
<div class="mb-3">
<label for="email">Email address</label>
<input class="form-control" id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}"${emailFocus}>
</div>
<div class="mb-3">
<label for="password">Password</label>
<input class="form-control" id="password" name="password" type="password" autocomplete="current-password" required${passwordFocus}>
</div>
<button class="btn" type="submit">Sign in</button>
</form>${
      options.forgotPasswordHref === undefined
        ? ''
        : `\n<p class="links"><a href="${escapeHtml(options.forgotPasswordHref)}">Forgot password?</a></p>`
    }`,
  );
}

/** A page with a heading, a sentence and an optional link back to the site. */
export function renderMessagePage(options: {
  title: string;
  message: string;
  link?: { href: string; text: string };
}): string {
  const link =
    options.link === undefined
      ? ''
      : `<a class="btn" href="${escapeHtml(options.link.href)}">${escapeHtml(options.link.text)}</a>`;
  return renderPage(
    options.title,
    `<p class="lead">${escapeHtml(options.title)}</p>
<p class="text-muted">${escapeHtml(options.message)}</p>
${link}`,
  );
}

/**
 * The logout confirmation form, submitted by the page itself: Auth0's /v2/logout has no
 * confirmation step, and the SPA expects to land back on the site. `form` is oidc-provider's
 * own markup (it carries the anti-forgery `xsrf` field bound to the session cookie).
 */
export function renderLogoutPage(form: string): string {
  const confirmed = form.replace(
    '</form>',
    '<input type="hidden" name="logout" value="yes"></form>',
  );
  return renderPage(
    'Signing out',
    `<p class="lead">Signing you out…</p>
${confirmed}
<noscript><button class="btn" type="submit" form="op.logoutForm">Sign out</button></noscript>
<script>document.getElementById('op.logoutForm').submit();</script>`,
  );
}
