import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LOOPBACK_PORTS,
  readDesktopConfig,
  selectConfigEnvironment,
} from '#electron/config/desktop-config.ts';

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

  it('paces the Mac as one address among others unless a developer sets otherwise', () => {
    expect(readDesktopConfig({})).toMatchObject({
      upstreamBurst: 8,
      upstreamRatePerMinute: 1,
      upstreamMinGapSeconds: 3,
      budgetFilePath: null,
    });
    const set = readDesktopConfig({
      SHELFWATCH_UPSTREAM_MIN_GAP_SECONDS: '0.5',
      SHELFWATCH_UPSTREAM_BUDGET_FILE: '/tmp/shelfwatch-budget.json',
    });
    expect(set).toMatchObject({
      upstreamMinGapSeconds: 0.5,
      budgetFilePath: '/tmp/shelfwatch-budget.json',
    });
    expect(() => readDesktopConfig({ SHELFWATCH_UPSTREAM_MIN_GAP_SECONDS: '-1' })).toThrow(
      /SHELFWATCH_UPSTREAM_MIN_GAP_SECONDS/,
    );
    expect(() => readDesktopConfig({ SHELFWATCH_UPSTREAM_BUDGET_FILE: 'budget.json' })).toThrow(
      /SHELFWATCH_UPSTREAM_BUDGET_FILE: must be an absolute path/,
    );
  });

  it('a release ignores developer variables left in the environment', () => {
    const environment = {
      SHELFWATCH_UPSTREAM_URL: 'http://127.0.0.1:4010',
      SHELFWATCH_SITE_URL: 'http://localhost:3000',
      SHELFWATCH_UPSTREAM_BURST: '60',
      SHELFWATCH_UPSTREAM_MIN_GAP_SECONDS: '0',
      SHELFWATCH_UPDATE_URL: 'http://127.0.0.1:8765/',
    };
    const release = readDesktopConfig(selectConfigEnvironment(environment, true));
    expect(release).toEqual(readDesktopConfig({}));
    expect(release.upstreamBaseUrl).toBe('https://www.apple.com');
    expect(release.updateUrl).toBeNull();
    const development = readDesktopConfig(selectConfigEnvironment(environment, false));
    expect(development.upstreamBaseUrl).toBe('http://127.0.0.1:4010');
    expect(development.upstreamBurst).toBe(60);
  });
});
