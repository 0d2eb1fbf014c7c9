/**
 * The cover shows the most product of its set (design read 2026-11-29-design-second, issue 30).
 * Width is not what the eye compares: on the tablets the cover was 2-4 points wider than its
 * features but, under its headline and the store's rating and lowered by its lean, lost 20-28 %
 * of its height past the bottom edge where they lost 0-14 %, so the first slide showed less
 * device and screen than the second (0.87-0.92 of it). What a slide shows is its product's width
 * × the height of it left on the slide; a feature's is held to the cover's / COVER_LEAD.
 */
import { frameBox, hasTitleBar, type Display, type FrameBox } from './frames.ts';
import { bleedBox, BOTTOM_PAD, MIN_BLEED, MIN_FRAMELESS_SHARE, WINDOW_MIN_BLEED, type Placement, type Scale } from './layout.ts';
import { shift } from './cover.ts';
import type { SlideTask } from './types.ts';

/** The cover shows at least this many times the product any feature of its set shows. */
export const COVER_LEAD = 1.05;
/** A framed feature made smaller to yield to the cover stays at least this share of the width (issue 30's bar). */
export const MIN_FEATURE_SHARE = 0.7;

type Box = { y: number; width: number; height: number };

/**
 * The product a slide shows (px²): its device's width × the height of it on the slide, measured
 * at the middle of its bottom edge turned by `tilt` (the share of a leaning device past the edge).
 */
export function shownProduct(box: Box, tilt: number, slideHeight: number): number {
  const midBottom = box.y + box.height / 2 + (box.height / 2) * Math.cos(tilt);
  return box.width * (box.height - Math.max(0, midBottom - slideHeight));
}

/**
 * Holds a feature's product (`at`, placed by layout.ts `place`) to the cover's shown product /
 * COVER_LEAD. The cheaper way first: smaller, about its top under its text (about its middle over
 * a bottom headline), down to MIN_FEATURE_SHARE (a frameless screen MIN_FRAMELESS_SHARE), still
 * clear of the bottom margin or plainly past the edge (never kissing it); only then lowered, its
 * text half the way so that the band between them stays balanced. The features stay one size of
 * device: the cap is the same on every feature of the set.
 */
export function yieldToCover(task: SlideTask, at: Placement, coverShows: number, display: Display, sc: Scale): void {
  const { width: W, height: H } = sc;
  const cap = coverShows / COVER_LEAD;
  const shows = (b: Box) => shownProduct(b, 0, H);
  const box = at.frame ?? at.bleed;
  if (!box || shows(box) <= cap) return;
  if (at.frame) {
    const f = at.frame;
    const windowed = hasTitleBar(f.frame);
    const clearAt = H - Math.round(H * BOTTOM_PAD);
    const bleedAt = (b: Box) => (windowed ? H + WINDOW_MIN_BLEED * b.height : H * (1 + MIN_BLEED));
    const kisses = (b: Box) => b.y + b.height > clearAt && b.y + b.height < bleedAt(b);
    const above = f.y + f.height <= at.textTop;
    const cx = f.x + f.width / 2;
    const sized = (w: number): FrameBox => {
      const b = frameBox(task.device, display, cx, 0, w);
      return frameBox(task.device, display, cx, above ? f.y + (f.height - b.height) / 2 : f.y, w);
    };
    // `bleeding`: the smallest that still plainly bleeds, reached before any width kisses the edge.
    const bleeds = (b: Box) => b.y + b.height >= bleedAt(b);
    let [b, bleeding, run] = [f, bleeds(f) ? f : null, bleeds(f)];
    for (let w = f.width - 2; w >= W * MIN_FEATURE_SHARE; w -= 2) {
      b = sized(w);
      if (shows(b) <= cap && !kisses(b)) {
        at.frame = b;
        return;
      }
      run &&= bleeds(b);
      if (run) bleeding = b;
    }
    // Over a bottom headline it stays whole: at the floor it shows no more than that.
    if (above) {
      at.frame = b;
      return;
    }
    // Smaller, it would kiss the edge before it showed little enough (or it is at the floor):
    // lowered, as little as it can be, from where it still plainly bled.
    const from = bleeding ?? b;
    at.frame = from;
    lower(at, Math.max(H - cap / from.width, from.y + from.height < bleedAt(from) ? bleedAt(from) - from.height : from.y) - from.y);
    return;
  }
  const b = at.bleed!;
  let n = b;
  for (let share = b.width / W - 0.005; Math.round(W * share) >= Math.ceil(W * MIN_FRAMELESS_SHARE); share -= 0.005) {
    n = bleedBox(task.device, display, sc, b.y, share);
    if (shows(n) <= cap) {
      at.bleed = n;
      return;
    }
  }
  at.bleed = n;
  lower(at, H - cap / n.width - n.y);
}

/** Lowers the product by `dy` and its text by half of it. */
function lower(at: Placement, dy: number): void {
  if (dy <= 0) return;
  shift(at, 0, Math.ceil(dy));
  at.textTop += Math.floor(dy / 2);
}
