/**
 * How big the product is, measured on the layout the renderer draws (compose.ts `arrange`, the same
 * call composeWith makes) for every theme on every kind of device: the hero's device (slide 1) and
 * a feature slide's, as shares of the slide's width. The best store pages show the product at
 * 75-90 % of the width; a framed hero at least 78 %, a feature 70 %, a frameless screen 88 %.
 */
import { createCanvas } from '@napi-rs/canvas';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEVICES, type Device } from '../../src/core/devices.ts';
import { isHero } from '../../src/core/set.ts';
import { THEME_IDS, themeFor, type ThemeId } from '../../src/core/themes.ts';
import { arrange } from '../../src/rendering/compose.ts';
import { registerFonts } from '../../src/rendering/fonts.ts';
import { displayFor } from '../../src/rendering/frames.ts';
import {
  BOTTOM_PAD,
  fitSet,
  HERO_LEAD,
  MAX_FRAMELESS_BLEED,
  MAX_HERO_BLEED,
  MIN_BLEED,
  MIN_FRAMELESS_SHARE,
  MIN_WINDOW_SHARE,
  scaleOf,
  WINDOW_MIN_BLEED,
} from '../../src/rendering/layout.ts';
import { habitly } from '../planning/listings.ts';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readListing } from '../../scripts/plan.ts';
import type { Listing } from '../../src/core/listing.ts';
import { SHEET_CASES, type SheetCase } from './make-set-sheets.ts';
import { coverLead, sheetGeometry } from './set-geometry.ts';
import { ratingRoom } from '../../src/rendering/rating.ts';
import { COVER_LEAD, MIN_FEATURE_SHARE } from '../../src/rendering/cover-lead.ts';
import type { SlideTask } from '../../src/rendering/types.ts';
import { REAL_SCREENS } from './golden-cases.ts';
import { slide } from './support.ts';

beforeAll(() => registerFonts());

const DEVICES_MEASURED: [string, Device][] = [
  ['iphone', 'iphone-69'],
  ['ipad', 'ipad-13'],
  ['android phone', 'android-phone'],
  ['android tablet', 'android-tablet'],
  ['mac', 'mac'],
];

// A set as the planner makes it: the hero, then features alternating the headline's side; one
// long headline with a subheadline, so the text block is as tall as a real set's.
const SET = [
  slide(0, 'Track Every Habit in One Tap', 'hero-centered'),
  slide(1, 'Smart Reminders That Adapt to Your Week', 'headline-top', { subheadline: 'Plan your week and see how far you have come' }),
  slide(2, 'Beautiful Charts & Streaks', 'headline-bottom'),
];

interface Measure {
  hero: number;
  feature: number;
  /** The largest share of a slide's product past the slide's edge (it bleeds off it). */
  bleed: number;
  /** Whether every slide's product stays clear of its text. */
  clear: boolean;
  /** The hero's lean (radians), and whether its device's upper corners, turned, stay on the slide and clear of its text and rating. */
  heroTilt: number;
  heroCornersClear: boolean;
  /** The share of the hero's product past the slide's edge. */
  heroBleed: number;
  /** The largest share of a slide's product above the slide's top edge: its screen's title lives there. */
  aboveTop: number;
}

