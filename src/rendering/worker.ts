/**
 * The body of a rendering thread (piscina). Fonts are registered as texts need them, once per
 * process; sharp keeps to one libvips thread here because the pool already uses every core.
 */
// First: the threads that sharp and canvas start while loading inherit this thread's priority.
import './thread-priority.ts';
import { createCanvas } from '@napi-rs/canvas';
import { move } from 'piscina';
import sharp from 'sharp';
import { registerFontsFor } from './fonts.ts';
import { composeSlide, ScreenError } from './compose.ts';
import { fitSet } from './layout.ts';
import type { RenderTask, SetMetrics } from './types.ts';

sharp.concurrency(1);
sharp.cache(false);

export default async function run(task: RenderTask): Promise<SetMetrics | Uint8Array> {
  const slides = task.kind === 'fit' ? task.slides : [task.slide];
  registerFontsFor(slides.flatMap((s) => [s.headline, s.subheadline]));
  if (task.kind === 'fit') return fitSet(createCanvas(1, 1).getContext('2d'), task.device, task.slides);
  const png = await composeSlide(task).catch((error: unknown) => {
    // The job reports which slide's screen was unreadable; anything else is a renderer fault.
    if (error instanceof ScreenError) throw new Error(`the screen of slide ${task.index} is not a readable image: ${error.message}`);
    throw error;
  });
  // Hand the bytes over instead of copying them back to the calling thread.
  const out = new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
  return png.byteOffset === 0 && png.byteLength === png.buffer.byteLength ? (move(out) as Uint8Array) : new Uint8Array(out);
}
