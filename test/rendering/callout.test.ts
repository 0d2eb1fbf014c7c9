/** A slide's focus drawn as a callout: enlarged, inside the band the text leaves free, and left out when it does not fit the screen. */
import { describe, expect, it } from 'vitest';
import type { Focus } from '../../src/core/set.ts';
import { calloutBox, regionOnSlide } from '../../src/rendering/callout.ts';
import { renderPool } from '../support/render-pool.ts';
import { scaleOf } from '../../src/rendering/layout.ts';
import { markedScreen } from './golden-cases.ts';
import { slide } from './support.ts';

const pool = renderPool();

describe('focus callout', () => {
  it('enlarges the region where it is, within the free band and the slide', () => {
    const sc = scaleOf('iphone-69');
    const screen = { x: 100, y: 700, width: 1100, height: 2390, radius: 0 };
    const region = regionOnSlide({ x: 60, y: 160, w: 500, h: 230 }, screen, { width: 660, height: 1434 });
    expect(region.width).toBeCloseTo((500 * 1100) / 660, 0);
    const free = { top: 650, bottom: 2780 };
    const box = calloutBox(region, sc, free)!;
    expect(box.width).toBeGreaterThan(region.width);
    expect(box.y).toBeGreaterThanOrEqual(free.top);
    expect(box.y + box.height).toBeLessThanOrEqual(free.bottom);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(sc.width);
  });

  it('is drawn on the slide, and a region outside the screen is left out', async () => {
    const s = slide(1, 'Smart Reminders', 'headline-top');
    const draw = async (focus?: Focus) =>
      (
        await pool.renderSlides({
          device: 'iphone-69',
          slides: [{ ...s, ...(focus ? { focus } : {}) }],
          screens: [await markedScreen(660, 1434)],
        })
      )[0].bytes;
    const [plain, focused, outside] = await Promise.all([
      draw(),
      draw({ x: 60, y: 160, w: 500, h: 230 }),
      draw({ x: 600, y: 0, w: 100, h: 10 }),
    ]);
    expect(focused.equals(plain)).toBe(false);
    expect(outside.equals(plain)).toBe(true);
  });
});
