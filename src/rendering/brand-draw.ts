/**
 * Drawing shared by the feature graphic and the store preview (not by the slides): the app's icon
 * with rounded corners, a greedy line wrap, and the RGB PNG encode the stores want.
 */
import type { Image, SKRSContext2D } from '@napi-rs/canvas';
import { skia } from './canvas.ts';
import sharp from 'sharp';
import { registerFontsFor, setFont } from './fonts.ts';

/** Canvas decodes the icon (PNG, JPEG or WebP); a picture it cannot read is drawn as the name's initial. */
export async function iconImage(icon: Buffer | null): Promise<Image | null> {
  if (!icon) return null;
  try {
    // Shrunk by sharp first: a store icon may be 1024 px or more, drawn here at 200 or less.
    return await skia().loadImage(await sharp(icon, { limitInputPixels: 40_000_000 }).resize(512, 512, { fit: 'cover' }).png().toBuffer());
  } catch {
    return null;
  }
}

export function roundRect(ctx: SKRSContext2D, x: number, y: number, w: number, h: number, r: number): void {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
  ctx.closePath();
}

/** The icon in the store's mask (a rounded square, radius ~22 %), or its initial on the brand colour. */
export function drawIcon(
  ctx: SKRSContext2D,
  image: Image | null,
  x: number,
  y: number,
  size: number,
  fallback: { name: string; color: string; textColor: string },
): void {
  ctx.save();
  roundRect(ctx, x, y, size, size, size * 0.225);
  ctx.clip();
  if (image) ctx.drawImage(image, x, y, size, size);
  else {
    ctx.fillStyle = fallback.color;
    ctx.fillRect(x, y, size, size);
    const initial = [...fallback.name.trim()][0]?.toUpperCase() ?? '?';
    ctx.fillStyle = fallback.textColor;
    setFont(ctx, 700, Math.round(size * 0.55), initial);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(initial, x + size / 2, y + size / 2);
  }
  ctx.restore();
}

const SEGMENTER = new Intl.Segmenter(undefined, { granularity: 'word' });

/**
 * Lines of at most maxWidth, breaking between words (scripts without spaces break between
 * segments); the last line ends in an ellipsis when the text does not fit in maxLines.
 */
export function wrapLines(ctx: SKRSContext2D, text: string, maxWidth: number, maxLines: number): string[] {
  const pieces = [...SEGMENTER.segment(text.trim())].map((s) => s.segment);
  const lines: string[] = [];
  let line = '';
  for (const piece of pieces) {
    const next = line + piece;
    if (line && ctx.measureText(next.trimEnd()).width > maxWidth) {
      lines.push(line.trimEnd());
      line = piece.trimStart();
    } else line = next;
  }
  if (line.trim()) lines.push(line.trimEnd());
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  let last = kept[maxLines - 1];
  while (last && ctx.measureText(`${last}…`).width > maxWidth) last = [...last].slice(0, -1).join('');
  kept[maxLines - 1] = `${last.trimEnd()}…`;
  return kept;
}

/** A canvas whose fonts cover these texts. */
export function canvasFor(width: number, height: number, texts: string[]) {
  registerFontsFor(texts);
  const canvas = skia().createCanvas(width, height);
  return { canvas, ctx: canvas.getContext('2d') };
}

/** 8-bit RGB PNG, no alpha: what both stores accept. */
export function encodeRgb(data: Uint8ClampedArray | Buffer, width: number, height: number): Promise<Buffer> {
  return sharp(data, { raw: { width, height, channels: 4 } })
    .removeAlpha()
    .toColourspace('srgb')
    .png({ compressionLevel: 6 })
    .toBuffer();
}
