import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    pool: 'forks',
    // Child processes of bin/shotgen.js run the sources, so a test never runs a stale dist/;
    // test/cli/build.test.ts runs the built JavaScript that `npm start` uses.
    env: { SHOTGEN_FROM_SOURCE: '1' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
