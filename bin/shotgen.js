#!/usr/bin/env node
// The `shotgen` command. It runs the JavaScript that `npm install` built into dist/ (the `prepare`
// script): dist/bundle/main.js, the service bundled with its packages (scripts/bundle.mjs);
// SHOTGEN_FROM_SOURCE=1 runs the TypeScript sources through tsx instead (development).
import fs from 'node:fs';

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
