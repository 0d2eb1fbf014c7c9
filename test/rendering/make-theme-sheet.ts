/**
 * `npx tsx test/rendering/make-theme-sheet.ts [listing file]`: one real listing's planned set (by
 * default Lowe's Home Improvement from the recorded App Store lookups in
 * ../shared/fixtures/stores, five slides on iphone-69) in every theme, a row per theme, written to
 * docs/rendering-themes.png, so a person sees the themes side by side on a real plan. The
 * listing's screenshots are out of reach offline: the screens are marked app-like pictures of a
 * real iPhone display's shape, and the brand colours are the goldens' fixed pair (not the icon's).
 * Without the recordings, the planner tests' habitly listing is used.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { THEME_IDS } from '../../src/core/themes.ts';
import { readListing } from '../../scripts/plan.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { RenderPool } from '../../src/rendering/index.ts';
import { habitly } from '../planning/listings.ts';
import { markedScreen, REAL_SCREENS, THEME_BRAND } from './golden-cases.ts';

const file =
  process.argv[2] ??
  fileURLToPath(
    new URL(
      '../../../shared/fixtures/stores/appstore/derived-lookup/us_id457954781_lowes-home-improvement_shopping_iphone-only.json',
      import.meta.url,
    ),
  );
const listing = existsSync(file) ? readListing(file) : habitly;
console.log(`listing: ${listing === habitly ? 'habitly (no recording found)' : file}`);
const plan = planScreenshotSet({ listings: [listing], extraContext: null, request: { device: 'iphone-69', count: 5 } });
const colours = ['#3B82F6', '#F97316', '#10B981', '#EC4899', '#8B5CF6'];
const screens = await Promise.all(plan.slides.map((_, i) => markedScreen(...REAL_SCREENS.iphone, colours[i % colours.length])));
const pool = new RenderPool({ threads: 2 });
const TILE = 440;
try {
  const rows: Buffer[] = [];
  for (const theme of THEME_IDS) {
    const slides = await pool.renderSlides({ device: plan.device, slides: plan.slides, screens, theme, brand: THEME_BRAND });
    const tiles = await Promise.all(slides.map((s) => sharp(s.bytes).resize({ height: TILE }).toBuffer({ resolveWithObject: true })));
    const width = tiles.reduce((w, t) => w + t.info.width + 6, 0);
    rows.push(
      await sharp({ create: { width, height: TILE + 6, channels: 3, background: '#FFFFFF' } })
        .composite(tiles.map((t, i) => ({ input: t.data, left: i * (t.info.width + 6), top: 3 })))
        .png()
        .toBuffer(),
    );
  }
  const width = Math.max(...(await Promise.all(rows.map(async (r) => (await sharp(r).metadata()).width ?? 0))));
  await sharp({ create: { width, height: rows.length * (TILE + 6), channels: 3, background: '#FFFFFF' } })
    .composite(rows.map((input, i) => ({ input, left: 0, top: i * (TILE + 6) })))
    .png({ compressionLevel: 9, palette: true })
    .toFile(fileURLToPath(new URL('../../docs/rendering-themes.png', import.meta.url)));
  console.log('docs/rendering-themes.png');
} finally {
  await pool.close();
}
