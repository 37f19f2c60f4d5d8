import { isIP } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';
import { z } from 'zod';

/**
 * Which proxies may name the client in X-Forwarded-For: none, the nearest `n` hops, or
 * addresses and CIDR ranges (proxy-addr's names loopback, linklocal, uniquelocal too).
 */
export type TrustProxySetting = false | number | string[];

const PROXY_ADDRESS_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUST_PROXY as a setting, or the sentence saying what is wrong with it. */
function parseTrustProxy(value: string): TrustProxySetting | string {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed === 'false' || trimmed === '0') {
    return false;
  }
  if (trimmed === 'true' || trimmed === '*') {
    return (
      `"${trimmed}" would let any client choose its address with X-Forwarded-For; give the number ` +
      'of proxies in front of Shelfwatch (e.g. 1) or their addresses (e.g. 10.0.0.1,192.168.0.0/16)'
    );
  }
  if (/^\d+$/.test(trimmed)) {
    return Number(trimmed);
  }
  const entries = trimmed.split(',').map((entry) => entry.trim());
  const invalid = entries.filter((entry) => !isProxyAddress(entry));
  return invalid.length === 0
    ? entries
    : `not a hop count, address or CIDR range: ${invalid.map((entry) => `"${entry}"`).join(', ')}`;
}

function isProxyAddress(entry: string): boolean {
  if (PROXY_ADDRESS_NAMES.has(entry)) {
    return true;
  }
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) {
    return false;
  }
  return (
    prefix === undefined ||
    (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128))
  );
}

/** TRUST_PROXY, off unless set; a bad value is refused with what is wrong with it. */
export const trustProxyEnvironmentSchema = z.object({
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, context) => {
      const setting = parseTrustProxy(value ?? '');
      if (typeof setting === 'string') {
        context.addIssue({ code: 'custom', message: setting });
        return z.NEVER;
      }
      return setting;
    }),
});

/**
 * Fastify's form of the setting. A hop count becomes a function: Fastify 5 ignores a bare
 * number (it cannot check the nearest peer), while a count means "the nearest n are proxies".
 * An address list is compiled by proxy-addr, as Fastify would, with its answers remembered.
 */
export function toFastifyTrustProxy(
  setting: TrustProxySetting,
): false | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') {
    return setting === 0 ? false : (_address, hop) => hop < setting;
  }
  if (setting === false) {
    return false;
  }
  return rememberTrust(proxyAddr.compile(setting));
}

/** Addresses whose answer rememberTrust keeps at most before starting over. */
const TRUSTED_ADDRESS_MEMORY = 1024;

/**
 * An address-list trust check that remembers its answers. Fastify checks the connection's
 * own address (the proxy's, the same few all the time) on every request by parsing it with
 * ipaddr.js, a few percent of a cheap route's time. A compiled address list answers by the
 * address alone, whatever the hop.
 */
function rememberTrust(
  trust: (address: string, hop: number) => boolean,
): (address: string, hop: number) => boolean {
  const known = new Map<string, boolean>();
  return (address, hop) => {
    let isTrusted = known.get(address);
    if (isTrusted === undefined) {
      isTrusted = trust(address, hop);
      // Forwarded chains of ever new addresses must not grow it without bound.
      if (known.size >= TRUSTED_ADDRESS_MEMORY) known.clear();
      known.set(address, isTrusted);
    }
    return isTrusted;
  };
}
