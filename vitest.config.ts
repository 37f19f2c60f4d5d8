import { defineConfig } from 'vitest/config';

/** Test runner configuration: Node by default, jsdom for renderer tests. */
export default defineConfig({
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    globalSetup: ['tests/global-setup.ts'],
    pool: 'forks',
  },
});
