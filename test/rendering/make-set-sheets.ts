/**
 * `npx tsx test/rendering/make-set-sheets.ts [out dir] [case...]`: one planned set (the planner tests'
 * Habitly listing: rich, rated 4.78 by 12,840) per theme × device, as a designer looks at them
 * before shipping: a sheet per device (iPhone, iPad, Android phone and tablet, Mac, and the
 * landscape cases: an iPhone set turned for landscape screens, landscape screens on upright
 * iPhone slides, an Android tablet, an iPad and an Android phone turned), a row per theme,
 * written to docs/rendering-sets/<case>.png. The screens are
 * marked app-like pictures of each family's real display shape, the brand colours the goldens'
 * fixed pair, and the hero shows the listing's rating as a set's result would.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { THEME_IDS } from '../../src/core/themes.ts';
import type { Device } from '../../src/core/devices.ts';
import type { Orientation } from '../../src/core/orientation.ts';
import { layoutFor } from '../../src/planning/look.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { RenderPool, type RenderedSlide } from '../../src/rendering/index.ts';
import { habitly } from '../planning/listings.ts';
import { markedScreen, REAL_SCREENS, THEME_BRAND } from './golden-cases.ts';

export interface SheetCase {
  name: string;
  device: Device;
  /** The uploaded screens' shape. */
  screen: [number, number];
  orientation?: Orientation;
}

export const SHEET_CASES: SheetCase[] = [
  { name: 'iphone', device: 'iphone-69', screen: REAL_SCREENS.iphone },
  { name: 'ipad', device: 'ipad-13', screen: REAL_SCREENS.ipad },
  { name: 'android-phone', device: 'android-phone', screen: REAL_SCREENS['android-phone'] },
  { name: 'android-tablet', device: 'android-tablet', screen: REAL_SCREENS['android-tablet'] },
  { name: 'mac', device: 'mac', screen: REAL_SCREENS.mac },
  { name: 'iphone-landscape', device: 'iphone-69', screen: [1434, 660], orientation: 'landscape' },
  { name: 'iphone-landscape-screens', device: 'iphone-69', screen: [1434, 660], orientation: 'portrait' },
  { name: 'android-tablet-landscape', device: 'android-tablet', screen: [1280, 800], orientation: 'landscape' },
  { name: 'ipad-landscape', device: 'ipad-13', screen: [1376, 1032], orientation: 'landscape' },
  { name: 'android-phone-landscape', device: 'android-phone', screen: [1200, 540], orientation: 'landscape' },
];

const COLOURS = ['#3B82F6', '#F97316', '#10B981', '#EC4899', '#8B5CF6'];

/** A case's set, planned and rendered in a theme: the slides' bytes. */
export async function renderSheetSet(pool: RenderPool, c: SheetCase, theme: (typeof THEME_IDS)[number]): Promise<RenderedSlide[]> {
  const landscape = c.screen[0] > c.screen[1];
  const plan = planScreenshotSet({
    listings: [habitly],
    extraContext: null,
    request: { device: c.device, count: 5, ...(c.orientation ? { orientation: c.orientation } : {}) },
    uploadedScreens: 5,
    uploadedLandscape: landscape,
  });
  // As a set framing uploaded screens is drawn (src/sets/render.ts frameUploadedScreens).
  const slides = plan.slides.map((s, i) => ({ ...s, layout: s.layout === 'text-only' ? layoutFor(s.role, i, true) : s.layout }));
  const screens = await Promise.all(slides.map((_, i) => markedScreen(...c.screen, COLOURS[i % COLOURS.length])));
  return pool.renderSlides({
    device: plan.device,
    slides,
    screens,
    theme,
    brand: THEME_BRAND,
    orientation: plan.width > plan.height ? 'landscape' : 'portrait',
    rating: habitly.rating && habitly.ratingCount ? { value: habitly.rating, count: habitly.ratingCount } : null,
  });
}

async function sheet(pool: RenderPool, c: SheetCase, tile: number): Promise<Buffer> {
  const rows: Buffer[] = [];
  for (const theme of THEME_IDS) {
    const slides = await renderSheetSet(pool, c, theme);
    const tiles = await Promise.all(slides.map((s) => sharp(s.bytes).resize({ height: tile }).toBuffer({ resolveWithObject: true })));
    const width = tiles.reduce((w, t) => w + t.info.width + 6, 0);
    rows.push(
      await sharp({ create: { width, height: tile + 6, channels: 3, background: '#FFFFFF' } })
        .composite(tiles.map((t, i) => ({ input: t.data, left: i * (t.info.width + 6), top: 3 })))
        .png()
        .toBuffer(),
    );
  }
  const width = Math.max(...(await Promise.all(rows.map(async (r) => (await sharp(r).metadata()).width ?? 0))));
  return sharp({ create: { width, height: rows.length * (tile + 6), channels: 3, background: '#FFFFFF' } })
    .composite(rows.map((input, i) => ({ input, left: 0, top: i * (tile + 6) })))
    .png({ compressionLevel: 9, palette: true })
    .toBuffer();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2] ?? fileURLToPath(new URL('../../docs/rendering-sets/', import.meta.url));
  mkdirSync(out, { recursive: true });
  const pool = new RenderPool({ threads: 2 });
  try {
    const only = process.argv.slice(3);
    for (const c of SHEET_CASES.filter((k) => only.length === 0 || only.includes(k.name))) {
      const landscape = c.orientation === 'landscape' || c.device === 'mac';
      await sharp(await sheet(pool, c, landscape ? 260 : 440)).toFile(path.join(out, `${c.name}.png`));
      console.log(path.join(out, `${c.name}.png`));
    }
  } finally {
    await pool.close();
  }
}
