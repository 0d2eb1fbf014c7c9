/**
 * `npx tsx scripts/brand-fonts-sheet.ts [out.png]`: docs/brand/fonts.png, one slide per brand kit
 * font (the same caption, screen and theme), so the fonts can be compared as a shopper sees them.
 * Regenerate after changing BRAND_FONTS and look at it.
 */
import { writeFileSync } from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import sharp from 'sharp';
import { BRAND_FONT_IDS, BRAND_FONTS } from '../src/core/themes.ts';
import { composeRaw } from '../src/rendering/compose.ts';
import { fontString, registerFontsFor, useBrandFont } from '../src/rendering/fonts.ts';
import { fitSet } from '../src/rendering/layout.ts';
import type { SlideLook } from '../src/rendering/types.ts';

const out = process.argv[2] ?? 'docs/brand/fonts.png';
const device = 'iphone-69' as const;
const look: SlideLook = {
  headline: 'Plan Your Whole Week in Minutes',
  subheadline: 'Tasks, habits and notes in one calm place, synced on every device',
  layout: 'headline-top',
  background: { colors: ['#0F766E', '#134E4A'] },
  textColor: '#FFFFFF',
};
const screenSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="1320" height="2868">
  <rect width="100%" height="100%" fill="#F8FAFC"/><rect x="6%" y="8%" width="88%" height="16%" rx="60" fill="#14B8A6"/>
  <rect x="6%" y="28%" width="88%" height="50%" rx="60" fill="#E2E8F0"/><circle cx="50%" cy="90%" r="5%" fill="#F59E0B"/></svg>`;
const screen = await sharp(Buffer.from(screenSvg)).png().toBuffer();

registerFontsFor([look.headline, look.subheadline]);
const THUMB = 330;
const LABEL = 70;
const sheet = createCanvas(THUMB * BRAND_FONT_IDS.length + 20 * (BRAND_FONT_IDS.length + 1), 0 + 740 + LABEL);
const ctx = sheet.getContext('2d');
ctx.fillStyle = '#F4F5F7';
ctx.fillRect(0, 0, sheet.width, sheet.height);
for (const [i, font] of BRAND_FONT_IDS.entries()) {
  const fitCtx = createCanvas(1, 1).getContext('2d');
  useBrandFont(fitCtx, font);
  const metrics = fitSet(fitCtx, device, [look]);
  const raw = await composeRaw({ kind: 'slide', index: 0, device, slide: look, screen, metrics, panorama: null, font });
  const png = await sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 4 } })
    .removeAlpha()
    .resize({ width: THUMB })
    .png()
    .toBuffer();
  const x = 20 + i * (THUMB + 20);
  ctx.drawImage(await loadImage(png), x, LABEL);
  ctx.fillStyle = '#111827';
  ctx.font = fontString(700, 22, 'x');
  ctx.fillText(BRAND_FONTS[font].name, x, 32);
  ctx.fillStyle = '#6B7280';
  ctx.font = fontString(400, 15, 'x');
  ctx.fillText(`font: ${font}`, x, 56);
}
writeFileSync(out, await sharp(sheet.toBuffer('image/png')).removeAlpha().png().toBuffer());
console.log(`wrote ${out}`);
