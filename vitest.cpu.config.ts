// `npm run test:cpu`: the suite as `npm test` runs it, with each file's CPU written down
// (test/support/cpu-per-file.ts); docs/reads/test-time.md reads such runs.
import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.ts';

export default mergeConfig(base, defineConfig({ test: { setupFiles: ['./test/support/cpu-per-file.ts'] } }));
