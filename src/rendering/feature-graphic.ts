/**
 * Google Play's feature graphic: 1024×500, no alpha. Play shows it above the screenshots and crops
 * or overlays its edges on some surfaces (the play button of a promo video sits in the middle), so
 * the icon and the words keep a margin of 8 % and nothing important sits at the very centre.
 * Drawn in the app's brand colours: a diagonal gradient, a soft light from the top left, the icon
 * on the left, the name and the hero headline beside it.
 */
import type { BrandPalette } from '../brand/palette.ts';
import { canvasFor, drawIcon, encodeRgb, iconImage, wrapLines } from './brand-draw.ts';
import type { BrandFontId } from '../core/themes.ts';
import { setFont, useBrandFont } from './fonts.ts';

export const FEATURE_GRAPHIC = { width: 1024, height: 500 } as const;

const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/u;

export interface FeatureGraphicInput {
  name: string;
  headline: string;
  palette: BrandPalette;
  /** The icon's bytes; null: the name's initial in a rounded square. */
  icon: Buffer | null;
  /** The brand kit's font, as on the slides; absent: Noto Sans. */
  font?: BrandFontId;
}

export async function renderFeatureGraphic(input: FeatureGraphicInput): Promise<Buffer> {
  const { width: W, height: H } = FEATURE_GRAPHIC;
  const { name, headline, palette } = input;
  const { canvas, ctx } = canvasFor(W, H, [name, headline]);
  useBrandFont(ctx, input.font);
  // A right-to-left headline reads from the right: the picture is mirrored, icon on the right.
  const rtl = RTL.test(headline);

  const g = ctx.createLinearGradient(0, 0, W, H);
  g.addColorStop(0, palette.primary);
  g.addColorStop(1, palette.secondary);
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, W, H);
  const light = ctx.createRadialGradient(W * 0.15, -H * 0.2, 0, W * 0.15, -H * 0.2, W * 0.9);
  light.addColorStop(0, 'rgba(255,255,255,0.22)');
  light.addColorStop(1, 'rgba(255,255,255,0)');
  ctx.fillStyle = light;
  ctx.fillRect(0, 0, W, H);
  // Two large rings at the right, in the text colour: a shape of the brand, never under the words.
  ctx.strokeStyle = palette.textColor === '#FFFFFF' ? 'rgba(255,255,255,0.12)' : 'rgba(17,24,39,0.10)';
  ctx.lineWidth = 28;
  for (const r of [190, 300]) {
    ctx.beginPath();
    ctx.arc(rtl ? W * 0.02 : W * 0.98, H * 1.02, r, 0, Math.PI * 2);
    ctx.stroke();
  }

  const margin = Math.round(W * 0.08);
  const iconSize = 208;
  const iconX = rtl ? W - margin - iconSize : margin;
  const iconY = (H - iconSize) / 2;
  ctx.save();
  ctx.shadowColor = 'rgba(0,0,0,0.28)';
  ctx.shadowBlur = 36;
  ctx.shadowOffsetY = 14;
  ctx.fillStyle = palette.primary;
  ctx.beginPath();
  ctx.roundRect(iconX, iconY, iconSize, iconSize, iconSize * 0.225);
  ctx.fill();
  ctx.restore();
  drawIcon(ctx, await iconImage(input.icon), iconX, iconY, iconSize, { name, color: palette.secondary, textColor: palette.textColor });

  const maxWidth = W - 2 * margin - iconSize - 56;
  const textX = rtl ? iconX - 56 : iconX + iconSize + 56;
  ctx.fillStyle = palette.textColor;
  ctx.textBaseline = 'alphabetic';
  ctx.textAlign = rtl ? 'right' : 'left';
  ctx.direction = rtl ? 'rtl' : 'ltr';
  setFont(ctx, 700, 44, headline);
  let headSize = 44;
  let headLines = wrapLines(ctx, headline, maxWidth, 3);
  // A long headline steps down rather than losing words to the ellipsis.
  while (headSize > 32 && headLines.at(-1)?.endsWith('…')) {
    headSize -= 4;
    setFont(ctx, 700, headSize, headline);
    headLines = wrapLines(ctx, headline, maxWidth, 3);
  }
  setFont(ctx, 400, 30, name);
  const nameLines = wrapLines(ctx, name, maxWidth, 1);
  const headLineHeight = Math.round(headSize * 1.18);
  const blockHeight = 30 + 22 + headLines.length * headLineHeight;
  let y = (H - blockHeight) / 2 + 30;
  ctx.globalAlpha = 0.88;
  ctx.fillText(nameLines[0] ?? '', textX, y);
  ctx.globalAlpha = 1;
  y += 22;
  setFont(ctx, 700, headSize, headline);
  for (const line of headLines) {
    y += headLineHeight;
    ctx.fillText(line, textX, y - headLineHeight * 0.22);
  }
  return encodeRgb(canvas.data(), W, H);
}
