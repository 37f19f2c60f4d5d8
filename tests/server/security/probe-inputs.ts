/**
 * The inputs of the issue 43 security probe, as fixtures: every address form it got past the
 * channel-target check, and the test calls it made in a row.
 */

/** One non-public range the probe reached, with an address in it. */
export type ProbeAddress = {
  /** The range, as the issue names it. */
  range: string;
  /** An IP literal in that range (no brackets). */
  address: string;
  /** What the address leads to, for the test's name. */
  reaches: string;
};

/** Every form the probe used; each must be refused, literally and through DNS. */
export const PROBE_ADDRESSES: readonly ProbeAddress[] = [
  {
    range: 'IPv4-compatible ::a.b.c.d ([::127.0.0.1] is [::7f00:1])',
    address: '::7f00:1',
    reaches: '127.0.0.1',
  },
  { range: 'IPv4-mapped ::ffff:0:0/96', address: '::ffff:7f00:1', reaches: '127.0.0.1' },
  { range: 'IPv4-mapped ::ffff:0:0/96', address: '::ffff:a9fe:a9fe', reaches: '169.254.169.254' },
  { range: 'IPv4-translated ::ffff:0:0:0/96', address: '::ffff:0:a00:1', reaches: '10.0.0.1' },
  { range: 'NAT64 64:ff9b::/96', address: '64:ff9b::a9fe:a9fe', reaches: '169.254.169.254' },
  { range: 'NAT64 64:ff9b::/96', address: '64:ff9b::7f00:1', reaches: '127.0.0.1' },
  { range: 'NAT64 64:ff9b::/96', address: '64:ff9b::c0a8:101', reaches: '192.168.1.1' },
  { range: 'local-use NAT64 64:ff9b:1::/48', address: '64:ff9b:1::a9fe:a9fe', reaches: 'any' },
  { range: '6to4 2002::/16', address: '2002:a9fe:a9fe::1', reaches: '169.254.169.254' },
  { range: '6to4 2002::/16', address: '2002:7f00:1::1', reaches: '127.0.0.1' },
  { range: 'Teredo 2001::/32', address: '2001:0:a9fe:a9fe::', reaches: 'server 169.254.169.254' },
  {
    range: 'Teredo 2001::/32',
    address: '2001:0:4136:e378:8000:63bf:80ff:fffe',
    reaches: 'client 127.0.0.1',
  },
  { range: 'site-local fec0::/10', address: 'fec0::1', reaches: 'a site-local host' },
  { range: '6to4 relay anycast 192.88.99.0/24', address: '192.88.99.1', reaches: 'a relay' },
];

/** Public addresses in the same forms: refusing these too would break IPv6-only networks. */
export const PUBLIC_ADDRESSES: readonly string[] = [
  '8.8.8.8',
  '2606:4700:4700::1111',
  '::ffff:808:808',
  '64:ff9b::808:808',
  '2002:808:808::1',
  '2001:0:808:808::f7f7:f7f7',
];

/** The URL of a literal address, bracketed when IPv6. */
export function buildLiteralUrl(address: string, port?: number): string {
  const host = address.includes(':') ? `[${address}]` : address;
  return `https://${host}${port === undefined ? '' : `:${port}`}/hook`;
}

/** How many test calls the probe made in a row to one channel. */
export const PROBE_TEST_CALLS = 100;
