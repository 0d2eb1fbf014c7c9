/**
 * The set's rhythm follows its order: whichever slide comes first after a reorder is drawn as the
 * hero, the others alternate the headline's side, in every locale. A layout the revision names,
 * and a text slide, stay as they are.
 */
import { describe, expect, it } from 'vitest';
import type { ScreenshotSetResult } from '../../../src/core/set.ts';
import { layoutFor } from '../../../src/planning/look.ts';
import { applyRevision } from '../../../src/sets/revisions/edit.ts';
import { slide } from '../../rendering/support.ts';

const slides = [
  slide(0, 'Track Every Habit', 'hero-centered'),
  slide(1, 'Smart Reminders', 'headline-bottom'),
  slide(2, 'Charts', 'headline-top'),
  slide(3, 'Loved by Millions', 'text-only', { role: 'social-proof' }),
].map((s, i) => ({ ...s, index: i + 1 }));
const parent = {
  device: 'iphone-69',
  captionLength: 'short',
  slides,
  warnings: [],
  locales: [
    { locale: 'en-US', slides, warnings: [] },
    { locale: 'de-DE', slides: slides.map((s) => ({ ...s, headline: `${s.headline} (de)` })), warnings: [] },
  ],
} as unknown as ScreenshotSetResult;

const layouts = (plan: ScreenshotSetResult) => plan.slides.map((s) => `${s.headline}: ${s.layout}`);

describe('a reorder carries the rhythm', () => {
  it('gives the hero composition to the new first slide and alternates the rest', () => {
    const out = applyRevision(parent, { order: [3, 1, 2, 4] });
    expect(out.errors).toEqual([]);
    expect(layouts(out.plan)).toEqual([
      'Charts: hero-centered',
      'Track Every Habit: headline-bottom',
      'Smart Reminders: headline-top',
      'Loved by Millions: text-only',
    ]);
    expect(out.plan.locales![1].slides.map((s) => s.layout)).toEqual(out.plan.slides.map((s) => s.layout));
  });

  it('keeps a layout the revision names, and a slide that did not move', () => {
    const out = applyRevision(parent, { order: [2, 1, 3, 4], slides: [{ index: 1, layout: 'headline-top' }] });
    expect(layouts(out.plan)).toEqual([
      'Smart Reminders: hero-centered',
      'Track Every Habit: headline-top',
      'Charts: headline-top',
      'Loved by Millions: text-only',
    ]);
  });

  it('a removal moves the slides after it up: they take their new places', () => {
    const out = applyRevision(parent, { remove: [1] });
    expect(layouts(out.plan).slice(0, 2)).toEqual(['Smart Reminders: hero-centered', 'Charts: headline-bottom']);
  });

  it('the planner composes by position too: the first slide with a screen is the hero, whatever its role', () => {
    expect(layoutFor('feature', 0, true)).toBe('hero-centered');
    expect(layoutFor('hero', 1, true)).toBe('headline-bottom');
    expect(layoutFor('hero', 0, false)).toBe('text-only');
  });
});
