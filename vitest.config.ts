import { defineConfig } from 'vitest/config';
import { distIsFresh } from './test/support/dist.ts';
import SlowFirst from './test/support/sequencer.ts';
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
    // Four files at a time on 2 cores: the slow files wait on child processes, servers, sockets,
    // leases and PostgreSQL rather than compute. vitest alone, idle, 271 files (29 Nov 2026): four
    // 376 s (613 CPU-s), six 350 s, eight 351 s; but `npm test` with six beside the fresh type check
    // and linters took 8 min 10 s and 825 CPU-s (load 10-15) against four's 6 min 34 s; on a faster VM
    // six took 4 min 25 s and 432 CPU-s against four's 4 min 10 s and 400. Earlier, on a
    // smaller suite: two 320 s, three 264 s, four 117 s and five 141 s for 39 files on a loaded machine.
    maxWorkers: 4,
    // The known long files start first (test/support/sequencer.ts): in a fresh clone vitest has no
    // durations and started them last, where the longest alone set the end of the run.
    sequence: { sequencer: SlowFirst },
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
