/**
 * The checker measures a headline at the size the renderer will draw it at least: the renderer
 * never sets a headline under MIN_HEADLINE_SHARE of the slide's short side (a long one runs on to
 * more lines instead), so a caption that fits its lines only at a smaller size does not fit.
 */
import { describe, expect, it } from 'vitest';
import { describeBudget, fitOf } from '../../src/captions/checker/fit.ts';
import { DEVICE_IDS } from '../../src/core/devices.ts';
import { MIN_HEADLINE_SHARE, scaleOf } from '../../src/rendering/layout.ts';

describe('the fit budget', () => {
  it("measures headlines no smaller than the renderer's least headline size, on every device", () => {
    for (const device of DEVICE_IDS)
      for (const length of ['short', 'long'] as const) {
        const sc = scaleOf(device);
        const floor = Math.ceil(Math.min(sc.width, sc.height) * MIN_HEADLINE_SHARE);
        const fit = fitOf('Track Unlimited Habits', 'headline', device, length);
        expect(fit.sizePx, `${device} ${length}`).toBeGreaterThanOrEqual(floor);
        // The model is told the same size it is judged at.
        expect(describeBudget(device, length).headline).toContain(`at ${fit.sizePx} px bold`);
      }
  });

  it('refuses an iPad headline that fits two lines only below the floor', () => {
    // Two lines at the budget's share of the base (108 px), three at the floor (165 px).
    const text = 'Plan Every Trip With Friends And Family Together';
    expect(fitOf(text, 'headline', 'ipad-13', 'short').lines).toBeGreaterThan(2);
  });
});
