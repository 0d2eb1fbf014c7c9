/**
 * Refuse less, and honestly (issue 33, item 4): a slide whose best caption misses only a soft rule
 * ships with its weakness named in `warnings`; a hard defect never ships; a short listing's set ends
 * on an ask instead of being refused. docs/captions.md, "Hard and soft rules".
 */
import { describe, expect, it } from 'vitest';
import { checkCaptions, nearMiss, softFinding, type CheckContext } from '../../src/captions/checker/check.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { notAFeature } from '../../src/captions/clean.ts';
import { isProblem } from '../../src/core/problem.ts';
import type { Listing } from '../../src/core/listing.ts';
import type { PlanRequest } from '../../src/core/set.ts';
import { sampleListing } from '../support/fixtures.ts';

/** A video editor whose listing is one sentence of two actions, rated by enough people to quote. */
const oneSentence = sampleListing({
  name: 'Cutwise',
  subtitle: null,
  category: 'Photo & Video',
  description: 'Trim clips and add music in seconds.',
  rating: 4.2,
  ratingCount: 640,
});
/** A tuner whose features sit in a sentence that ends "are included". */
const tuner = sampleListing({
  name: 'Pitchly Tuner',
  subtitle: null,
  category: 'Music',
  description: 'A precise chromatic tuner for guitar, bass and ukulele. Alternate tunings and a metronome are included.',
  rating: 4.7,
  ratingCount: 900,
});

const plan = (listing: Listing, request: Partial<PlanRequest> = {}) =>
  planScreenshotSet({ listings: [listing], extraContext: null, uploadedScreens: 5, request: { device: 'iphone-69', ...request } });

describe('soft and hard findings', () => {
  const ctx: CheckContext = {
    listings: [oneSentence],
    extraContext: null,
    device: 'iphone-69',
    captionLength: 'short',
    captionStyle: 'aso-expert',
  };

  it('calls a feature that names one of the hero’s things a soft repeat, and the same words said again hard', () => {
    const [, narrowed] = checkCaptions(
      [
        { headline: 'Trim Clips and Add Music', subheadline: null, role: 'hero' },
        { headline: 'Trim Clips', subheadline: null, role: 'feature' },
      ],
      ctx,
    );
    expect(narrowed.map((f) => f.id)).toContain('repeat');
    expect(nearMiss(narrowed, { role: 'feature', index: 2 })).toBe(true);
    const [, again] = checkCaptions(
      [
        { headline: 'Trim Clips and Add Music', subheadline: null, role: 'hero' },
        { headline: 'Trim Clips and Add Music!', subheadline: null, role: 'feature' },
      ],
      ctx,
    );
    expect(nearMiss(again, { role: 'feature', index: 2 })).toBe(false);
  });

  it('calls a narrowing hard when another slide already showed it', () => {
    const [, , third] = checkCaptions(
      [
        { headline: 'Trim Clips and Add Music', subheadline: null, role: 'hero' },
        { headline: 'Trim Clips in Seconds', subheadline: null, role: 'feature' },
        { headline: 'Trim Clips', subheadline: null, role: 'feature' },
      ],
      ctx,
    );
    expect(third.map((f) => f.id)).toContain('repeat');
    expect(nearMiss(third, { role: 'feature', index: 3 })).toBe(false);
  });

  it('never lets the hero ship a soft finding, and keeps cut, frame, echo, rating and invented claims hard', () => {
    const generic = { id: 'generic' as const, field: 'headline' as const, message: '' };
    expect(softFinding(generic, { role: 'feature', index: 3 })).toBe(true);
    expect(softFinding(generic, { role: 'hero', index: 1 })).toBe(false);
    for (const id of ['cut', 'frame', 'echo', 'echo-pair', 'rating', 'grounded', 'complete', 'off-role'] as const)
      expect(softFinding({ id, field: 'headline', message: '' }, { role: 'feature', index: 3 })).toBe(false);
  });
});

describe('a short listing at the defaults', () => {
  it('is planned with the hero’s actions on slides of their own, proof and an ask, each weakness named', () => {
    const set = plan(oneSentence);
    expect(set.slides.map((s) => s.role)).toEqual(['hero', 'feature', 'feature', 'social-proof', 'call-to-action']);
    expect(set.slides.map((s) => s.headline)).toEqual(expect.arrayContaining(['Trim Clips and Add Music', 'Trim Clips']));
    expect(set.warnings.filter((w) => /weaker caption than the rest/.test(w))).toHaveLength(2);
    expect(set.warnings).toContainEqual(expect.stringMatching(/^Slide 5 asks for the download/));
    expect(set.warnings).toContainEqual(expect.stringMatching(/^Slide 4 shows the app's rating/));
  });

  it('reads "… are included" as features, not as the developer’s other apps', () => {
    expect(notAFeature('Alternate tunings and a metronome are included.')).toBeNull();
    expect(notAFeature('Atlantis 2, included.')).toBe('other apps');
    const set = plan(tuner);
    expect(set.slides.map((s) => s.headline)).toContain('Alternate Tunings');
    // The metronome alone names a thing, not what it does: a near miss (rules/writer-base.ts, bareThing).
    expect(set.warnings.some((w) => /weaker caption/.test(w) && !/names a thing/.test(w))).toBe(false);
  });

  it('still refuses a listing with nothing to say, with no set worse than the one refused', () => {
    let refused: unknown = null;
    try {
      plan(sampleListing({ name: 'Level Tool', subtitle: null, category: 'Utilities', description: '' }));
    } catch (error) {
      refused = error;
    }
    expect(isProblem(refused) && refused.code).toBe('cannot_fill_set');
  });
});

describe('a long slide standing on its headline alone', () => {
  const screens = [
    { screenId: 'scr_a', text: ['9:41', 'Music', 'Pick a song from your library', 'Fade in', 'Fade out'] },
    { screenId: 'scr_b', text: ['9:41', 'Trim', 'Drag the handles to trim each clip', 'Done'] },
    { screenId: 'scr_c', text: ['9:41', 'Export', 'Share'] },
    { screenId: 'scr_d', text: ['9:41', 'RATINGS'] },
    { screenId: 'scr_e', text: ['9:41', 'Cutwise', 'Trim clips and add music in seconds'] },
  ];
  const long = (screenTexts?: typeof screens) =>
    planScreenshotSet({
      listings: [oneSentence],
      extraContext: null,
      uploadedScreens: 5,
      screenTexts,
      request: { device: 'iphone-69', captionLength: 'long', captionStyle: 'minimal' },
    });

  it('takes a whole line its own screen shows as its subheadline, never a label', () => {
    const bare = long().slides.filter((s) => s.role === 'feature' && s.subheadline === null);
    expect(bare.length).toBeGreaterThan(0);
    const set = long(screens);
    const trim = set.slides.find((s) => /^trim clips$/i.test(s.headline))!;
    expect(trim.screenId).toBe('scr_b');
    expect(trim.subheadline).toBe('Drag the handles to trim each clip');
    const music = set.slides.find((s) => /^add music/i.test(s.headline))!;
    expect(music.subheadline).toBe('Pick a song from your library');
    for (const s of set.slides) expect(['Music', 'Trim', 'Export', 'Fade in', 'RATINGS']).not.toContain(s.subheadline);
  });
});
