/** A listing's set as the read tool plans it (5 uploaded screens, its first device), or null when refused. */
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { isProblem } from '../../src/core/problem.ts';
import type { Listing } from '../../src/core/listing.ts';
import type { CaptionLength, CaptionStyle, PlanRequest, ScreenshotSetResult } from '../../src/core/set.ts';
import { devicesFor } from './corpus/measure.ts';

export function planOrNull(
  l: Listing,
  captionStyle: CaptionStyle,
  captionLength: CaptionLength,
  shape: Partial<PlanRequest>,
): ScreenshotSetResult | null {
  try {
    return planScreenshotSet({
      listings: [l],
      extraContext: null,
      uploadedScreens: 5,
      request: { device: devicesFor(l)[0], captionStyle, captionLength, ...shape },
    });
  } catch (error) {
    if (isProblem(error) && error.code === 'cannot_fill_set') return null;
    throw error;
  }
}
