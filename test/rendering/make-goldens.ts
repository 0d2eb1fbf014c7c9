/** `npm run render:goldens`: (re)writes the golden images of test/rendering/golden-cases.ts. */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { RenderPool } from '../../src/rendering/index.ts';
import { GOLDEN_CASES, GOLDEN_DIR, screensFor, setRenderer, small } from './golden-cases.ts';

const dir = fileURLToPath(GOLDEN_DIR);
mkdirSync(dir, { recursive: true });
const pool = new RenderPool({ threads: 2 });
const render = setRenderer(async (c) =>
  pool.renderSet({ device: c.device, slides: c.slides, screens: await screensFor(c), panoramic: c.panoramic }),
);
try {
  for (const c of GOLDEN_CASES) {
    const pngs = await render(c);
    const s = await small(pngs[c.index]);
    await sharp(s.data, { raw: { width: s.width, height: s.height, channels: 4 } })
      .removeAlpha()
      .png({ compressionLevel: 9 })
      .toFile(`${dir}${c.name}.png`);
    console.log(`${c.name}.png`);
  }
} finally {
  await pool.close();
}
