import { MIN_PASSWORD_LENGTH } from './idp-accounts.ts';
import { escapeHtml } from '#server/base/escape-html.ts';
import { renderPage } from './pages.ts';

/** Where the "Forgot password?" form lives at the embedded provider. */
export const FORGOT_PASSWORD_PATH = '/account/forgot-password';

/** The neutral answer to a reset request, the same whether or not the address has an account. */
export const RESET_REQUESTED_MESSAGE =
  'If an account uses this address, we have sent it an email with a link to choose a new password. The link works once and expires in one hour. Check your spam folder if it does not arrive within a few minutes.';

function renderAlert(error: string | undefined): string {
  return error === undefined
    ? ''
    : `<div class="alert alert-danger" role="alert">${escapeHtml(error)}</div>`;
}

/** The "Forgot password?" form: one email field. */
export function renderForgotPasswordPage(
  options: { email?: string; error?: string; signInHref?: string; uid?: string } = {},
): string {
  const uid =
    options.uid === undefined
      ? ''
      : `<input type="hidden" name="uid" value="${escapeHtml(options.uid)}">`;
  const back =
    options.signInHref === undefined
      ? ''
      : `<p class="text-muted links"><a href="${escapeHtml(options.signInHref)}">Back to sign in</a></p>`;
  return renderPage(
    'Forgot password',
    `<p class="lead">Forgot your password?</p>
<p class="text-muted">Enter your account's email address and we will send you a link to choose a new password.</p>
${renderAlert(options.error)}
<form method="post" action="${FORGOT_PASSWORD_PATH}">
${uid}
<div class="mb-3">
<label for="email">Email address</label>
<input class="form-control" id="email" name="email" type="email" autocomplete="username" required autofocus value="${escapeHtml(options.email ?? '')}">
</div>
<button class="btn" type="submit">Send the link</button>
</form>
${back}`,
  );
}

/**
 * The form of a one-time link: the account's email (for password managers, not editable),
 * the new password twice, and the token as a hidden field so the post carries it.
 */
export function renderSetPasswordPage(options: {
  action: string;
  token: string;
  email: string;
  isFirstPassword: boolean;
  error?: string;
}): string {
  const heading = options.isFirstPassword ? 'Choose your password' : 'Choose a new password';
  return renderPage(
    heading,
    `<p class="lead">${heading}</p>
${renderAlert(options.error)}
<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="token" value="${escapeHtml(options.token)}">
<div class="mb-3">
<label for="email">Email address</label>
<input class="form-control" id="email" name="email" type="email" autocomplete="username" readonly value="${escapeHtml(options.email)}">
</div>
<div class="mb-3">
<label for="password">New password</label>
<input class="form-control" id="password" name="password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required autofocus>
<div class="text-muted">At least ${MIN_PASSWORD_LENGTH} characters.</div>
</div>
<div class="mb-3">
<label for="confirm">New password again</label>
<input class="form-control" id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required>
</div>
<button class="btn" type="submit">Set password</button>
</form>`,
  );
}
