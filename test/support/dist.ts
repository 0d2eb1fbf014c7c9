/**
 * Whether dist/ holds a build of the current sources. Child processes of bin/shotgen.js run it when
 * it does (`npm test` builds first): loading the service through tsx cost each child about a second
 * of CPU more, and the suite starts well over a hundred. A stale dist/ (sources edited since the
 * last build) makes them run the sources instead, so a test never runs old code.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function newestSource(dir = path.join(ROOT, 'src')): number {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** dist/'s build info, rewritten by every build that saw a change (scripts/build.mjs). */
export function builtAt(): number {
  try {
    return fs.statSync(path.join(ROOT, 'dist', '.tsbuildinfo')).mtimeMs;
  } catch {
    return 0;
  }
}

// A second of slack: the build touches its info file after writing the outputs, on the same clock.
export const distIsFresh = (): boolean => builtAt() >= newestSource() - 1_000;
