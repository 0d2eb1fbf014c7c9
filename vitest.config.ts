import { defineConfig } from 'vitest/config';
import { distIsFresh } from './test/support/dist.ts';
import { scaled } from './test/support/timing.ts';

// Child processes run dist/ when it is a build of the current sources (test/support/dist.ts).
const childrenFromSource = !distIsFresh();
if (childrenFromSource) console.log('dist/ is older than src/: child processes run the sources through tsx (`npm run build` to run dist/)');

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    pool: 'forks',
    // Two files at a time: most of the slow files wait on child processes, servers and sockets
    // rather than compute, and one at a time (the default on 2 cores) took 6-7 minutes.
    maxWorkers: 2,
    // Files share a worker's module cache: with a fresh one per file, loading the service's module
    // graph again (sharp, skia, fastify, the AWS SDK) took 116 of the run's CPU seconds; shared, 10.
    // Every test builds its own server and database, so nothing else is shared; a test that needs a
    // process nothing has touched (fonts.test.ts) starts a child.
    isolate: false,
    // Child processes of bin/shotgen.js run dist/ when it is current, else the sources, so a test
    // never runs a stale build; test/cli/build.test.ts checks the build `npm start` uses.
    env: { SHOTGEN_FROM_SOURCE: childrenFromSource ? '1' : '0' },
    // Scaled for a loaded machine (test/support/timing.ts): a deadline only reports a hung test.
    testTimeout: scaled(30_000),
    hookTimeout: scaled(60_000),
  },
});
