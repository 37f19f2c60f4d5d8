import { describe, expect, it } from 'vitest';
import { DEFAULT_LOOPBACK_PORTS, readDesktopConfig } from '#electron/config/desktop-config.ts';

describe('the app configuration', () => {
  it('logs in through the fixed loopback ports a release registers at the provider', () => {
    expect(readDesktopConfig({}).authLoopbackPorts).toEqual(DEFAULT_LOOPBACK_PORTS);
    expect(
      readDesktopConfig({ SHELFWATCH_AUTH_LOOPBACK_PORTS: '50000,50001' }).authLoopbackPorts,
    ).toEqual([50000, 50001]);
    expect(
      readDesktopConfig({ SHELFWATCH_AUTH_LOOPBACK_PORTS: 'random' }).authLoopbackPorts,
    ).toEqual([]);
  });

  it('names the variable when the ports are not ports', () => {
    for (const value of ['80', 'abc', '53180,', '99999']) {
      expect(() => readDesktopConfig({ SHELFWATCH_AUTH_LOOPBACK_PORTS: value }), value).toThrow(
        /SHELFWATCH_AUTH_LOOPBACK_PORTS/,
      );
    }
  });
});
