/**
 * One slide: background, text, device and screen drawn with skia (@napi-rs/canvas), then the raw
 * pixels encoded by sharp as an 8-bit RGB PNG (skia's own encoder is slower and writes alpha).
 */
import { createCanvas, ImageData, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import sharp from 'sharp';
import { DEVICES } from '../planning/types.ts';
import { fontString } from './fonts.ts';
import { clipScreen, drawCutout, drawFrameBody, type FrameBox } from './frames.ts';
import { place, scaleOf, textBlock, type Scale, type TextBlock } from './layout.ts';
import { directionOf, HEADLINE_LINE_HEIGHT, SUB_LINE_HEIGHT } from './text.ts';
import type { SetMetrics, SlideLook, SlideTask } from './types.ts';

/** Screens larger than this are refused before decoding (a 4K-by-8K image is already generous). */
const MAX_SCREEN_PIXELS = 40_000_000;
/** zlib level 3: about a third less CPU than 6 for files ~8% larger, far under the 8 MB limit. */
export const PNG_LEVEL = 3;

const scratch = createCanvas(1, 1).getContext('2d').createLinearGradient(0, 0, 1, 0);

/** Whether canvas can parse a CSS colour (an unparsable gradient stop throws). */
function isColour(c: unknown): c is string {
  if (typeof c !== 'string') return false;
  try {
    scratch.addColorStop(0, c);
    return true;
  } catch {
    return false;
  }
}

function gradientColors(colors: string[]): string[] {
  const ok = colors.filter(isColour);
  return ok.length === 0 ? ['#1F2937', '#111827'] : ok.length === 1 ? [ok[0], ok[0]] : ok;
}

/**
 * The background. In a panorama every slide draws the same wide picture shifted by its index, so
 * slide i holds exactly the i-th slice and the edges of neighbours meet.
 */
function drawBackground(ctx: SKRSContext2D, sc: Scale, colors: string[], panorama: SlideTask['panorama']): void {
  const W = sc.width;
  const H = sc.height;
  const count = panorama?.count ?? 1;
  const total = W * count;
  ctx.save();
  if (panorama) ctx.translate(-panorama.index * W, 0);
  const stops = gradientColors(colors);
  const g = ctx.createLinearGradient(0, 0, total, H);
  stops.forEach((c, i) => g.addColorStop(i / (stops.length - 1), c));
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, total, H);
  if (panorama) {
    // A ribbon and rings that cross the seams: swiping shows one continuous picture.
    ctx.fillStyle = 'rgba(255, 255, 255, 0.10)';
    ctx.beginPath();
    ctx.moveTo(0, H * 0.62);
    for (let x = 0; x <= total; x += W / 16) ctx.lineTo(x, H * (0.62 + 0.08 * Math.sin((x / W) * Math.PI)));
    for (let x = total; x >= 0; x -= W / 16) ctx.lineTo(x, H * (0.74 + 0.08 * Math.sin((x / W) * Math.PI + 0.8)));
    ctx.closePath();
    ctx.fill();
    ctx.strokeStyle = 'rgba(255, 255, 255, 0.14)';
    ctx.lineWidth = W * 0.02;
    for (let i = 1; i < count; i++) {
      ctx.beginPath();
      ctx.arc(i * W, H * (i % 2 ? 0.3 : 0.5), W * 0.22, 0, Math.PI * 2);
      ctx.stroke();
    }
  }
  ctx.restore();
}

function drawLines(
  ctx: SKRSContext2D,
  lines: string[],
  text: string,
  weight: 400 | 700,
  size: number,
  lineHeight: number,
  cx: number,
  top: number,
): number {
  ctx.font = fontString(weight, size, text);
  ctx.direction = directionOf(text);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  let y = top;
  for (const line of lines) {
    ctx.fillText(line, cx, y + (size * lineHeight) / 2);
    y += size * lineHeight;
  }
  return y;
}

export function drawText(ctx: SKRSContext2D, slide: SlideLook, block: TextBlock, m: SetMetrics, cx: number, top: number): void {
  ctx.fillStyle = isColour(slide.textColor) ? slide.textColor : '#FFFFFF';
  const y = drawLines(ctx, block.headline, slide.headline, 700, m.headlineSize, HEADLINE_LINE_HEIGHT, cx, top);
  if (slide.subheadline && block.sub.length) {
    ctx.globalAlpha = 0.88;
    drawLines(ctx, block.sub, slide.subheadline, 400, m.subSize, SUB_LINE_HEIGHT, cx, y + m.headlineSize * 0.35);
    ctx.globalAlpha = 1;
  }
}

