/**
 * The offline writer's whole-phrase rules (issue 33, item 2), each a checker rule both writers meet:
 * no sentence cut where its phrase goes on, no voice frame glued to a phrase it does not fit, only
 * selling points, proof only from the store's own figures, and a call to action that asks once.
 */
import { describe, expect, it } from 'vitest';
import { checkCaptions, type CheckContext } from '../../src/captions/checker/check.ts';
import { cutPhrase, leansOnPronoun } from '../../src/captions/checker/cut.ts';
import { sentenceWords } from '../../src/captions/checker/sentences.ts';
import { brokenFrame } from '../../src/captions/checker/frames.ts';
import { offRole } from '../../src/captions/checker/selling.ts';
import { contradictedProof } from '../../src/captions/checker/proof.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import { habitly } from './listings.ts';

const sentences = sentenceWords([
  'Get alerts when items on your list go on sale.',
  'Planny was part of my day for years.',
  'First you’ll set a goal, then track it.',
  'Smart reminders that adapt to your schedule.',
  'Find, clean and share your files.',
  'Send files to nearby devices without mobile data.',
  'Create a jar for each goal and watch it fill up.',
  'Speed camera warnings and lane guidance keep you on track.',
  'Export to full-size JPEG, HEIC or TIFF.',
  'Export reports to CSV and PDF.',
  'Jump, dash and climb to the summit.',
  'Swim, paddle and race to the island.',
]);
const frame = new Set(['with', 'planny', 'now', 'you', 'can']);

describe('cut phrases (checker/cut.ts)', () => {
  it.each([
    ['Get Alerts when Items', 'clause'],
    ['Planny was part!', 'stops before "of"'],
    ['First you’ll', 'needs a verb'],
    ['Find, Clean', 'list'],
    ['Without mobile data.', 'mid-sentence'],
    ['HEIC or TIFF!', 'mid-sentence'],
  ])('refuses "%s"', (text, why) => {
    expect(cutPhrase(text, sentences, frame)).toContain(why);
  });
  it.each([
    'Smart Reminders',
    'Send Files to Nearby Devices',
    'Lane guidance',
    'Create a jar for each goal',
    'Now you can find, clean and share your files',
  ])('passes the whole phrase "%s"', (text) => {
    expect(cutPhrase(text, sentences, frame)).toBeNull();
  });
  it('lets the rest of a sentence stand under the headline that began it, not under another', () => {
    expect(cutPhrase('Without mobile data.', sentences, frame, 'Send files to nearby devices')).toBeNull();
    expect(cutPhrase('Without mobile data.', sentences, frame, 'Free up storage')).toContain('mid-sentence');
    // Where the action's object goes is an aside; right after a bare verb it only finishes that verb.
    expect(cutPhrase('To CSV and PDF.', sentences, frame, 'Export reports')).toBeNull();
    expect(cutPhrase('To the summit.', sentences, frame, 'Jump, dash and climb')).not.toBeNull();
    expect(cutPhrase('To the island.', sentences, frame, 'Swim, paddle and race')).not.toBeNull();
  });
  it('refuses a headline whose pronoun points at a sentence it was cut from', () => {
    expect(leansOnPronoun('Watch It Fill Up')).not.toBeNull();
    expect(leansOnPronoun('Use Them at Checkout')).not.toBeNull();
    expect(leansOnPronoun('Make It Yours')).toBeNull();
  });
});

describe('voice frames (checker/frames.ts)', () => {
  it.each([
    'Yes, the app uses!',
    'GET EASILY VISUALIZE YOUR TASKS.',
    'GET NO ADS, EVER.',
    'Now you can thousands of recipes!',
    'Send files, ready when you are!',
  ])('refuses "%s"', (text) => {
    expect(brokenFrame(text, new Set(['busycal']))).not.toBeNull();
  });
  it.each([
    'Get severe weather alerts',
    'Get BusyCal now.',
    'Get started with BusyCal.',
    'Now you can send files!',
    'Smart lists, ready when you are!',
  ])('passes "%s"', (text) => {
    expect(brokenFrame(text, new Set(['busycal']))).toBeNull();
  });
});

describe('selling points only (checker/selling.ts)', () => {
  it.each([
    ['CORE FEATURES.', 'a heading'],
    ['MERRY CHRISTMAS.', 'a greeting'],
    ['Note: sync needs iCloud', 'a note'],
    ['Unofficial app for Reddit', 'a disclaimer'],
    ['Use promo code SAVE10', 'a promo code'],
  ])('"%s" is %s', (text, kind) => {
    expect(offRole(text)).toBe(kind);
  });
  it('passes a feature', () => {
    expect(offRole('Core features of a pro editor, in your pocket')).toBeNull();
  });
});

describe('proof only from the store (checker/proof.ts)', () => {
  const store = { rating: 3.5, ratingCount: 2_800_000 };
  it('refuses a rating or count the store contradicts', () => {
    expect(contradictedProof('Rated 5.0 by 100M users', store)).toContain('3.5');
    expect(contradictedProof('4.8★ from 2.8M+ Ratings', store)).not.toBeNull();
    expect(contradictedProof('Rated 3.5 from 3M ratings', store)).toContain('2800000');
  });
  it('passes the store’s own figures, rounded down', () => {
    expect(contradictedProof('Rated 3.5 from 2.8M+ ratings', store)).toBeNull();
    expect(contradictedProof('Rated 4.7★ from 12K+ Ratings', { rating: 4.78, ratingCount: 12840 })).toBeNull();
  });
});

describe('the checker and the rule writer meet the rules', () => {
  const ctx = (over: Partial<CheckContext> = {}): CheckContext => ({
    listings: [{ ...habitly, name: 'BusyCal', ratingCount: 20 }],
    extraContext: null,
    device: 'iphone-69',
    captionLength: 'long',
    captionStyle: 'professional',
    ...over,
  });
  it('finds a call to action asked twice, and proof from 20 ratings', () => {
    const [hero, cta, proof] = checkCaptions(
      [
        { headline: 'Build better habits daily.', subheadline: 'One day at a time.', role: 'hero' },
        { headline: 'Get started with BusyCal.', subheadline: 'Start today with BusyCal.', role: 'call-to-action' },
        { headline: 'Rated 4.7 from 20 ratings.', subheadline: null, role: 'social-proof' },
      ],
      ctx(),
    );
    expect(hero.map((f) => f.id)).not.toContain('echo-pair');
    expect(cta.map((f) => f.id)).toContain('echo-pair');
    expect(proof.map((f) => f.id)).toContain('rating');
  });
  it.each(CAPTION_STYLE_IDS)('writes no second call, no "Yes," frame and no raters called users in the %s voice', (captionStyle) => {
    const r = planScreenshotSet({
      listings: [habitly],
      extraContext: null,
      request: { device: 'iphone-69', captionStyle, captionLength: 'long', count: 8 },
    });
    for (const s of r.slides) {
      expect(s.headline).not.toMatch(/^yes,|\busers\b/i);
      if (s.role === 'call-to-action') expect(s.subheadline ?? '').not.toMatch(/^(start|get|download|try|give)\b/i);
    }
  });
});
