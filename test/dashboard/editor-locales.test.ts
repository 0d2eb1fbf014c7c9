/** The editor's form of a set in several locales, as a revision: each caption edit with its locale, shared changes once. */
import { describe, expect, it } from 'vitest';
import type { PublicJob, StoredPlanRequest } from '../../src/sets/jobs.ts';
import { applyRevision } from '../../src/sets/revisions/edit.ts';
import { initialState, postedState, revisionOf } from '../../src/dashboard/pages/editor.ts';
import type { ScreenshotSetResult } from '../../src/core/set.ts';

const slide = (index: number, headline: string) => ({
  index,
  role: 'feature' as const,
  headline,
  subheadline: null,
  keywords: [],
  screenshotUrl: null,
  screenId: `scr_${index}`,
  layout: 'headline-top',
  background: { colors: ['#112233', '#445566'] },
  textColor: '#FFFFFF',
});
const en = [slide(1, 'Plan Meals'), slide(2, 'Shop Fast')];
const de = [slide(1, 'Essen planen'), slide(2, 'Schnell einkaufen')];
const result = {
  device: 'iphone-67',
  captionLength: 'short',
  slides: en,
  warnings: [],
  locales: [
    { locale: 'en-US', slides: en, warnings: [] },
    { locale: 'de-DE', slides: de, warnings: [] },
  ],
} as unknown as ScreenshotSetResult;
const job = { id: 'job_x', status: 'succeeded', result } as unknown as PublicJob;
const request = {} as StoredPlanRequest;

/** The form as the page posts it: every locale's captions, the shown locale, the order and colours. */
function posted(changes: Record<string, string>) {
  return {
    order: '1,2',
    locale: 'de-DE',
    'headline-1': 'Plan Meals',
    'headline-2': 'Shop Fast',
    'headline-1-de-DE': 'Essen planen',
    'headline-2-de-DE': 'Schnell einkaufen',
    'screen-1': 'scr_1',
    'screen-2': 'scr_2',
    bg1: '#112233',
    bg2: '#445566',
    text: '#FFFFFF',
    ...changes,
  };
}

describe('the editor of a set in two locales', () => {
  it('opens on the locale asked for, and the first for one it lacks', () => {
    expect(initialState(job, request, 'de-DE').shown).toBe('de-DE');
    expect(initialState(job, request, 'fr-FR').shown).toBe('en-US');
    expect(initialState(job, request).headline.get('2-de-DE')).toBe('Schnell einkaufen');
  });

  it('opens on the theme the set was drawn in, also when its brand kit chose it and the request named none', () => {
    const drawnBold = { ...job, result: { ...result, theme: 'bold' } } as unknown as PublicJob;
    expect(initialState(drawnBold, request).theme).toBe('bold');
    expect(initialState(job, request).theme).toBe('soft');
  });

  it('sends a German caption with its locale, and a screen and colours once, without one', () => {
    const base = initialState(job, request);
    const state = postedState(posted({ 'headline-2-de-DE': 'Schneller einkaufen', 'screen-1': 'scr_2', bg1: '#000000' }), base);
    expect(state.shown).toBe('de-DE');
    const { request: revision, edited } = revisionOf(job, initialState(job, request), state);
    expect(revision.slides).toEqual([
      { index: 1, screenId: 'scr_2', background: { colors: ['#000000', '#445566'] }, textColor: '#FFFFFF' },
      { index: 2, background: { colors: ['#000000', '#445566'] }, textColor: '#FFFFFF' },
      { index: 2, locale: 'de-DE', headline: 'Schneller einkaufen' },
    ]);
    expect(edited).toEqual(['1', '2', '2-de-DE']);
    // The API takes it as it is: English captions unchanged, the German one edited, the screen in both.
    const applied = applyRevision(result, revision);
    expect(applied.errors).toEqual([]);
    expect(applied.plan.locales![0].slides.map((s) => s.headline)).toEqual(['Plan Meals', 'Shop Fast']);
    expect(applied.plan.locales![1].slides.map((s) => s.headline)).toEqual(['Essen planen', 'Schneller einkaufen']);
    expect(applied.plan.locales!.map((l) => l.slides[0].screenId)).toEqual(['scr_2', 'scr_2']);
  });

  it('sends an English caption with its locale too, and a reorder once', () => {
    const state = postedState(posted({ 'headline-1': 'Plan Dinner', move: '2:up' }), initialState(job, request));
    const { request: revision } = revisionOf(job, initialState(job, request), state);
    expect(revision).toEqual({ slides: [{ index: 1, locale: 'en-US', headline: 'Plan Dinner' }], order: [2, 1] });
  });

  it('adds a slide of the user’s caption after the others, in every locale, kept across a reorder', () => {
    const base = initialState(job, request);
    const moved = postedState(posted({ move: '2:up', 'add-headline': 'Share With Family', 'add-subheadline': '' }), base);
    // Without JavaScript a move posts the page back: the new slide's caption is still there.
    expect(moved.added.headline).toBe('Share With Family');
    const { request: revision } = revisionOf(job, base, moved);
    expect(revision).toEqual({ add: [{ headline: 'Share With Family' }], order: [2, 1, 3] });
    const applied = applyRevision(result, revision);
    expect(applied.errors).toEqual([]);
    expect(applied.plan.locales!.map((l) => l.slides.map((s) => s.headline))).toEqual([
      ['Shop Fast', 'Plan Meals', 'Share With Family'],
      ['Schnell einkaufen', 'Essen planen', 'Share With Family'],
    ]);
    // An empty headline adds nothing.
    expect(revisionOf(job, base, postedState(posted({ 'add-headline': '  ' }), base)).request).toEqual({});
  });
});
