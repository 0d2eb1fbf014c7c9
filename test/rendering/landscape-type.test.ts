/**
 * A landscape slide's type (design read 2026-11-28, left by hd2): on iPad, Android phone and tablet
 * landscape slides the bold theme's headline sat at the floor with the regular themes' (bold = soft),
 * on the iPhone 1.13 × above it. A landscape slide stands alone across the store's search results,
 * and bold's big type is the theme. Measured on the Habitly sets of docs/rendering-sets (planned as
 * sets with uploaded screens are) and on a set with a two-line headline and a subheadline.
 */
import { createCanvas } from '@napi-rs/canvas';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Device } from '../../src/core/devices.ts';
import { slideSize, type Orientation } from '../../src/core/orientation.ts';
import { THEME_IDS, themeFor, type ThemeId } from '../../src/core/themes.ts';
import { layoutFor } from '../../src/planning/look.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { arrange, composeRaw } from '../../src/rendering/compose.ts';
import { registerFonts } from '../../src/rendering/fonts.ts';
import { displayFor } from '../../src/rendering/frames.ts';
import { fitSet, MAX_TYPE_BLEED, MIN_HEADLINE_RATIO, MIN_HEADLINE_SHARE, typeScale, scaleOf } from '../../src/rendering/layout.ts';
import type { SlideLook, SlideTask } from '../../src/rendering/types.ts';
import { habitly } from '../planning/listings.ts';
import { markedScreen } from './golden-cases.ts';
import { slide } from './support.ts';
import { searchPt, searchWidthPt } from '../../src/rendering/thumbnail.ts';

beforeAll(() => registerFonts());

const CASES: [string, Device, [number, number]][] = [
  ['iPhone', 'iphone-69', [1434, 660]],
  ['iPad', 'ipad-13', [1376, 1032]],
  ['Android phone', 'android-phone', [1200, 540]],
  ['Android tablet', 'android-tablet', [1280, 800]],
  ['Mac', 'mac', [1440, 900]],
];
const LANDSCAPE: Orientation = 'landscape';

function habitlySet(device: Device): SlideLook[] {
  const plan = planScreenshotSet({
    listings: [habitly],
    extraContext: null,
    request: { device, count: 5, orientation: LANDSCAPE },
    uploadedScreens: 5,
    uploadedLandscape: true,
  });
  return plan.slides.map((s, i) => ({ ...s, layout: s.layout === 'text-only' ? layoutFor(s.role, i, true) : s.layout }));
}

const LONG: SlideLook[] = [
  slide(0, 'Track Every Habit in One Tap', 'hero-centered'),
  slide(1, 'Smart Reminders That Adapt to Your Week', 'headline-top', { subheadline: 'Plan your week and see how far you have come' }),
  slide(2, 'Beautiful Charts & Streaks', 'headline-bottom'),
];

const ctx = () => createCanvas(1, 1).getContext('2d');

