/**
 * Planning for tests that look at captions rather than set lengths: a set the listing cannot fill
 * is refused (cannot_fill_set) and never shorter, so these plan the count it supports instead.
 */
import { planScreenshotSet } from '../../src/planning/plan.ts';
import type { PlanInput, ScreenshotSetResult } from '../../src/core/set.ts';
import { isProblem } from '../../src/core/problem.ts';

export const refused = (error: unknown): boolean => isProblem(error) && error.code === 'cannot_fill_set';

/** The set, or null when it is refused. */
export function planOrRefuse(input: PlanInput): ScreenshotSetResult | null {
  try {
    return planScreenshotSet(input);
  } catch (error) {
    if (refused(error)) return null;
    throw error;
  }
}

/** The set as asked, or with as many slides as the listing supports (a narrative cannot shrink: null). */
export function planSupported(input: PlanInput): ScreenshotSetResult | null {
  const asked = input.request.count ?? 5;
  for (let count = asked; count >= 1; count--) {
    const result = planOrRefuse({ ...input, request: { ...input.request, count } });
    if (result) {
      if (result.slides.length !== count) throw new Error(`asked ${count} slides, got ${result.slides.length}`);
      return result;
    }
    if (input.request.narrativeId) return null;
  }
  return null;
}
