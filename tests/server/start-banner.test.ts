import { describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config/app-config.ts';
import { DEMO_PASSWORD_RESET_HINT, formatStartBanner } from '#server/start-banner.ts';

const config = loadConfig({ SHELFWATCH_DATA_DIR: '/tmp/shelfwatch-banner' });
const stack = {
  siteUrl: 'http://localhost:3000',
  issuer: 'http://localhost:4000/',
  database: { kind: 'url' as const },
  metricsTokenFile: '/tmp/shelfwatch-banner/metrics-token',
};

/** The Demo login row of the banner. */
function readDemoRow(demo: { email: string; password: string | undefined; isCreated: boolean }) {
  const banner = formatStartBanner({
    config,
    stack: { ...stack, demo },
    startedInMs: 1200,
  });
  return banner.split('\n').find((line) => line.includes('Demo login:'));
}

describe('start banner', () => {
  it('tells later starts how to reset the demo password', () => {
    const row = readDemoRow({
      email: 'demo@shelfwatch.local',
      password: undefined,
      isCreated: false,
    });
    expect(row).toBe(`  Demo login: demo@shelfwatch.local / ${DEMO_PASSWORD_RESET_HINT}`);
    expect(DEMO_PASSWORD_RESET_HINT).toContain('SHELFWATCH_DEMO_PASSWORD=<new password>');
  });

  it('prints the password on the first start', () => {
    expect(
      readDemoRow({ email: 'demo@shelfwatch.local', password: 'Abc234def567gh', isCreated: true }),
    ).toBe('  Demo login: demo@shelfwatch.local / Abc234def567gh (created now)');
  });
});