function measure(theme: ThemeId, device: Device): Measure {
  const ctx = createCanvas(1, 1).getContext('2d');
  const family = DEVICES[device].family;
  const [w, h] = REAL_SCREENS[family];
  const display = displayFor(device, { width: w, height: h });
  const rating = { value: 4.8, count: 5000 };
  const metrics = fitSet(ctx, device, SET, theme, undefined, rating);
  const { width: W, height: H } = DEVICES[device];
  const shares: number[] = [];
  let bleed = 0;
  let clear = true;
  let heroTilt = 0;
  let heroCornersClear = true;
  let aboveTop = 0;
  let heroBleed = 0;
  SET.forEach((s, index) => {
    // As pool.ts hands it out: the rating goes to the hero's task only, so a feature slide is
    // measured without the room a rating would take from its device.
    const shown = isHero(s.layout) ? rating : null;
    const task: SlideTask = {
      kind: 'slide',
      index,
      device,
      slide: s,
      screen: new Uint8Array(1),
      metrics,
      panorama: null,
      theme,
      rating: shown,
    };
    const { block, at, tilt } = arrange(ctx, task, display, false);
    if (index === 0) {
      heroTilt = tilt;
      const b = at.frame ?? at.bleed!;
      const [cx, cy] = [b.x + b.width / 2, b.y + b.height / 2];
      const below = at.textTop + block.height + (shown ? ratingRoom(ctx, shown, metrics, { ...scaleOf(device), width: W, height: H }) : 0);
      for (const dx of [-b.width / 2, b.width / 2]) {
        const [x, y] = [
          cx + dx * Math.cos(tilt) - (-b.height / 2) * Math.sin(tilt),
          cy + dx * Math.sin(tilt) + (-b.height / 2) * Math.cos(tilt),
        ];
        heroCornersClear &&= x >= 0 && x <= W && y >= below;
      }
    }
    const box = at.frame ?? at.bleed!;
    shares.push(box.width / W);
    const past = 1 - (Math.min(box.y + box.height, H) - Math.max(box.y, 0)) / box.height;
    bleed = Math.max(bleed, past);
    if (index === 0) heroBleed = past;
    aboveTop = Math.max(aboveTop, Math.max(0, -box.y) / box.height);
    const textBottom = at.textTop + block.height;
    // Under the text, or over a bottom headline: never across it.
    clear &&= box.y >= textBottom || box.y + box.height <= at.textTop;
  });
  return { hero: shares[0], feature: Math.min(shares[1], shares[2]), bleed, clear, heroTilt, heroCornersClear, aboveTop, heroBleed };
}

const pct = (n: number) => `${Math.round(n * 100)} %`;

describe('the product is big', () => {
  const rows = THEME_IDS.flatMap((theme) => DEVICES_MEASURED.map(([name, device]) => ({ theme, name, ...measure(theme, device) })));

  it('prints the table', () => {
    const lines = rows.map((r) => `| ${r.theme} | ${r.name} | ${pct(r.hero)} | ${pct(r.feature)} | ${pct(r.bleed)} |`);
    console.log(['| theme | device | hero | feature | most past the edge |', '| --- | --- | --- | --- | --- |', ...lines].join('\n'));
  });

  it.each(rows.map((r) => [r.theme, r.name, r] as const))('%s on %s: hero ≥ 78 %, features ≥ 70 %, clear of the text', (theme, _, r) => {
    const frameless = themeFor(theme).screen === 'bleed';
    expect(r.feature).toBeGreaterThanOrEqual(frameless ? 0.88 : 0.7);
    // On every theme, the Mac's too: whole under its text and rating its cover window was 66-67 %
    // of the width (design read 2026-11-29), under the bar and the smallest window of its set. It
    // now plainly bleeds a quarter (cover.ts settleCover).
    expect(r.hero).toBeGreaterThanOrEqual(frameless ? 0.88 : 0.78);
    expect(r.hero).toBeGreaterThan(r.feature);
    if (r.name === 'mac' && !frameless) {
      expect(r.heroBleed).toBeGreaterThanOrEqual(WINDOW_MIN_BLEED - 0.002);
      expect(r.heroBleed).toBeLessThanOrEqual(MAX_HERO_BLEED + 0.002);
    }
    expect(r.clear).toBe(true);
    // Big, but still the app: most of its screen stays on the slide (a 20:9 screen 88 % as wide
    // as a 9:16 slide is taller than the slide: full bleed on an Android phone hides the most, 49 %
    // of its hero, whose screen sits under the rating and is lowered to lean; its top half shows).
    expect(r.bleed).toBeLessThan(0.5);
    // A device bleeds off the bottom edge, never the top: a 20:9 phone hung over a bottom headline
    // hid 15-25 % of its screen's top, its title bar (issue 30: tall screens bleed off the bottom).
    expect(r.aboveTop).toBe(0);
  });

  // The hero was the features' composition, 10 % larger (4 % in full bleed): side by side in the
  // store the cover did not stand apart. On portrait slides its device now leans.
  it.each(rows.filter((r) => r.name !== 'mac').map((r) => [r.theme, r.name, r] as const))(
    '%s on %s: the hero leans, its corners on the slide and clear of its text and rating',
    (_, __, r) => {
      expect(Math.abs(r.heroTilt)).toBeGreaterThanOrEqual((3 * Math.PI) / 180);
      expect(r.heroCornersClear).toBe(true);
    },
  );
});

