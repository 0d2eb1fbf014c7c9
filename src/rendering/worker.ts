/**
 * The body of a rendering thread (piscina). Fonts are registered as texts need them, once per
 * process; sharp keeps to one libvips thread here because the pool already uses every core.
 */
// First: the threads that sharp and canvas start while loading inherit this thread's priority.
import './thread-priority.ts';
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { createCanvas } from '@napi-rs/canvas';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import sharp from 'sharp';
import { registerFontsFor, useBrandFont } from './fonts.ts';
import { composeRaw, ScreenError } from './compose.ts';
import { encodeSlide } from './encode.ts';
import { fitSet } from './layout.ts';
import { renderPreview } from './preview-render.ts';
import { renderFeatureGraphic } from './feature-graphic.ts';
import { renderStorePreview } from './store-preview.ts';
import type { Size } from '../core/devices.ts';
import type { BrandTask, RenderTask, SetMetrics, SlideDigest, SlideLint } from './types.ts';

sharp.concurrency(1);
sharp.cache(false);

export interface WorkerSlide {
  bytes: Uint8Array;
  format: 'png' | 'jpeg';
  lint: SlideLint;
  digest: SlideDigest;
}

export default async function run(task: RenderTask): Promise<SetMetrics | WorkerSlide | Uint8Array[]> {
  if (task.kind === 'preview') {
    registerFontsFor(task.slides.flatMap((s) => [s.headline, s.subheadline]));
    const pngs = await renderPreview(task);
    return move({ [transferableSymbol]: pngs.map((p) => p.buffer), [valueSymbol]: pngs }) as unknown as Uint8Array[];
  }
  if (task.kind === 'feature-graphic' || task.kind === 'store-preview') {
    const png = new Uint8Array(await drawBrand(task));
    return move({ [transferableSymbol]: [png.buffer], [valueSymbol]: png }) as unknown as Uint8Array[];
  }
  const slides = task.kind === 'fit' ? task.slides : [task.slide];
  registerFontsFor(slides.flatMap((s) => [s.headline, s.subheadline]));
  if (task.kind === 'fit') {
    const ctx = createCanvas(1, 1).getContext('2d');
    useBrandFont(ctx, task.font);
    return fitSet(ctx, task.device, task.slides, task.theme, task.orientation, task.rating);
  }
  const raw = await composeRaw(task).catch((error: unknown) => {
    // The job reports which slide's screen was unreadable; anything else is a renderer fault.
    if (error instanceof ScreenError) throw new Error(`the screen of slide ${task.index} is not a readable image: ${error.message}`);
    throw error;
  });
  const { bytes, format, lint } = await encodeSlide(await resized(raw, task.size), task.device, raw.lint);
  // Hand the bytes over instead of copying them back to the calling thread: piscina moves what an
  // object's transferable list names, and delivers its value.
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const out = whole ? new Uint8Array(bytes.buffer) : new Uint8Array(bytes);
  // Taken here, not on the thread that answers HTTP: a megabyte's SHA-256 and CRC-32 held that
  // thread for 3-5 ms a slide on this project's 2-core VM (no SHA extensions), polls waiting behind.
  const digest: SlideDigest = { sha256: createHash('sha256').update(out).digest('hex'), crc32: crc32(out) };
  const value: WorkerSlide = { bytes: out, format, lint, digest };
  return move({ [transferableSymbol]: [out.buffer], [valueSymbol]: value }) as unknown as WorkerSlide;
}

/**
 * The slide at the size the set asked for (the Mac's 2560×1600 and smaller, of the same shape):
 * drawn at the device's size so the layout is the one measured and looked at, then scaled down by
 * libvips (Lanczos), which keeps text sharper than drawing the layout small.
 */
async function resized<R extends { data: Buffer; width: number; height: number }>(raw: R, size: Size | undefined): Promise<R> {
  if (!size || (size.width === raw.width && size.height === raw.height)) return raw;
  const data = await sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 4 } })
    .resize(size.width, size.height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  return { ...raw, data, width: size.width, height: size.height };
}

// Bytes arrive as Uint8Arrays (structured clone); the drawing code reads Buffers.
const asBuffer = (b: Uint8Array | null): Buffer | null => (b ? Buffer.from(b.buffer, b.byteOffset, b.byteLength) : null);

function drawBrand(task: BrandTask): Promise<Buffer> {
  if (task.kind === 'feature-graphic') return renderFeatureGraphic({ ...task.input, icon: asBuffer(task.input.icon) });
  return renderStorePreview({ ...task.input, icon: asBuffer(task.input.icon), slides: task.input.slides.map((b) => asBuffer(b)!) });
}
