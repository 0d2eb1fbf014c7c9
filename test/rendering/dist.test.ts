/**
 * Production runs the compiled dist/: the pool there must start worker.js, not worker.ts.
 * `npm test` builds first; a bare `vitest run` without a build skips this with a message.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { slide } from './support.ts';

const dist = fileURLToPath(new URL('../../dist/rendering/index.js', import.meta.url));
const built = existsSync(dist) && existsSync(fileURLToPath(new URL('../../dist/rendering/worker.js', import.meta.url)));

describe.skipIf(!built)('the compiled renderer (dist/)', () => {
  it('renders through its JavaScript worker', async () => {
    const mod = (await import(/* @vite-ignore */ dist)) as typeof import('../../src/rendering/index.ts');
    const pool = new mod.RenderPool({ threads: 1 });
    try {
      const [png] = await pool.renderSet({ device: 'android-tablet', slides: [slide(0, 'From dist', 'text-only')], screens: [null] });
      expect(mod.checkStoreRules(png, 'android-tablet')).toEqual([]);
    } finally {
      await pool.close();
    }
  });
});

if (!built) console.warn('test/rendering/dist.test.ts skipped: no dist/rendering (run npm run build)');
