import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { checkStoreRules, RenderPool } from '../../src/rendering/index.ts';
import { GOLDEN_CASES, GOLDEN_DIR, screensFor, setRenderer, small } from './golden-cases.ts';

// Anti-aliasing may shift between skia builds; a changed layout, frame or colour moves far more.
const MAX_DIFF_SHARE = 0.01;

const pool = new RenderPool({ threads: 2 });
afterAll(() => pool.close());
const render = setRenderer(async (c) =>
  pool.renderSet({ device: c.device, slides: c.slides, screens: await screensFor(c), panoramic: c.panoramic }),
);

describe('golden images (small scale, perceptual tolerance)', () => {
  it.each(GOLDEN_CASES.map((c) => [c.name, c] as const))('%s matches its golden', async (name, c) => {
    const file = fileURLToPath(new URL(`${name}.png`, GOLDEN_DIR));
    expect(existsSync(file), `missing golden ${file}: run npm run render:goldens and review it`).toBe(true);
    const pngs = await render(c);
    for (const png of pngs) expect(checkStoreRules(png, c.device)).toEqual([]);
    const got = await small(pngs[c.index]);
    const want = PNG.sync.read(readFileSync(file));
    expect([got.width, got.height]).toEqual([want.width, want.height]);
    const wantRgba = want.data;
    const differing = pixelmatch(got.data, wantRgba, undefined, got.width, got.height, { threshold: 0.1 });
    expect(differing / (got.width * got.height)).toBeLessThan(MAX_DIFF_SHARE);
  });
});
