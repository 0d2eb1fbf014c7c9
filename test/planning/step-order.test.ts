/**
 * The tenth read's only reject (issue 33): a long how-it-works set said the listing's steps out of
 * order, because the long pass looked for a step with a subheadline across all steps and step 1 had
 * none. A step is said in its turn, on its headline alone where nothing whole goes under it, with
 * one number frame, its phrase opening with a capital after the number.
 */
import { describe, expect, it } from 'vitest';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import { planOrNull as plan } from './plan-or-null.ts';
import { listingOf } from './remaining-listings.ts';

/** A receipts app whose last step alone has something to say under its headline. */
const receipts = listingOf({
  name: 'Slipwise',
  category: 'Finance',
  subtitle: 'Receipts filed for you',
  rating: 4.6,
  ratingCount: 5200,
  description: [
    'Slipwise turns a shoebox of receipts into tidy expense reports.',
    'Step 1: Snap the receipt',
    'Step 2: Slipwise reads the totals',
    'Step 3: Send the report to your accountant',
    'Track mileage with GPS and split costs across projects.',
  ].join('\n'),
});

const STEPS = [/snap the receipt/i, /reads the totals/i, /send the report/i];

describe('how it works says the steps in the listing’s order (tenth read, pattern 3)', () => {
  const made = CAPTION_STYLE_IDS.flatMap((style) =>
    CAPTION_LENGTH_IDS.map((length) => ({
      label: `${style}/${length}`,
      set: plan(receipts, style, length, { narrativeId: 'how-it-works' }),
    })),
  ).filter((x) => x.set !== null);

  it('is made in most voices (the test reads real sets)', () => {
    expect(made.length).toBeGreaterThanOrEqual(6);
  });

  it('each step slide says the listing’s step of its number, never a later one first', () => {
    const wrong: string[] = [];
    for (const { label, set } of made) {
      const steps = set!.slides.filter((s) => s.role === 'how-it-works');
      steps.forEach((s, i) => {
        const n = STEPS.findIndex((re) => re.test(s.headline));
        if (n !== i) wrong.push(`${label} s${s.index}: ${s.headline} // ${s.subheadline ?? ''}`);
      });
    }
    expect(wrong).toEqual([]);
  });

  it('numbers its steps one way and opens each on a capital', () => {
    const wrong: string[] = [];
    for (const { label, set } of made) {
      const heads = set!.slides.filter((s) => s.role === 'how-it-works').map((s) => s.headline);
      const frames = new Set(heads.map((h) => (/^step \d/i.test(h) ? 'step' : /^\d\./.test(h) ? 'number' : 'other')));
      if (frames.size > 1) wrong.push(`${label}: ${heads.join(' | ')}`);
      for (const h of heads) if (/^(?:[Ss]tep |STEP )?\d+[.:] \p{Ll}/u.test(h)) wrong.push(`${label}: ${h}`);
    }
    expect(wrong).toEqual([]);
  });
});

/** A step with a second verb on its object ("… and files it"), after a step said on its headline alone. */
const filing = listingOf({
  ...receipts,
  description: [
    'Slipwise turns a shoebox of receipts into tidy expense reports.',
    'Step 1: Snap the receipt',
    'Step 2: Slipwise reads the totals and files it',
    'Step 3: Send the report to your accountant',
    'Track mileage with GPS and split costs across projects.',
  ].join('\n'),
});

describe('a step with a second action keeps its turn and drops the tail', () => {
  const made = CAPTION_STYLE_IDS.flatMap((style) =>
    (['long'] as const).map((length) => ({
      label: `${style}/${length}`,
      set: plan(filing, style, length, { narrativeId: 'how-it-works' }),
    })),
  ).filter((x) => x.set !== null);

  it('is made in every long voice, step 2 on its headline, never a bare "files it" under it', () => {
    expect(made.map((m) => m.label)).toEqual(CAPTION_STYLE_IDS.map((s) => `${s}/long`));
    for (const { set } of made) {
      const steps = set!.slides.filter((s) => s.role === 'how-it-works');
      expect(steps.map((s) => STEPS.findIndex((re) => re.test(s.headline)))).toEqual([0, 1, 2]);
      expect(steps.map((s) => s.subheadline ?? '').filter((sub) => /^[\p{L}-]+ (it|them)\.?$/iu.test(sub))).toEqual([]);
    }
  });
});
