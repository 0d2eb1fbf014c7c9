/**
 * The cover's rule: the hero's device leans, and its bottom is settled after the lean lowered one
 * corner (smaller until it clears the bottom margin, or lowered until it bleeds). Moved out of
 * compose.ts unchanged; arrange() decides when it applies.
 */
import type { SlideTask } from './types.ts';
import { frameBox, hasTitleBar, type Display } from './frames.ts';
import {
  bleedBox,
  BOTTOM_PAD,
  HERO_LEAD,
  MAX_FRAMELESS_BLEED,
  MAX_HERO_BLEED,
  MIN_FRAMELESS_SHARE,
  MIN_BLEED,
  MIN_HERO_SHARE,
  place,
  WINDOW_MIN_BLEED,
  type Placement,
  type Scale,
  type TextBlock,
} from './layout.ts';
import { slideSize } from '../core/orientation.ts';
import { themeFor } from '../core/themes.ts';

type Frame = NonNullable<Placement['frame']>;

/** Settles a leaning hero's bottom: `upright` is its frame before the lean. */
export function settleCover(
  task: SlideTask,
  at: Placement,
  upright: Frame,
  tilt: number,
  block: TextBlock,
  display: Display,
  sc: Scale,
): void {
  if (!at.frame) return;
  const { width, height } = slideSize(task.device, task.orientation);
  const windowed = hasTitleBar(at.frame.frame);
  const clearAt = height - Math.round(height * BOTTOM_PAD);
  const bleedAt = windowed ? Math.ceil(height + WINDOW_MIN_BLEED * upright.height) : Math.ceil(height * (1 + MIN_BLEED));
  // A Mac window plainly bleeds (hm1, issue 30): made whole (design read 2026-11-29) under its
  // text and rating it was 66-67 % of the width, the smallest window of its set, under the 78 %
  // bar. At the hero's share it is lowered until WINDOW_MIN_BLEED lies past the edge (no share
  // of the width clears the bottom margin under a headline on a 16:10 slide: 78 % needed the
  // text in 268 px); under taller text the cap below makes it smaller.
  const low = lowestOf(at.frame, tilt);
  if (low > clearAt && low < bleedAt) {
    let cleared = false;
    if (!windowed && low - clearAt <= bleedAt - low) {
      const feature = featureOf(task, block, display, sc);
      const floor = Math.max(width * MIN_HERO_SHARE, (feature?.width ?? 0) + width * HERO_LEAD);
      for (let w = upright.width - 2; w >= floor && !cleared; w -= 2) {
        const smaller = { ...at, frame: frameBox(task.device, display, upright.x + upright.width / 2, upright.y, w) };
        lean(smaller, tilt, sc);
        if (lowestOf(smaller.frame, tilt) <= clearAt) [at.frame, cleared] = [smaller.frame, true];
      }
    }
    if (!cleared) {
      const dy = bleedAt - Math.floor(low);
      shift(at, 0, dy);
      if (windowed) at.textTop += Math.floor(dy / 2);
    }
  }
  // At most MAX_HERO_BLEED of it past the edge on a landscape slide: bold's two-line headline and
  // rating sent the iPad and Android tablet heroes 44-45 % off the bottom, their screens half
  // gone. Smaller about its top, down to the same floor (fitSet keeps the type such that the
  // floor is enough).
  if (width > height) {
    const floor = Math.max(width * MIN_HERO_SHARE, (featureOf(task, block, display, sc)?.width ?? 0) + width * HERO_LEAD);
    const past = (box: Frame) => (midBottom(box, tilt) - height) / box.height;
    // Within a pixel: a window lowered to bleed WINDOW_MIN_BLEED (above) lies a quarter past, rounded up.
    for (let w = at.frame.width - 2; w >= floor && past(at.frame) > MAX_HERO_BLEED + 1 / at.frame.height; w -= 2) {
      const smaller = { ...at, frame: frameBox(task.device, display, upright.x + upright.width / 2, upright.y, w) };
      lean(smaller, tilt, sc);
      at.frame = smaller.frame;
    }
  }
  // Its raised bottom corner too: a wide device's lean lifts it a long way (an Android phone's
  // on a landscape slide sat 2 % of the height over the edge while the other corner bled 6 %),
  // a sliver of background under one end. Not clear of the bottom margin: lowered until it is
  // past the edge, so that the whole bottom edge bleeds.
  const raised = lowestOf(at.frame, tilt) - at.frame.width * Math.abs(Math.sin(tilt));
  if (tilt && raised > clearAt && raised < height) shift(at, 0, Math.ceil(height - raised));
}

