import dns from 'node:dns';
import net from 'node:net';
import type { Agent } from 'undici';

/**
 * Whether channel targets may be plain http or private addresses (ALLOW_PRIVATE_CHANNEL_TARGETS,
 * development only: local sinks and stand-ins). Off, a user-supplied address must be https and
 * resolve only to public addresses, or the server would become a way into its own network.
 */
export type TargetPolicy = { allowPrivateTargets: boolean };

/** A target the policy refuses; `field` names the input the user can fix. */
export class TargetRefusedError extends Error {
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.name = 'TargetRefusedError';
    this.field = field;
  }
}

/** Loopback, private, link-local, shared (CGNAT), multicast, documentation and reserved ranges. */
const NON_PUBLIC = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NON_PUBLIC.addSubnet(prefix, bits, 'ipv6');
}

/** Whether `address` (an IP literal) is reachable on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    // ::ffff:a.b.c.d and ::a.b.c.d reach the IPv4 address they embed.
    const mapped = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped?.[1] !== undefined) return isPublicAddress(mapped[1]);
    const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
    if (hexMapped?.[1] !== undefined && hexMapped[2] !== undefined) {
      const high = Number.parseInt(hexMapped[1], 16);
      const low = Number.parseInt(hexMapped[2], 16);
      return isPublicAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
    }
    return !NON_PUBLIC.check(address, 'ipv6');
  }
  return !NON_PUBLIC.check(address, 'ipv4');
}

/** The host of a URL without IPv6 brackets. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Checks what can be checked without DNS: https (or http under the development switch), no
 * user:password part, no private IP literal, no "localhost". Throws TargetRefusedError.
 */
export function checkTargetUrl(value: string, field: string, policy: TargetPolicy): URL {
  if (!URL.canParse(value)) throw new TargetRefusedError(field, 'is not a valid address');
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') {
    throw new TargetRefusedError(field, 'must not carry a user name or password');
  }
  if (policy.allowPrivateTargets) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new TargetRefusedError(field, 'must be an http or https address');
    }
    return url;
  }
  if (url.protocol !== 'https:') throw new TargetRefusedError(field, 'must be an https:// address');
  const host = bareHost(url).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) {
    throw new TargetRefusedError(field, 'must be a public address, not a local one');
  }
  if (net.isIP(host) !== 0 && !isPublicAddress(host)) {
    throw new TargetRefusedError(field, 'must be a public address, not a private or local one');
  }
  return url;
}

/**
 * checkTargetUrl, then resolves the host as the sender will and refuses it when any address
 * is not public (used when a channel is created; every send checks again in the agent).
 */
export async function checkTargetAddress(
  value: string,
  field: string,
  policy: TargetPolicy,
): Promise<URL> {
  const url = checkTargetUrl(value, field, policy);
  if (policy.allowPrivateTargets) return url;
  const host = bareHost(url);
  if (net.isIP(host) !== 0) return url;
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    throw new TargetRefusedError(field, `names a host that does not resolve (${host})`);
  }
  if (addresses.length === 0 || addresses.some((entry) => !isPublicAddress(entry.address))) {
    throw new TargetRefusedError(field, 'resolves to a private or local address');
  }
  return url;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A DNS lookup for sockets that refuses non-public answers. The socket connects to exactly
 * the address checked here, so a name that resolved publicly at creation and privately now
 * (DNS rebinding) is refused on the send itself.
 */
function guardedLookup(
  hostname: string,
  options: dns.LookupOptions,
  callback: LookupCallback,
): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error !== null) {
      callback(error, []);
      return;
    }
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    const first = addresses[0];
    if (refused !== undefined || first === undefined) {
      const failure: NodeJS.ErrnoException = new TargetRefusedError(
        'url',
        `${hostname} resolves to a private or local address`,
      );
      failure.code = 'ETARGETREFUSED';
      callback(failure, []);
      return;
    }
    if (options.all === true) callback(null, addresses);
    else callback(null, first.address, first.family);
  });
}

/**
 * The undici agent channel sends use: the guarded lookup unless private targets are allowed.
 * undici (110 modules) is loaded here, when a channel first sends, not at start.
 */
export async function createTargetAgent(policy: TargetPolicy, timeoutMs: number): Promise<Agent> {
  const { Agent } = await import('undici');
  return new Agent({
    connect: {
      timeout: timeoutMs,
      ...(policy.allowPrivateTargets ? {} : { lookup: guardedLookup }),
    },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
}
