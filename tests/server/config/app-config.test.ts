import { describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config/app-config.ts';
import { DEFAULT_LOGIN_LIMITS, DEFAULT_RATE_LIMITS } from '#server/config/rate-limits.ts';
import { toFastifyTrustProxy } from '#server/config/trust-proxy.ts';

describe('proxy trust and limits configuration', () => {
  it('trusts no proxy and applies the default limits when nothing is set', () => {
    const config = loadConfig({});
    expect(config.trustProxy).toBe(false);
    expect(config.rateLimits).toEqual(DEFAULT_RATE_LIMITS);
    expect(config.loginLimits).toEqual(DEFAULT_LOGIN_LIMITS);
    expect(loadConfig({ TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it('refuses TRUST_PROXY=true, saying to give a hop count or addresses', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY: "true" would let any client choose its address.*number of proxies.*addresses/,
    );
  });

  it('reads a hop count, and addresses and CIDR ranges separated by commas', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(
      loadConfig({ TRUST_PROXY: ' 10.0.0.1, 192.168.0.0/16 ,fd00::/8,loopback' }).trustProxy,
    ).toEqual(['10.0.0.1', '192.168.0.0/16', 'fd00::/8', 'loopback']);
  });

  it('names the entries of TRUST_PROXY that are not addresses', () => {
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.1,proxy.local,10.0.0.0/33' })).toThrow(
      /TRUST_PROXY: not a hop count, address or CIDR range: "proxy.local", "10.0.0.0\/33"/,
    );
  });

  it('trusts exactly the nearest hops of a hop count, which Fastify alone would ignore', () => {
    const trust = toFastifyTrustProxy(2);
    expect(typeof trust).toBe('function');
    if (typeof trust !== 'function') return;
    expect([0, 1, 2].map((hop) => trust('198.51.100.1', hop))).toEqual([true, true, false]);
    expect(toFastifyTrustProxy(0)).toBe(false);
  });

  it('trusts the listed proxies and ranges only, answering the same when asked again', () => {
    const trust = toFastifyTrustProxy(['loopback', '10.1.0.0/16']);
    expect(typeof trust).toBe('function');
    if (typeof trust !== 'function') return;
    const addresses = ['127.0.0.1', '::1', '10.1.2.3', '10.2.0.1', '203.0.113.9', 'junk'];
    const first = addresses.map((address) => trust(address, 0));
    expect(first).toEqual([true, true, true, false, false, false]);
    expect(addresses.map((address) => trust(address, 0))).toEqual(first);
    expect(toFastifyTrustProxy(false)).toBe(false);
  });

  it('takes each limit from its environment variable', () => {
    const config = loadConfig({
      RATE_LIMIT_PER_MINUTE: '100',
      USER_RATE_LIMIT_PER_MINUTE: '1000',
      USER_WRITE_RATE_LIMIT_PER_MINUTE: '30',
      AUTH_FAILURES_PER_MINUTE: '5',
      LOGIN_RATE_LIMIT_PER_MINUTE: '50',
    });
    expect(config.rateLimits).toMatchObject({
      perAddressPerMinute: 100,
      perUserPerMinute: 1000,
      userWritesPerMinute: 30,
      authFailuresPerAddressPerMinute: 5,
    });
    expect(config.loginLimits.perAddressPerMinute).toBe(50);
    expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: '0' })).toThrow(/RATE_LIMIT_PER_MINUTE/);
  });
});