/** RGBA pixels, upright (EXIF), and whether any may be transparent. */
async function decodeScreen(screen: Uint8Array) {
  const opts = { limitInputPixels: MAX_SCREEN_PIXELS, sequentialRead: true };
  const { hasAlpha } = await sharp(screen, opts).metadata();
  const { data, info } = await sharp(screen, opts).rotate().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, info, hasAlpha: hasAlpha === true };
}

/**
 * The screen image, covering the display: sharp decodes it (EXIF rotation, pixel limit), skia scales it while drawing it into the display's rounded clip. Scaling in the
 * draw measured ~40 ms less CPU per 1320×2868 slide than a sharp resize (libvips at one thread).
 */
async function drawScreen(ctx: SKRSContext2D, box: FrameBox, screen: Uint8Array | null): Promise<void> {
  const s = box.screen;
  clipScreen(ctx, box);
  if (screen) {
    const { data, info, hasAlpha } = await decodeScreen(screen).catch((error: unknown) => {
      throw new ScreenError(error instanceof Error ? error.message : String(error));
    });
    // A transparent screen is drawn over black (as sharp's flatten would, which costs ~14 ms even
    // on an opaque image); an opaque one goes through an opaque layer, which skips blending.
    const key = `${info.width}x${info.height}:${hasAlpha ? 'a' : 'o'}`;
    const layer = take(layers, key, info.width, info.height);
    if (hasAlpha) {
      ctx.fillStyle = '#000000';
      ctx.fillRect(s.x, s.y, s.width, s.height);
    }
    layer
      .getContext('2d', { alpha: hasAlpha })
      .putImageData(new ImageData(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height), 0, 0);
    // Cover, anchored at the top (the status bar stays): scale to fill, crop what overflows.
    const scale = Math.max(s.width / info.width, s.height / info.height);
    const [cw, ch] = [s.width / scale, s.height / scale];
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(layer, (info.width - cw) / 2, 0, cw, ch, s.x, s.y, s.width, s.height);
    layers.set(key, layer);
  } else {
    // No screen for this slide: a dark, lit glass rather than an empty hole.
    const g = ctx.createLinearGradient(s.x, s.y, s.x + s.width, s.y + s.height);
    g.addColorStop(0, '#23252B');
    g.addColorStop(1, '#0C0D10');
    ctx.fillStyle = g;
    ctx.fillRect(s.x, s.y, s.width, s.height);
  }
  ctx.restore();
}

// Canvases kept between slides, one per size (slides, and screen images to scale from): a fresh
// 15 MB surface costs ~6 ms to allocate and clear. Taken out of the map while in use.
const slidesCanvases = new Map<string, Canvas>();
const layers = new Map<string, Canvas>();

function take(spare: Map<string, Canvas>, key: string, width: number, height: number): Canvas {
  const canvas = spare.get(key);
  spare.delete(key);
  if (spare.size > 4) spare.clear();
  return canvas ?? createCanvas(width, height);
}

/** A screen image sharp cannot read (not an image, truncated, or over MAX_SCREEN_PIXELS). */
export class ScreenError extends Error {
  override name = 'ScreenError';
}

/** Raw RGBA pixels of the slide (alpha is always opaque: the background covers everything). */
export async function composeRaw(task: SlideTask): Promise<{ data: Buffer; width: number; height: number }> {
  const { width, height } = DEVICES[task.device];
  const sc = scaleOf(task.device);
  const canvas = take(slidesCanvases, `${width}x${height}`, width, height);
  // Opaque (alpha: false, fixed at the first getContext): the background covers every pixel.
  const ctx = canvas.getContext('2d', { alpha: false });
  ctx.reset();
  drawBackground(ctx, sc, task.panorama?.colors ?? task.slide.background.colors, task.panorama);
  const block = textBlock(ctx, task.slide, task.metrics, sc);
  const at = place(task.device, task.slide.layout, task.metrics, block, sc);
  if (at.frame) {
    drawFrameBody(ctx, task.device, at.frame);
    await drawScreen(ctx, at.frame, task.screen);
    drawCutout(ctx, task.device, at.frame);
  }
  drawText(ctx, task.slide, block, task.metrics, width / 2, at.textTop);
  const data = canvas.data();
  slidesCanvases.set(`${width}x${height}`, canvas);
  return { data, width, height };
}

export async function composeSlide(task: SlideTask): Promise<Buffer> {
  const { data, width, height } = await composeRaw(task);
  return sharp(data, { raw: { width, height, channels: 4 } })
    .removeAlpha()
    .toColourspace('srgb')
    .png({ compressionLevel: PNG_LEVEL })
    .toBuffer();
}