describe("bold's big type shows on landscape slides", () => {
  it.each(CASES)('%s: the Habitly set in bold is at least 1.3 × soft, and the rules hold', (_, device) => {
    const slides = habitlySet(device);
    const c = ctx();
    const { width, height } = slideSize(device, LANDSCAPE);
    const bold = fitSet(c, device, slides, 'bold', LANDSCAPE);
    const soft = fitSet(c, device, slides, 'soft', LANDSCAPE);
    // Before: 1.13 (iPhone), 1.0 (iPad, Android phone and tablet). On the iPad the cover binds
    // (design read 2026-11-29): at 1.4 × the hero's headline took two lines and its device went
    // 44 % off the bottom edge; bold keeps one line, 1.13 × soft, and the hero at most a quarter off.
    expect(bold.headlineSizes[0] / soft.headlineSizes[0]).toBeGreaterThanOrEqual(device === 'ipad-13' ? 1.1 : 1.3);
    for (const m of [bold, soft]) {
      expect(new Set(m.headlineSizes).size).toBe(1);
      expect(m.headlineSizes[0]).toBeGreaterThanOrEqual(MIN_HEADLINE_SHARE * Math.min(width, height));
      expect(m.headlineSizes[0] / m.subSize).toBeGreaterThanOrEqual(MIN_HEADLINE_RATIO);
      // The designer's exception to "≥ 8 % of the width" (docs/typography.md): a regular theme's
      // landscape headline is 3.7-6 % of the width, but the store shows a landscape slide alone
      // across the row, so in search results it reads at least as large as an 8 %-of-width
      // headline on the family's portrait slide.
      const pt = searchPt(device, m.headlineSizes[0], { width, height });
      expect(pt).toBeGreaterThanOrEqual(MIN_HEADLINE_SHARE * searchWidthPt(device, 1, 2) - 0.05);
    }
    console.log(
      `${device} ${width}×${height}: soft ${soft.headlineSizes[0]} px ` +
        `(${((100 * soft.headlineSizes[0]) / width).toFixed(1)} % of the width, ${searchPt(device, soft.headlineSizes[0], { width, height })} pt in search), ` +
        `portrait floor ${(MIN_HEADLINE_SHARE * searchWidthPt(device, 1, 2)).toFixed(1)} pt`,
    );
  });

  // With the store's rating on the cover (as the sheets and a rated listing's sets have it) the
  // line under the headline took 8-9 % of the height from the cover, and bold fell to soft's
  // size on the iPhone (106 px) and the Mac (144). The rating now stands beside a one-line
  // headline where the pair fits, and a Mac's cover window bleeds a quarter under its text.
  it.each([
    ['iPhone', 'iphone-69'],
    ['Mac', 'mac'],
  ] as const)('%s: with the rating on the cover, bold is still at least 1.3 × soft', (_, device) => {
    const slides = habitlySet(device);
    const c = ctx();
    const rating = { value: habitly.rating!, count: habitly.ratingCount! };
    const bold = fitSet(c, device, slides, 'bold', LANDSCAPE, rating);
    const soft = fitSet(c, device, slides, 'soft', LANDSCAPE, rating);
    expect(bold.headlineSizes[0] / soft.headlineSizes[0]).toBeGreaterThanOrEqual(1.3);
  });

  // Larger type lowers the device under it: above the floor, a feature's device keeps at least
  // 1 − MAX_TYPE_BLEED of its height on the slide (the Mac's window: whole at 70 %, mac-window.test.ts).
  const rows = CASES.filter(([, device]) => device !== 'mac').flatMap(([name, device, screen]) =>
    THEME_IDS.filter((t) => t !== 'panoramic').flatMap((theme) =>
      [
        ['Habitly', habitlySet(device)],
        ['long', LONG],
      ].map(([set, slides]) => [name, theme, set as string, device, screen, slides as SlideLook[]] as const),
    ),
  );
  it.each(rows)('%s, %s, %s set: type above the floor leaves the features most of their device', (_, theme, __, device, screen, slides) => {
    const c = ctx();
    const m = fitSet(c, device, slides, theme, LANDSCAPE);
    const sc = scaleOf(device, LANDSCAPE);
    if (m.headlineSizes[0] <= typeScale(sc, theme).min) return;
    const d = displayFor(device, { width: screen[0], height: screen[1] });
    slides.forEach((s, index) => {
      if (index === 0) return;
      const task = taskOf(device, s, index, m, theme, new Uint8Array(1));
      const { at } = arrange(c, task, d, false);
      const box = at.frame ?? at.bleed!;
      const past = Math.max(0, box.y + box.height - sc.height) / box.height;
      // Grown against a tangent (layout.ts featureWidth), a feature bleeds MIN_BLEED of the slide's height more.
      expect(past, `slide ${index + 1}`).toBeLessThanOrEqual(MAX_TYPE_BLEED + 0.1);
    });
  });

  it('draws it so: the bold headline ink of an iPad landscape slide is at least 1.3 × the soft one', async () => {
    const slides = habitlySet('ipad-13');
    const screen = await markedScreen(1376, 1032, '#F97316');
    const ink = async (theme: ThemeId) => {
      const c = ctx();
      const m = fitSet(c, 'ipad-13', slides, theme, LANDSCAPE);
      const task = taskOf('ipad-13', slides[2], 2, m, theme, screen);
      const { at } = arrange(c, task, displayFor('ipad-13', { width: 1376, height: 1032 }), false);
      const { data, width } = await composeRaw(task);
      // The rows above the device that hold the headline's ink (or its marker): far from the row's own background at its left edge.
      const top = (at.frame ?? at.bleed!).y;
      let [first, last] = [-1, -1];
      for (let y = 0; y < top; y++) {
        const bg = (y * width + 4) * 4;
        for (let x = 0; x < width; x += 2) {
          const i = (y * width + x) * 4;
          if (Math.max(...[0, 1, 2].map((k) => Math.abs(data[i + k] - data[bg + k]))) > 90) {
            if (first < 0) first = y;
            last = y;
            break;
          }
        }
      }
      return last - first;
    };
    const [bold, soft] = [await ink('bold'), await ink('soft')];
    expect(themeFor('bold').headline.weight).toBe(900);
    // Before: 1.0 (both at the 166 px floor).
    expect(bold / soft).toBeGreaterThanOrEqual(1.3);
  });
});

function taskOf(device: Device, s: SlideLook, index: number, metrics: SlideTask['metrics'], theme: ThemeId, screen: Uint8Array): SlideTask {
  return { kind: 'slide', index, device, orientation: LANDSCAPE, slide: s, screen, metrics, panorama: null, theme };
}