// The Habitly sets of docs/rendering-sets (one per theme × device, planned as a set with uploaded
// screens is), measured on the layout compose.ts draws. Under a set's tallest text a feature's
// device at the theme's share ended 0-1 % of the height above the bottom edge (iPad and Android
// tablet bold) or lost a 2 % sliver past it (iPhone bold): a bezel kissing the edge reads as a
// slip. Each now clears the edge by the bottom margin or bleeds off it by MIN_BLEED.
describe("the sheets' sets: no device kisses the bottom edge", () => {
  const rows = SHEET_CASES.flatMap((c) =>
    THEME_IDS.filter((t) => themeFor(t).screen === 'framed').map((theme) => ({ c, theme, slides: sheetGeometry(c, theme) })),
  );
  it.each(rows.map((r) => [r.c.name, r.theme, r] as const))('%s, %s', (_, theme, { c, slides }) => {
    for (const s of slides.slice(1)) {
      const clears = s.bottomGap >= BOTTOM_PAD - 0.002;
      const bleeds = s.bottomGap <= -MIN_BLEED + 0.002;
      expect(clears || bleeds, `slide ${s.index + 1}: ${pct(s.bottomGap)} from the edge`).toBe(true);
      // A Mac window may be narrower to be shown whole (layout.ts MIN_WINDOW_SHARE), any feature
      // to yield to its cover (cover-lead.ts), down to issue 30's 70 %.
      expect(s.share).toBeGreaterThanOrEqual(c.device === 'mac' ? MIN_WINDOW_SHARE : MIN_FEATURE_SHARE - 0.002);
      expect(s.share).toBeLessThan(slides[0].share);
    }
  });

  // Grown, a device's top-right corner took the brand kit's icon badge off the slide (a badge that
  // would leave it is not drawn): a set with the badge keeps the theme's share and is lowered.
  it.each(rows.map((r) => [r.c.name, r.theme, r] as const))('%s, %s, with the icon badge', (_, theme, { c }) => {
    for (const s of sheetGeometry(c, theme, true).slice(1)) {
      expect(s.bottomGap >= BOTTOM_PAD - 0.002 || s.bottomGap <= -MIN_BLEED + 0.002, `slide ${s.index + 1}`).toBe(true);
      if (c.device === 'mac') expect(s.share).toBeGreaterThanOrEqual(MIN_WINDOW_SHARE);
      // Never grown; smaller only to yield to its cover (cover-lead.ts).
      else expect(s.share).toBeLessThanOrEqual(themeFor(theme).product.feature + 0.005);
      expect(s.share).toBeGreaterThanOrEqual(MIN_FEATURE_SHARE - 0.002);
      // A device standing over a bottom headline is against the top edge: no badge there, as before.
      if (s.bottomGap < 0) expect(s.badge, `slide ${s.index + 1}`).toBe(true);
    }
  });
});

