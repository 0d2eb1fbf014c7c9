#!/usr/bin/env node
// The `shotgen` command. It runs the JavaScript that `npm install` built into dist/ (the `prepare`
// script): dist/bundle/main.js, the service bundled with its packages (scripts/bundle.mjs);
// SHOTGEN_FROM_SOURCE=1 runs the TypeScript sources through tsx instead (development).
import fs from 'node:fs';

// @napi-rs/canvas allocates with mimalloc, which reads its options from the environment when the
// module loads: set before anything imports it. By default mimalloc hands freed memory back to the
// kernel after 10 ms, and a render thread's next slide (~100 ms later) faulted its megabytes of
// pixels (the canvas.data() copy among them) back in, zeroed. With a second's delay, 2 threads
// drawing 10-slide sets took 4.2 ms of system CPU a slide instead of 9.4, and 542 minor faults
// instead of 782 (bench/pool-cpu.ts, medians of six runs each). Freed memory still goes back to
// the kernel, a second after instead of 10 ms.
process.env.MIMALLOC_PURGE_DELAY ??= '1000';

const fromSource = process.env.SHOTGEN_FROM_SOURCE === '1' || !fs.existsSync(new URL('../dist/bundle/main.js', import.meta.url));
let main;
if (fromSource) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/main.ts'));
} else {
  ({ main } = await import('../dist/bundle/main.js'));
}
const code = await main(process.argv.slice(2));
// A failed shutdown has already set a non-zero exit code; keep it.
process.exitCode = Math.max(code, Number(process.exitCode ?? 0));
