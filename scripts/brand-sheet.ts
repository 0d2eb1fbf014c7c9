/**
 * `npx tsx scripts/brand-sheet.ts [out.png]`: the contact sheet in docs/brand/: generated icons,
 * the brand colours taken from each (with the text colour that reads on them and its contrast),
 * and the Play feature graphic drawn from them. Regenerate after changing src/brand/ and look at it.
 */
import { writeFileSync } from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import sharp from 'sharp';
import { contrastRatio } from '../src/core/colour.ts';
import { paletteFromIcon } from '../src/brand/icon-colors.ts';
import { fallbackPalette, type BrandPalette } from '../src/brand/palette.ts';
import { renderFeatureGraphic } from '../src/rendering/feature-graphic.ts';
import { fontString, registerFonts } from '../src/rendering/fonts.ts';

const out = process.argv[2] ?? 'docs/brand/contact-sheet.png';

const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024">${body}</svg>`;
const ICONS: { name: string; headline: string; svg: string | null }[] = [
  {
    name: 'Leaf Budget',
    headline: 'See Where Your Money Grows',
    svg: svg(
      '<rect width="1024" height="1024" fill="#1DB954"/><path d="M300 700 C 300 400 500 300 740 290 C 730 540 620 720 300 700 Z" fill="#fff"/>',
    ),
  },
  {
    name: 'Red Pin Maps',
    headline: 'Every Stop on One Map',
    svg: svg(
      '<rect width="1024" height="1024" fill="#fff"/><circle cx="512" cy="430" r="220" fill="#E53935"/><path d="M330 520 L512 860 L694 520 Z" fill="#E53935"/><circle cx="512" cy="430" r="90" fill="#fff"/>',
    ),
  },
  {
    name: 'Orbit Tasks',
    headline: 'Plan the Week in Minutes',
    svg: svg(
      '<rect width="1024" height="1024" fill="#1E63E9"/><circle cx="512" cy="512" r="250" fill="none" stroke="#FF9F0A" stroke-width="70"/><circle cx="700" cy="330" r="70" fill="#FF9F0A"/>',
    ),
  },
  {
    name: 'Sunny Notes',
    headline: 'Jot It Down Before It Fades',
    svg: svg(
      '<rect width="1024" height="1024" fill="#FFD43B"/><rect x="300" y="260" width="424" height="520" rx="40" fill="#fff"/><rect x="360" y="360" width="300" height="40" fill="#FFD43B"/><rect x="360" y="450" width="240" height="40" fill="#FFD43B"/>',
    ),
  },
  {
    name: 'Night Owl Sleep',
    headline: 'Fall Asleep Faster Tonight',
    svg: svg(
      '<rect width="1024" height="1024" fill="#1B1340"/><circle cx="560" cy="460" r="230" fill="#B39DFF"/><circle cx="660" cy="400" r="200" fill="#1B1340"/>',
    ),
  },
  { name: 'No Icon Yet', headline: 'Colours From the Name Alone', svg: null },
];

registerFonts();
const ROW = 300;
const W = 1060;
const canvas = createCanvas(W, ROW * ICONS.length + 80);
const ctx = canvas.getContext('2d');
ctx.fillStyle = '#F4F5F7';
ctx.fillRect(0, 0, W, canvas.height);
ctx.fillStyle = '#111827';
ctx.font = fontString(700, 34, 'x');
ctx.fillText('Brand colours from the icon → the feature graphic', 40, 56);

for (const [i, item] of ICONS.entries()) {
  const y = 80 + i * ROW;
  const icon = item.svg ? await sharp(Buffer.from(item.svg)).png().toBuffer() : null;
  const palette: BrandPalette = icon ? await paletteFromIcon(icon) : fallbackPalette(item.name);
  if (icon) ctx.drawImage(await loadImage(await sharp(icon).resize(200).png().toBuffer()), 40, y + 30);
  else {
    ctx.strokeStyle = '#9CA3AF';
    ctx.setLineDash([8, 8]);
    ctx.strokeRect(40, y + 30, 200, 200);
    ctx.setLineDash([]);
    ctx.fillStyle = '#6B7280';
    ctx.font = fontString(400, 22, 'x');
    ctx.fillText('icon unavailable', 62, y + 136);
  }
  for (const [k, c] of [palette.primary, palette.secondary].entries()) {
    ctx.fillStyle = c;
    ctx.fillRect(280, y + 30 + k * 105, 150, 95);
    ctx.fillStyle = palette.textColor;
    ctx.font = fontString(700, 22, 'x');
    ctx.fillText(`Aa ${c}`, 292, y + 88 + k * 105);
  }
  ctx.fillStyle = '#374151';
  ctx.font = fontString(400, 17, 'x');
  const worst = Math.min(contrastRatio(palette.primary, palette.textColor), contrastRatio(palette.secondary, palette.textColor));
  ctx.fillText(`text ${palette.textColor} ≥ ${worst.toFixed(1)}:1`, 280, y + 262);
  const fg = await renderFeatureGraphic({ name: item.name, headline: item.headline, palette, icon });
  ctx.drawImage(await loadImage(fg), 480, y + 18, 540, 264);
}
writeFileSync(out, await sharp(canvas.toBuffer('image/png')).removeAlpha().png().toBuffer());
console.log(`wrote ${out}`);
