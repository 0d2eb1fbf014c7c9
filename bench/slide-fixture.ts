/**
 * The rendering benches' slide: five headlines of a habit app on a violet gradient, and app-like
 * screens to frame. A module of its own so that bench/one-slide.ts, which measures one slide in a
 * child process, loads the renderer and nothing else (a bigger heap is more to mark at each GC).
 */
import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import type { Slide } from '../src/core/set.ts';
import { registerFonts } from '../src/rendering/fonts.ts';
import { fitSet } from '../src/rendering/layout.ts';
import type { SlideTask } from '../src/rendering/types.ts';

export const DEVICE = 'iphone-69' as const;

export const slide = (i: number, headline: string): Slide => ({
  index: i,
  role: 'feature',
  headline,
  subheadline: null,
  keywords: [],
  screenshotUrl: null,
  layout: 'headline-top',
  background: { colors: ['#4F46E5', '#7C3AED'] },
  textColor: '#FFFFFF',
});
export const HEADLINES = [
  'Track Every Habit in One Tap',
  'Smart Reminders That Adapt',
  'Beautiful Charts and Streaks',
  'Widgets for Quick Check-ins',
  'Sync Across All Your Devices',
];

/**
 * A screen like an app's: flat UI (bars, cards, lines of "text") with a photo-like block (blurred
 * noise) over a third of it, so decoding and PNG sizes are realistic rather than a flat colour.
 * Each `variant` has other lines of "text": a thread keeps the screen it decoded last, so slides
 * measured one after another need different screens to pay for decoding as a real set does.
 */
export async function fakeScreen(variant = 0): Promise<Buffer> {
  const photo = await sharp({
    create: { width: 1160, height: 900, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } },
  })
    .blur(3)
    .png()
    .toBuffer();
  const rows = Array.from(
    { length: 14 },
    (_, i) => `<rect x="120" y="${1500 + i * 90}" width="${600 + (((i + variant) * 137) % 480)}" height="36" rx="18" fill="#94A3B8"/>`,
  ).join('');
  const ui = `<svg xmlns="http://www.w3.org/2000/svg" width="1320" height="2868"><rect width="1320" height="2868" fill="#F8FAFC"/>
    <rect width="1320" height="260" fill="#3B82F6"/><rect x="80" y="1380" width="1160" height="1360" rx="40" fill="#FFFFFF"/>${rows}</svg>`;
  return sharp(Buffer.from(ui))
    .composite([{ input: photo, left: 80, top: 380 }])
    .png()
    .toBuffer();
}

/** The bench's slide task with `screen`: the first headline, fitted with the others as a set. */
export function benchTask(screen: Buffer): SlideTask {
  registerFonts();
  const slides = HEADLINES.map((h, i) => slide(i, h));
  const metrics = fitSet(createCanvas(1, 1).getContext('2d'), DEVICE, slides);
  return { kind: 'slide', index: 0, device: DEVICE, slide: slides[0], screen, metrics, panorama: null };
}
