/**
 * The golden-image cases: every layout on each device family, rendered at full size and compared
 * at a small scale (GOLDEN_WIDTH px wide) with a perceptual tolerance. `npm run render:goldens`
 * writes test/rendering/goldens/*.png from these; review the pictures before committing them.
 */
import sharp from 'sharp';
import { LAYOUTS } from '../../src/planning/look.ts';
import type { Device, Slide } from '../../src/planning/types.ts';
import { screen, slide } from './support.ts';

export const GOLDEN_WIDTH = 180;
export const GOLDEN_DIR = new URL('./goldens/', import.meta.url);

export interface GoldenCase {
  name: string;
  device: Device;
  slides: Slide[];
  /** Which slide of the set is the golden (the others shape the set's font size). */
  index: number;
  panoramic?: boolean;
}

const HEADLINES = [
  'Track Every Habit in One Tap',
  'Smart Reminders That Adapt to You',
  'Beautiful Charts & Streaks',
  'Your Progress, at a Glance',
];
const SUB = 'Plan your week and see how far you have come';

function setFor(colors: string[], textColor: string): Slide[] {
  return LAYOUTS.map((layout, i) =>
    slide(i, HEADLINES[i], layout, { subheadline: i === 1 ? SUB : null, background: { colors }, textColor }),
  );
}

const FAMILIES: [string, Device, string[], string][] = [
  ['iphone', 'iphone-69', ['#4F46E5', '#7C3AED'], '#FFFFFF'],
  ['iphone-notch', 'iphone-65', ['#0F766E', '#155E75'], '#FFFFFF'],
  ['ipad', 'ipad-pro', ['#FDE68A', '#FCA5A5'], '#111827'],
  ['android-phone', 'android-phone', ['#1E3A8A', '#0F172A'], '#FFFFFF'],
  ['android-tablet', 'android-tablet', ['#DCFCE7', '#A7F3D0'], '#111827'],
];

export const GOLDEN_CASES: GoldenCase[] = [
  ...FAMILIES.flatMap(([family, device, colors, text]) => {
    const slides = setFor(colors, text);
    // The notch frame differs from the island one only in the cut-out: one layout is enough.
    const layouts = family === 'iphone-notch' ? [1] : LAYOUTS.map((_, i) => i);
    return layouts.map((index) => ({ name: `${family}-${LAYOUTS[index]}`, device, slides, index }));
  }),
  {
    name: 'iphone-mixed-scripts-rtl',
    device: 'iphone-67',
    slides: [
      slide(0, 'مرحبا بالعالم — שלום 👋 Hello', 'headline-top', {
        subheadline: 'Привет · Γειά · नमस्ते · สวัสดี · 日本語 · 한국어 · 简体 · 繁體',
      }),
    ],
    index: 0,
  },
];

/** Every slide of a case gets a screen (text-only slides ignore theirs). */
export async function screensFor(c: GoldenCase): Promise<Buffer[]> {
  const colours = ['#3B82F6', '#F97316', '#10B981', '#EC4899'];
  return Promise.all(c.slides.map((_, i) => screen(660, 1434, colours[i % colours.length])));
}

/** Renders each distinct set once: the cases of one family share their set (and its font size). */
export function setRenderer(render: (c: GoldenCase) => Promise<Buffer[]>): (c: GoldenCase) => Promise<Buffer[]> {
  const done = new Map<Slide[], Promise<Buffer[]>>();
  return (c) => {
    let p = done.get(c.slides);
    if (!p) done.set(c.slides, (p = render(c)));
    return p;
  };
}

/** A rendered slide brought down to the golden scale, as raw RGBA. */
export async function small(png: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(png)
    .resize({ width: GOLDEN_WIDTH, kernel: 'lanczos3' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
