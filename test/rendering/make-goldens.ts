/** `npm run render:goldens`: (re)writes the golden images of test/rendering/golden-cases.ts and the contact sheet in docs/. */
import { mkdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { THEME_IDS } from '../../src/core/themes.ts';
import { RenderPool } from '../../src/rendering/index.ts';
import { GOLDEN_CASES, GOLDEN_DIR, renderCase, small, themeCases, themeSheet } from './golden-cases.ts';

const dir = fileURLToPath(GOLDEN_DIR);
mkdirSync(dir, { recursive: true });
const pool = new RenderPool({ threads: 2 });
const render = renderCase(pool);
const write = (s: { data: Buffer; width: number; height: number }, file: string) =>
  sharp(s.data, { raw: { width: s.width, height: s.height, channels: 4 } })
    .removeAlpha()
    .png({ compressionLevel: 9 })
    .toFile(file);
try {
  const written: string[] = [];
  const themeSheets: string[] = [];
  for (const c of GOLDEN_CASES) {
    const slides = await render(c);
    await write(await small(slides[c.index].bytes), `${dir}${c.name}.png`);
    written.push(`${dir}${c.name}.png`);
    console.log(`${c.name}.png`);
  }
  for (const theme of THEME_IDS) {
    const cases = themeCases(theme);
    const slides = await Promise.all(cases.map(async (c) => (await render(c))[c.index].bytes));
    await write(await themeSheet(slides), `${dir}theme-${theme}.png`);
    console.log(`theme-${theme}.png`);
    // The contact sheet shows the themes as large as the other rows, drawn from the full-size slides.
    const big = `${dir}theme-${theme}.contact.png`;
    await write(await themeSheet(slides, 390), big);
    themeSheets.push(big);
  }
  // The contact sheet of docs/: every single-slide golden in rows of nine, then the theme sheets.
  const tiles = await Promise.all(written.map((f) => sharp(f).resize({ height: 390 }).toBuffer({ resolveWithObject: true })));
  const rows: Buffer[] = [];
  for (let i = 0; i < tiles.length; i += 9) {
    const row = tiles.slice(i, i + 9);
    const width = row.reduce((w, t) => w + t.info.width + 6, 0);
    let left = 0;
    rows.push(
      await sharp({ create: { width, height: 396, channels: 3, background: '#FFFFFF' } })
        .composite(row.map((t) => ({ input: t.data, left: (left += t.info.width + 6) - t.info.width - 6, top: 3 })))
        .png()
        .toBuffer(),
    );
  }
  const parts = [...rows, ...(await Promise.all(themeSheets.map((f) => readFile(f))))];
  const metas = await Promise.all(parts.map((p) => sharp(p).metadata()));
  const width = Math.max(...metas.map((m) => m.width ?? 0));
  let top = 0;
  const placed = parts.map((input, i) => ({ input, left: 0, top: (top += (metas[i].height ?? 0) + 6) - (metas[i].height ?? 0) - 6 }));
  await sharp({ create: { width, height: top, channels: 3, background: '#FFFFFF' } })
    .composite(placed)
    .png({ compressionLevel: 9, palette: true })
    .toFile(fileURLToPath(new URL('../../docs/rendering-contact-sheet.png', import.meta.url)));
  for (const f of themeSheets) rmSync(f);
  console.log('docs/rendering-contact-sheet.png');
} finally {
  await pool.close();
}
