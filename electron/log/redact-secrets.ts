import { inspect } from 'node:util';

// The log is for support: a user attaches it to an email, so nothing in it may let a reader
// act as the user or know who they are. Every line passes through here before it is written,
// whatever logged it (the app, electron-updater, an error's stack): tokens, login codes,
// passwords and email addresses are replaced by a placeholder naming what was there.

/** What stands where a secret was. */
export const REDACTED = {
  token: '[token]',
  email: '[email]',
  value: '[redacted]',
} as const;

/** A JSON Web Token: three base64url parts, the first a JSON header (`{"` is `eyJ`). */
const JWT_PATTERN = /\beyJ[\w-]+\.[\w-]+\.[\w-]*/g;
const BEARER_PATTERN = /\b(Bearer\s+)[^\s"',;]+/gi;
/** Secrets in a URL's query or fragment: an OAuth code, state, a token of any kind. */
const QUERY_SECRET_PATTERN =
  /([?&#](?:code|state|code_verifier|access_token|refresh_token|id_token|token)=)[^&#\s"']+/gi;
/** Secrets as named fields of JSON, a form body or an object printed by util.inspect. */
const FIELD_SECRET_PATTERN =
  /(\b(?:access_?token|refresh_?token|id_?token|token|client_?secret|secret|code_?verifier|password|authorization)\b["']?\s*[:=]\s*["']?)([^"'\s,&}]+)/gi;
const EMAIL_PATTERN = /[\w.%+-]+@[A-Za-z\d.-]+\.[A-Za-z]{2,}/g;

/** The text with every token, login secret and email address replaced. */
export function redactSecrets(text: string): string {
  return text
    .replace(JWT_PATTERN, REDACTED.token)
    .replace(BEARER_PATTERN, `$1${REDACTED.token}`)
    .replace(QUERY_SECRET_PATTERN, `$1${REDACTED.value}`)
    .replace(FIELD_SECRET_PATTERN, (_match, field: string, value: string) =>
      value === REDACTED.token || value === REDACTED.value
        ? `${field}${value}`
        : `${field}${REDACTED.value}`,
    )
    .replace(EMAIL_PATTERN, REDACTED.email);
}

/**
 * One logged value made safe: text redacted, an error kept an error (the log prints its
 * stack) with its message and stack redacted, anything else printed and redacted.
 */
export function redactLogValue(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (value instanceof Error) {
    const safe = new Error(redactSecrets(value.message));
    safe.name = value.name;
    safe.stack = redactSecrets(value.stack ?? `${value.name}: ${value.message}`);
    return safe;
  }
  if (value === null || value === undefined || typeof value !== 'object') return value;
  return redactSecrets(inspect(value, { depth: 4, breakLength: Infinity }));
}

/** The shape of electron-log's message that a hook sees and returns. */
export type LogMessageLike = { data: unknown[] };

/** electron-log hook: every message, for every transport, leaves with its data redacted. */
export function redactLogMessage<T extends LogMessageLike>(message: T): T {
  return { ...message, data: message.data.map(redactLogValue) };
}
