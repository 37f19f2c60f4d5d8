import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test runner configuration: Node by default, jsdom for renderer tests. The desktop harness
 * suites (a real Chromium page over the real main process) run last and one file at a time, so
 * each app starts on a machine the rest of the suite is not also loading.
 */
export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    globalSetup: ['tests/global-setup.ts'],
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          include: ['tests/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, 'tests/e2e/desktop/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'desktop-harness',
          include: ['tests/e2e/desktop/**/*.test.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
