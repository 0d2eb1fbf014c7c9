/**
 * The one place a revision's captions are checked: the planner's own caption checker
 * (captions/checker/check.ts), the same one every generated caption passes. Findings are warnings, since a
 * user may write what the planner would not; only the renderer's fit refuses (caption-fit.ts).
 */
import { listingsOf, type App } from '../../apps/apps.ts';
import { DEVICES } from '../../core/devices.ts';
import { checkCaptions } from '../../captions/checker/check.ts';
import type { ScreenshotSetResult } from '../../core/set.ts';

/** Warnings about the captions at `positions` (0-based) of the revised plan, each naming its slide. */
export function captionWarnings(app: App, plan: ScreenshotSetResult, positions: number[], locale: string | null = null): string[] {
  if (positions.length === 0) return [];
  const listings = listingsOf(app, DEVICES[plan.device].store);
  if (listings.length === 0) return [];
  const findings = checkCaptions(
    plan.slides.map((s) => ({ headline: s.headline, subheadline: s.subheadline ?? null, role: s.role })),
    {
      listings,
      extraContext: app.extraContext,
      device: plan.device,
      captionLength: plan.captionLength,
      captionStyle: plan.captionStyle,
      locale,
    },
  );
  return positions.flatMap((p) => (findings[p] ?? []).map((f) => `slide ${p + 1}: ${f.field}: ${f.message}`));
}