/** A feature's device in this set (its width is the hero's floor, with HERO_LEAD). */
const featureOf = (task: SlideTask, block: TextBlock, display: Display, sc: Scale) =>
  place(task.device, 'headline-top', task.metrics, block, sc, display, task.theme, 0, !task.badge).frame;

/**
 * A frameless cover (full bleed) on a landscape slide, standing (arrange): at most
 * MAX_FRAMELESS_BLEED of its screen past the bottom edge. At 94 % of the width under the headline
 * and the rating, leaning, 22-28 % of it was (design read 2026-11-29). The rating beside the
 * headline (layout.ts coverRatingRow) and fitSet's type keep it within the cap at the share; a
 * longer headline makes it narrower about its top, never under the frameless floor (88 %) nor
 * the features' share plus HERO_LEAD (it stays the largest of its set).
 */
export function settleFramelessCover(task: SlideTask, at: Placement, display: Display, sc: Scale): void {
  const b = at.bleed;
  if (!b || b.y + b.height <= sc.height) return;
  const p = themeFor(task.theme).product;
  const floor = Math.max(MIN_FRAMELESS_SHARE, p.feature + HERO_LEAD);
  let box = b;
  for (let share = b.width / sc.width - 0.005; share >= floor && past(box, sc) > MAX_FRAMELESS_BLEED; share -= 0.005)
    box = bleedBox(task.device, display, sc, b.y, share);
  at.bleed = box;
}

const past = (box: { y: number; height: number }, sc: Scale) => Math.max(0, box.y + box.height - sc.height) / box.height;

/** The middle of a turned box's bottom edge: how far it lies past the edge is the share of it that does. */
const midBottom = (box: { y: number; height: number }, tilt: number): number => box.y + box.height / 2 + (box.height / 2) * Math.cos(tilt);

/** Lowers a leaning device so that its raised corner stays clear of the text, and moves it right so that its upper corner stays on the slide. */
export function lean(at: Placement, tilt: number, sc: Scale): void {
  if (!tilt) return;
  const box = (at.frame ?? at.bleed)!;
  const [sin, cos] = [Math.abs(Math.sin(tilt)), Math.cos(tilt)];
  const corner = box.x + box.width / 2 - (box.width / 2) * cos - (box.height / 2) * sin;
  shift(at, Math.max(0, Math.ceil(sc.margin / 2 - corner)), Math.ceil((box.width / 2) * sin));
}

/** The lowest point of a box turned by `tilt` about its centre: its lowered bottom corner. */
const lowestOf = (box: { y: number; width: number; height: number }, tilt: number): number =>
  box.y + box.height / 2 + (box.width / 2) * Math.abs(Math.sin(tilt)) + (box.height / 2) * Math.cos(tilt);

/** The hero's device leans this far (radians; negative: its top to the left). */
export const HERO_TILT = (-5 * Math.PI) / 180;
/** A landscape device's lean: its long side raises its corner as far at 3° as a phone's at 5°. */
export const HERO_TILT_WIDE = (-3 * Math.PI) / 180;

export function shift(at: Placement, dx: number, dy: number): void {
  if (at.frame)
    at.frame = {
      ...at.frame,
      x: at.frame.x + dx,
      y: at.frame.y + dy,
      screen: { ...at.frame.screen, x: at.frame.screen.x + dx, y: at.frame.screen.y + dy },
    };
  if (at.bleed) at.bleed = { ...at.bleed, x: at.bleed.x + dx, y: at.bleed.y + dy };
}
