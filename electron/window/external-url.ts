import type { Shell } from 'electron';

// Links leave the app only through here. `shell.openExternal` hands a URL to whatever the
// system registered for its scheme, so file:, javascript:, data:, smb: or some app's custom
// scheme from a compromised page could run code or open files; only web addresses pass.

/** Longest address handed to the browser (the IPC schema allows the same). */
const MAX_URL_LENGTH = 2048;

/** True for an http: or https: address with a host and no embedded credentials. */
export function isSafeExternalUrl(url: string): boolean {
  return parseSafeExternalUrl(url) !== null;
}

/**
 * Opens a web address in the user's browser; answers false (and opens nothing) for anything
 * else. The normalised form is opened, so what was checked is what the system sees.
 */
export async function openExternalSafely(
  shell: Pick<Shell, 'openExternal'>,
  url: string,
): Promise<boolean> {
  const parsed = parseSafeExternalUrl(url);
  if (parsed === null) return false;
  await shell.openExternal(parsed.href);
  return true;
}

/** The parsed URL when it is a safe web address, otherwise null. */
function parseSafeExternalUrl(url: string): URL | null {
  if (typeof url !== 'string' || url.length === 0 || url.length > MAX_URL_LENGTH) return null;
  // The URL parser silently drops surrounding spaces, tabs and newlines; a link that needs
  // that repair did not come from our own screens.
  if (url.trim() !== url || hasControlCharacter(url)) return null;
  // The parser also repairs `https:///host` and `https:\\host` into `https://host/`; a
  // well-formed web address spells `scheme://host` itself.
  if (!/^https?:\/\/[^/\\]/i.test(url)) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (parsed.hostname === '') return null;
  // user:password@host addresses are a phishing trick (the visible "host" is the user name).
  if (parsed.username !== '' || parsed.password !== '') return null;
  return parsed;
}

function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