// The hero leans, and its lowered corner went where its lean put it: on the Lowe's theme sheet
// (docs/rendering-themes.png) the soft, dark and panoramic heroes ended 1.5 % of the height above
// the bottom edge, the Habitly Android tablet heroes bled 3 %. The features' rule holds for the
// hero too, measured at its lowest corner after the lean: it clears the edge by the bottom margin
// or bleeds off it by MIN_BLEED, stays at least 78 % of the width and larger than the features.
describe("the sheets' heroes: no hero kisses the bottom edge", () => {
  const lowes = fileURLToPath(
    new URL(
      '../../../shared/fixtures/stores/appstore/derived-lookup/us_id457954781_lowes-home-improvement_shopping_iphone-only.json',
      import.meta.url,
    ),
  );
  const cases: [string, SheetCase, Listing, boolean][] = [
    ...SHEET_CASES.map((c) => [c.name, c, habitly, true] as [string, SheetCase, Listing, boolean]),
    // The theme sheet's set: Lowe's planned without uploaded screens, as make-theme-sheet.ts does.
    ...(existsSync(lowes)
      ? [['lowes (theme sheet)', SHEET_CASES[0], readListing(lowes), false] as [string, SheetCase, Listing, boolean]]
      : []),
  ];
  const rows = cases.flatMap(([name, c, listing, uploaded]) =>
    THEME_IDS.filter((t) => themeFor(t).screen === 'framed').map(
      (theme) => [name, theme, sheetGeometry(c, theme, false, listing, uploaded), c] as const,
    ),
  );
  it.each(rows)('%s, %s', (_, __, slides, c) => {
    const hero = slides[0];
    const clears = hero.lowestGap >= BOTTOM_PAD - 0.002;
    const bleeds = hero.lowestGap <= -MIN_BLEED + 0.002;
    expect(clears || bleeds, `the hero's lowest corner ${pct(hero.lowestGap)} from the edge`).toBe(true);
    // Its raised bottom corner too: a wide device's lean raised it 2 % of the height over the edge
    // while its other corner bled 6 % (the Android phone landscape heroes), a sliver of background
    // under one end. Past the edge (its whole bottom edge bleeds) or clear by the bottom margin.
    expect(hero.raisedGap <= 0 || hero.raisedGap >= BOTTOM_PAD - 0.002, `the raised corner ${pct(hero.raisedGap)} from the edge`).toBe(
      true,
    );
    expect(hero.share).toBeGreaterThanOrEqual(0.78);
    for (const s of slides.slice(1)) expect(s.share).toBeLessThan(hero.share);
    if (c.device === 'mac') {
      // Plainly bleeding (hm1): whole it was 66-67 % of the width, under its features' 74-75 %.
      // A quarter of it past the edge, no more (bold's type is held to that: fitSet's cover room).
      expect(hero.pastShare).toBeGreaterThanOrEqual(WINDOW_MIN_BLEED - 0.002);
      expect(hero.pastShare).toBeLessThanOrEqual(MAX_HERO_BLEED + 0.002);
      return;
    }
    // On a landscape slide at most MAX_HERO_BLEED of it lies past the edge, measured at the middle
    // of its turned bottom edge (the share of the device lost): the iPad and Android tablet bold
    // heroes lost 44-45 %, the iPhone's 33 %.
    if (c.orientation === 'landscape')
      expect(hero.pastShare, `${pct(hero.pastShare)} past the edge`).toBeLessThanOrEqual(MAX_HERO_BLEED + 0.002);
  });
});

// Full bleed's landscape and Mac covers (hm1): a frameless screen at 94 % of the width under the
// headline and the rating, leaning, went 22-28 % past the bottom edge, its lower quarter lost. It
// stands, the rating beside a one-line headline where the pair fits (layout.ts coverRatingRow),
// and at most MAX_FRAMELESS_BLEED of it lies past the edge; still the largest screen of its set.
describe("full bleed's landscape covers bleed modestly", () => {
  const cases = SHEET_CASES.filter((c) => c.orientation === 'landscape' || c.device === 'mac');
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const slides = sheetGeometry(c, 'full-bleed');
    const [hero, ...features] = slides;
    const floor = Math.max(MIN_FRAMELESS_SHARE, themeFor('full-bleed').product.feature + HERO_LEAD);
    expect(hero.share).toBeGreaterThanOrEqual(floor - 0.002);
    for (const s of features) expect(s.share).toBeLessThan(hero.share);
    // The iPad's 4:3 slide is too narrow for the pair (its headline alone is 74 % of the width
    // at the floor): the rating stays under it and the screen is made narrower, to its floor.
    if (c.device === 'ipad-13') expect(hero.share).toBeCloseTo(floor, 2);
    else expect(hero.pastShare, `${pct(hero.pastShare)} past the edge`).toBeLessThanOrEqual(MAX_FRAMELESS_BLEED + 0.002);
    // Past the edge at all, it bleeds: no sliver of background under a screen that almost fits.
    expect(hero.bottomGap <= 0.0005 || hero.bottomGap >= BOTTOM_PAD - 0.002).toBe(true);
  });
});

// Width is not what the eye compares (design read 2026-11-29-design-second): on the tablets the
// cover was 2-4 points wider than its features but lost 20-28 % of its height past the bottom
// edge where they lost 0-14 %, and showed 0.87-0.92 of their product. Measured as a slide's
// product: its device's width × the height of it on the slide (at the middle of its turned
// bottom edge), on the layout compose.ts draws, against the feature of the set that shows most.
describe('the cover shows the most product', () => {
  const rows = SHEET_CASES.flatMap((c) => THEME_IDS.map((theme) => [c.name, theme, sheetGeometry(c, theme)] as const));
  it.each(rows)('%s, %s', (_, __, slides) => {
    const { ratio, feature } = coverLead(slides);
    expect(ratio, `the cover shows ${ratio.toFixed(3)} × slide ${feature.index + 1}'s product`).toBeGreaterThanOrEqual(COVER_LEAD - 0.002);
  });
});
