// `npm run build`: compile the typed client (clients/typescript), then src/ to dist/ and copy what
// tsc does not (SQL migrations and any other non-TypeScript file under src/), then bundle
// dist/main.js into the one file bin/shotgen.js runs (./bundle.mjs). Incremental, so a build with
// nothing changed takes about a second.
//
// `--no-check` emits without type checking (tsc --noCheck, the same output): scripts/check.mjs
// passes it because its other lane type-checks src/ with the same options (tsconfig.json), and
// checking src/ twice cost a clean `npm test` about 14 of its 19 build seconds. A plain
// `npm run build` still checks.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle } from './bundle.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const noCheck = process.argv.includes('--no-check');
// The typed client first: the client commands in src/client import its dist/.
execFileSync(process.execPath, [path.join(root, 'clients', 'typescript', 'scripts', 'build.mjs')], { stdio: 'inherit', cwd: root });
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), ...(noCheck ? ['--noCheck'] : [])], {
  stdio: 'inherit',
  cwd: root,
});

function copyAssets(from, to) {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name);
    const dst = path.join(to, entry.name);
    if (entry.isDirectory()) copyAssets(src, dst);
    else if (!entry.name.endsWith('.ts')) {
      fs.mkdirSync(to, { recursive: true });
      fs.copyFileSync(src, dst);
    }
  }
}
// Migrations are copied afresh: one renamed or removed in src/ must not linger in dist/.
fs.rmSync(path.join(root, 'dist', 'db', 'migrations'), { recursive: true, force: true });
copyAssets(path.join(root, 'src'), path.join(root, 'dist'));
// What bin/shotgen.js runs: dist/main.js and its packages as one file (./bundle.mjs).
await bundle();
// dist/ is now as new as every source, assets included: tsc leaves its build info alone when no
// TypeScript changed, and the build test reads that file's time.
const now = new Date();
fs.utimesSync(path.join(root, 'dist', '.tsbuildinfo'), now, now);
// Written last, so only by a build that finished: scripts/check.mjs skips the build while this is
// newer than everything the build reads (BUILD_INPUTS). tsc's build info is no such mark: tsc
// writes it itself, also in a build that fails later.
fs.writeFileSync(path.join(root, 'dist', '.build-done'), '');
