/**
 * Whether a caption fits its slide as the renderer will draw it: measured with the renderer's own
 * fonts and line breaking, not counted in characters (a line of "W" is twice a line of "i").
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { skia } from '../../rendering/canvas.ts';
import { registerFontsFor } from '../../rendering/fonts.ts';
import { scaleOf, typeScale, type Scale } from '../../rendering/layout.ts';
import { linesAt } from '../../rendering/text.ts';
import type { CaptionLength } from '../../core/set.ts';
import type { Device } from '../../core/devices.ts';

/**
 * The budget a caption is written for: the size the set should render at (the renderer may go
 * larger when every caption is short, never needs to go smaller) and the lines it may take there.
 * A headline over budget shrinks the type of the whole set, so it is the caption's fault.
 */
export const FIT_BUDGET = {
  short: { headlineScale: 0.07, headlineLines: 2, subScale: 0.035, subLines: 3 },
  long: { headlineScale: 0.065, headlineLines: 3, subScale: 0.035, subLines: 3 },
} as const satisfies Record<CaptionLength, unknown>;

let context: SKRSContext2D | null = null;
const ctx = (): SKRSContext2D => (context ??= skia().createCanvas(8, 8).getContext('2d'));

/**
 * The headline size a caption is measured at: the budget's share of the base, never under the
 * renderer's least headline size (MIN_HEADLINE_SHARE of the slide's short side). Below that floor the
 * renderer does not shrink a long headline; it runs on to more lines, so a caption that fits only at
 * a smaller size does not fit (on iPad the floor is 165 px, the budget's share 108 px).
 */
function headlinePx(sc: Scale, length: CaptionLength): number {
  return Math.max(Math.round(sc.base * FIT_BUDGET[length].headlineScale), typeScale(sc, undefined).min);
}

export interface Fit {
  lines: number;
  maxLines: number;
  /** A single word wider than the line: the renderer would have to break inside it. */
  overflows: boolean;
  sizePx: number;
  widthPx: number;
}

/** How `text` lays out as a headline or subheadline of a set of this length on this device. */
export function fitOf(text: string, part: 'headline' | 'subheadline', device: Device, length: CaptionLength): Fit {
  registerFontsFor([text]);
  const sc = scaleOf(device);
  const b = FIT_BUDGET[length];
  const sizePx = part === 'headline' ? headlinePx(sc, length) : Math.round(sc.base * b.subScale);
  const wrapped = linesAt(ctx(), text, part === 'headline' ? 700 : 400, sizePx, sc.textWidth);
  return {
    lines: wrapped.lines.length,
    maxLines: part === 'headline' ? b.headlineLines : b.subLines,
    overflows: !wrapped.fits,
    sizePx,
    widthPx: sc.textWidth,
  };
}

/** The budget in words a writer can follow: "at most 2 lines of 1136 px at 92 px bold". */
export function describeBudget(device: Device, length: CaptionLength): { headline: string; subheadline: string | null } {
  const sc = scaleOf(device);
  const b = FIT_BUDGET[length];
  const at = (scale: number) => Math.round(sc.base * scale);
  return {
    headline: `at most ${b.headlineLines} lines of ${sc.textWidth} px at ${headlinePx(sc, length)} px bold`,
    subheadline: length === 'long' ? `at most ${b.subLines} lines of ${sc.textWidth} px at ${at(b.subScale)} px regular` : null,
  };
}
