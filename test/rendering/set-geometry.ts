/**
 * The layout compose.ts draws (`arrange`, the same call composeWith makes) for one of the
 * docs/rendering-sets sets, slide by slide: what the product-size measures read, and what the
 * design reads measure by hand.
 */
import { createCanvas } from '@napi-rs/canvas';
import type { ThemeId } from '../../src/core/themes.ts';
import { badgeBox } from '../../src/rendering/badge.ts';
import { arrange } from '../../src/rendering/compose.ts';
import { displayFor } from '../../src/rendering/frames.ts';
import { fitSet, scaleOf } from '../../src/rendering/layout.ts';
import { slideSize } from '../../src/core/orientation.ts';
import { layoutFor } from '../../src/planning/look.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { habitly } from '../planning/listings.ts';
import type { Listing } from '../../src/core/listing.ts';
import type { SlideTask } from '../../src/rendering/types.ts';
import type { SheetCase } from './make-set-sheets.ts';

export interface SlideGeometry {
  index: number;
  /** Its device's (or frameless screen's) share of the slide's width. */
  share: number;
  /** Its bottom's distance from the slide's bottom edge, a share of the height; negative past it. */
  bottomGap: number;
  /** That of its lowest corner, turned by its lean (the hero's). */
  lowestGap: number;
  raisedGap: number;
  /** The share of its height past the bottom edge, at the middle of its turned bottom edge. */
  pastShare: number;
  /**
   * The product the slide shows: its device's width × the height of it left on the slide
   * (its height less `pastShare`), in px². The set's devices have one shape, so this is the
   * design read's width² × (1 − share past) in other units.
   */
  visible: number;
  badge: boolean;
  /** Its top (before any lean), a share of the slide's height. */
  top: number;
}

/** Each slide of a sheet's set (make-set-sheets.ts), planned as a set with uploaded screens is. */
export function sheetGeometry(c: SheetCase, theme: ThemeId, badge = false, listing: Listing = habitly, uploaded = true): SlideGeometry[] {
  const ctx = createCanvas(1, 1).getContext('2d');
  const plan = planScreenshotSet({
    listings: [listing],
    extraContext: null,
    request: { device: c.device, count: 5, ...(c.orientation ? { orientation: c.orientation } : {}) },
    ...(uploaded ? { uploadedScreens: 5, uploadedLandscape: c.screen[0] > c.screen[1] } : {}),
  });
  const slides = plan.slides.map((s, i) => ({ ...s, layout: s.layout === 'text-only' ? layoutFor(s.role, i, true) : s.layout }));
  const orientation = plan.width > plan.height ? 'landscape' : 'portrait';
  const rating = listing.rating && listing.ratingCount ? { value: listing.rating, count: listing.ratingCount } : null;
  const metrics = fitSet(ctx, c.device, slides, theme, orientation, rating);
  const { width: W, height: H } = slideSize(c.device, orientation);
  const display = displayFor(c.device, { width: c.screen[0], height: c.screen[1] });
  return slides.map((s, index) => {
    const task: SlideTask = {
      kind: 'slide',
      index,
      device: c.device,
      orientation,
      slide: s,
      screen: new Uint8Array(1),
      metrics,
      panorama: null,
      theme,
      // As the sheets draw it (make-set-sheets.ts): the listing's rating on the hero.
      rating: index === 0 ? rating : null,
      ...(badge ? { badge: new Uint8Array(1) } : {}),
    };
    const { at, tilt } = arrange(ctx, task, display, false);
    const box = at.frame ?? { ...at.bleed!, screen: { ...at.bleed!, radius: at.bleed!.radii[1] } };
    const badged = badgeBox(scaleOf(c.device, orientation), box.screen) !== null;
    const lowest = box.y + box.height / 2 + (box.width / 2) * Math.abs(Math.sin(tilt)) + (box.height / 2) * Math.cos(tilt);
    const raised = lowest - box.width * Math.abs(Math.sin(tilt));
    const midBottom = box.y + box.height / 2 + (box.height / 2) * Math.cos(tilt);
    const pastShare = Math.max(0, midBottom - H) / box.height;
    return {
      index,
      share: box.width / W,
      bottomGap: (H - box.y - box.height) / H,
      lowestGap: (H - lowest) / H,
      raisedGap: (H - raised) / H,
      pastShare,
      visible: box.width * box.height * (1 - pastShare),
      badge: badged,
      top: box.y / H,
    };
  });
}

/** The cover's visible product over its widest feature's (the one that shows the most). */
export function coverLead(slides: SlideGeometry[]): { ratio: number; feature: SlideGeometry } {
  const [hero, ...features] = slides;
  const feature = features.reduce((a, b) => (b.visible > a.visible ? b : a));
  return { ratio: hero.visible / feature.visible, feature };
}
