import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Agent, buildConnector } from 'undici';

/**
 * Whether channel targets may be plain http or private addresses (ALLOW_PRIVATE_CHANNEL_TARGETS,
 * development only: local sinks and stand-ins). Off, a user-supplied address must be https and
 * resolve only to public addresses, or the server would become a way into its own network.
 */
export type TargetPolicy = {
  allowPrivateTargets: boolean;
  /** How names are resolved, at creation and for each connection (default: the system's). */
  resolveHost?: ResolveHost;
};

/** Every address a name resolves to, as `dns.lookup` with `all` answers them. */
export type ResolveHost = (hostname: string) => Promise<dns.LookupAddress[]>;

/** The system's resolver, the one sockets use by default (hosts file included). */
const resolveWithSystem: ResolveHost = (hostname) => dns.promises.lookup(hostname, { all: true });

/** A target the policy refuses; `field` names the input the user can fix. */
export class TargetRefusedError extends Error {
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.name = 'TargetRefusedError';
    this.field = field;
  }
}

/** The range ipaddr.js gives an address reachable on the public internet (every other is special). */
const PUBLIC_RANGE = 'unicast';

/** NAT64's well-known prefix (RFC 6052): the IPv4 address is the last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/** Whether an IPv4 address is outside every special range of ipaddr.js's table. */
function isPublicIpv4(address: ipaddr.IPv4): boolean {
  return address.range() === PUBLIC_RANGE;
}

/** The IPv4 address in the four bytes of an IPv6 address from `offset` on, bits flipped by `mask`. */
function readIpv4At(bytes: readonly number[], offset: number, mask = 0): ipaddr.IPv4 {
  return new ipaddr.IPv4(bytes.slice(offset, offset + 4).map((byte) => byte ^ mask));
}

/**
 * The IPv4 addresses an IPv6 address leads to, for the forms that carry one; undefined for
 * any other. A packet to such an address ends at its IPv4 address (a NAT64 gateway, a 6to4
 * or Teredo relay, the host's own IPv4 stack), so that address is what must be public.
 */
function readEmbeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const bytes = address.toByteArray();
  switch (address.range()) {
    // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (translated, RFC 6145).
    case 'ipv4Mapped':
    case 'rfc6145':
      return [readIpv4At(bytes, 12)];
    // The local-use 64:ff9b:1::/48 (RFC 8215) puts the IPv4 address where its network chose,
    // so it cannot be read: that prefix is refused whole (undefined below).
    case 'rfc6052':
      return address.match(NAT64_WELL_KNOWN) ? [readIpv4At(bytes, 12)] : undefined;
    // 2002:AABB:CCDD::/48 reaches the 6to4 router at AA.BB.CC.DD (RFC 3056).
    case '6to4':
      return [readIpv4At(bytes, 2)];
    // 2001:0:SSSS:SSSS::CCCC:CCCC: the server's address, and the client's with its bits flipped.
    case 'teredo':
      return [readIpv4At(bytes, 4), readIpv4At(bytes, 12, 0xff)];
    default:
      return undefined;
  }
}

/** Whether the first 96 bits are zero: ::a.b.c.d, the IPv4-compatible form (deprecated, RFC 4291). */
function isIpv4Compatible(address: ipaddr.IPv6): boolean {
  return address.parts.slice(0, 6).every((part) => part === 0);
}

/**
 * Whether `address` (an IP literal) is reachable on the public internet, by ipaddr.js's table
 * of special ranges (loopback, private, link-local, shared, multicast, documentation,
 * benchmarking, reserved, site-local fec0::/10, 6to4 relays 192.88.99.0/24 ...). IPv6 forms
 * that carry an IPv4 address are judged by it; the deprecated ::a.b.c.d form (`[::127.0.0.1]`
 * is `[::7f00:1]`) and the local-use NAT64 prefix are never public.
 */
export function isPublicAddress(address: string): boolean {
  if (net.isIP(address) === 0) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv4') return isPublicIpv4(parsed as ipaddr.IPv4);
  const ipv6 = parsed as ipaddr.IPv6;
  const embedded = readEmbeddedIpv4(ipv6);
  if (embedded !== undefined) return embedded.every(isPublicIpv4);
  return ipv6.range() === PUBLIC_RANGE && !isIpv4Compatible(ipv6);
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
 * is not public (used when a channel is created; every connection checks again).
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
    addresses = await (policy.resolveHost ?? resolveWithSystem)(host);
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

/** The refusal a connection fails with; channel-http finds it in the error's causes. */
function refuseConnection(message: string): NodeJS.ErrnoException {
  const failure: NodeJS.ErrnoException = new TargetRefusedError('url', message);
  failure.code = 'ETARGETREFUSED';
  return failure;
}

/** The address family a socket asks for: 4, 6, or 0 for either. */
function readFamily(family: dns.LookupOptions['family']): number {
  if (family === 'IPv4') return 4;
  if (family === 'IPv6') return 6;
  return family ?? 0;
}

/**
 * A DNS lookup for sockets that refuses non-public answers. The socket connects to exactly
 * the address checked here, so a name that resolved publicly at creation and privately now
 * (DNS rebinding) is refused on the send itself.
 */
function createGuardedLookup(resolveHost: ResolveHost) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    resolveHost(hostname).then(
      (answers) => {
        const family = readFamily(options.family);
        const addresses = answers.filter((entry) => family === 0 || entry.family === family);
        const first = addresses[0];
        if (first === undefined || answers.some((entry) => !isPublicAddress(entry.address))) {
          callback(refuseConnection(`${hostname} resolves to a private or local address`), []);
        } else if (options.all === true) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}

/**
 * Connects only to public addresses: an IP literal is checked before its connection (Node
 * looks no literal up, so the lookup alone would let it through) and a name through the
 * guarded lookup. Every connection passes here, whatever the URL or a redirect said.
 */
function createGuardedConnector(
  build: typeof buildConnector,
  resolveHost: ResolveHost,
  timeoutMs: number,
): buildConnector.connector {
  const connect = build({ timeout: timeoutMs, lookup: createGuardedLookup(resolveHost) });
  return (options, callback) => {
    const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
    if (net.isIP(host) !== 0 && !isPublicAddress(host)) {
      callback(refuseConnection(`${host} is a private or local address`), null);
      return;
    }
    connect(options, callback);
  };
}

/**
 * The undici agent channel sends use: the guarded connector unless private targets are
 * allowed. undici (110 modules) is loaded here, when a channel first sends, not at start.
 */
export async function createTargetAgent(policy: TargetPolicy, timeoutMs: number): Promise<Agent> {
  const { Agent, buildConnector } = await import('undici');
  return new Agent({
    connect: policy.allowPrivateTargets
      ? { timeout: timeoutMs }
      : createGuardedConnector(buildConnector, policy.resolveHost ?? resolveWithSystem, timeoutMs),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
}
