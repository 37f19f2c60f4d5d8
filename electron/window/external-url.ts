import type { Shell } from 'electron';

// Links leave the app only through here. `shell.openExternal` hands a URL to whatever the
// system registered for its scheme, so file:, javascript:, data:, smb: or some app's custom
// scheme from a compromised page could run code or open files; only web addresses pass, and
// of those only the ones on the app's allow-list (a compromised page must not be able to send
// the user to a look-alike site with the app's authority).

/** Longest address handed to the browser (the IPC schema allows the same). */
const MAX_URL_LENGTH = 2048;

/** True for an http: or https: address with a host and no embedded credentials. */
export function isSafeExternalUrl(url: string): boolean {
  return parseSafeExternalUrl(url) !== null;
}

/**
 * Where the app may send the user: https to Apple (apple.com and its subdomains), to the
 * Shelfwatch site and to the maker's site (the footer's link), the site's own origin as
 * configured (http only for a developer's local site), and mail to the support address.
 */
export type ExternalUrlAllowList = {
  /** Hosts allowed over https, each with its subdomains. */
  httpsHosts: readonly string[];
  /** Exact origins allowed whatever their scheme (a local site in development). */
  origins: readonly string[];
  /** Addresses a mailto: link may name. */
  mailAddresses: readonly string[];
};

/** The allow-list of a build: Apple, the configured site and the support address. */
export function buildExternalAllowList(config: {
  siteUrl: string;
  supportEmail: string;
  makerUrl?: string;
}): ExternalUrlAllowList {
  const site = new URL(config.siteUrl);
  const isLocalSite = site.protocol === 'http:' && isLoopbackHost(site.hostname);
  const maker = config.makerUrl === undefined ? null : new URL(config.makerUrl);
  return {
    httpsHosts: [
      'apple.com',
      ...(site.protocol === 'https:' ? [site.hostname] : []),
      ...(maker?.protocol === 'https:' ? [maker.hostname] : []),
    ],
    origins: site.protocol === 'https:' || isLocalSite ? [site.origin] : [],
    mailAddresses: [config.supportEmail.toLowerCase()],
  };
}

/** True when the URL is a safe address that the allow-list names. */
export function isAllowedExternalUrl(url: string, allowList: ExternalUrlAllowList): boolean {
  return parseAllowedUrl(url, allowList) !== null;
}

/**
 * Opens an address in the user's browser (or mail app) when the allow-list names it; answers
 * false (and opens nothing) for anything else. Without an allow-list any safe web address
 * passes (the login page of the configured provider). The normalised form is opened, so what
 * was checked is what the system sees.
 */
export async function openExternalSafely(
  shell: Pick<Shell, 'openExternal'>,
  url: string,
  allowList?: ExternalUrlAllowList,
): Promise<boolean> {
  const parsed =
    allowList === undefined ? parseSafeExternalUrl(url) : parseAllowedUrl(url, allowList);
  if (parsed === null) return false;
  await shell.openExternal(parsed.href);
  return true;
}

function parseAllowedUrl(url: string, allowList: ExternalUrlAllowList): URL | null {
  if (typeof url === 'string' && /^mailto:/i.test(url)) return parseAllowedMail(url, allowList);
  const parsed = parseSafeExternalUrl(url);
  if (parsed === null) return null;
  if (allowList.origins.includes(parsed.origin)) return parsed;
  if (parsed.protocol !== 'https:' || parsed.port !== '') return null;
  const host = parsed.hostname.toLowerCase();
  const isListed = allowList.httpsHosts.some(
    (allowed) => host === allowed || host.endsWith(`.${allowed}`),
  );
  return isListed ? parsed : null;
}

function parseAllowedMail(url: string, allowList: ExternalUrlAllowList): URL | null {
  if (url.length > MAX_URL_LENGTH || url.trim() !== url || hasControlCharacter(url)) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const address = decodeURIComponent(parsed.pathname).toLowerCase();
  return allowList.mailAddresses.includes(address) ? parsed : null;
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
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
