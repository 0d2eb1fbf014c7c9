/**
 * A review plea is no caption (seventh read, O: the ask's subheadline was the second sentence of a
 * review request, "It helps a small team a lot."). On a listing written for the test.
 */
import { describe, expect, it } from 'vitest';
import { understand } from '../../src/captions/understand.ts';
import { offRole } from '../../src/captions/checker/selling.ts';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import { planOrNull as plan } from './plan-or-null.ts';
import { listingOf } from './remaining-listings.ts';

/** A journal whose description closes on a review request and two sentences that go on asking. */
const journal = listingOf({
  name: 'Quillday Journal',
  category: 'Lifestyle',
  subtitle: null,
  rating: 4.7,
  ratingCount: 5400,
  description: [
    'Quillday Journal is the calmest place to write about your day.',
    '',
    '- Add photos and places to every entry',
    '- Lock your journal with Face ID',
    '- Find any memory with full-text search',
    '- Export your year as a printable book',
    '',
    'If you like Quillday, please consider a review on the App Store. It helps our tiny studio so much! Every single one is read by the two of us.',
    'Your feedback means the world to us.',
  ].join('\n'),
});

const PLEA = /tiny studio|every single one|feedback|the world to us|review/i;

describe('a review plea is never a caption candidate', () => {
  it('names the plea kinds a listing says after its features', () => {
    for (const line of [
      'It helps a small team a lot!',
      'Please leave a review if you can',
      'Rate us on the App Store',
      'Your feedback means everything',
      'Support an indie developer',
    ])
      expect(offRole(line), line).toBe('a review plea');
    // A feature that serves teams, or the store's ratings, is no plea.
    for (const line of ['Helps small teams stay in sync', '4.7 stars from 5K+ ratings', 'Help your kids learn to read'])
      expect(offRole(line), line).toBeNull();
  });

  it('takes no phrase from the request or the sentences that go on asking', () => {
    const u = understand([journal], journal, null);
    const said = [...u.phrases, ...(u.promise ? [u.promise] : [])].flatMap((p) => [p.text, p.sentence, ...p.cores]);
    expect(said.filter((t) => PLEA.test(t))).toEqual([]);
    // The features are still read.
    expect(said.some((t) => /full-text search/i.test(t))).toBe(true);
  });

  it('no voice says it, under the ask or anywhere', () => {
    const pleas: string[] = [];
    let sets = 0;
    for (const style of CAPTION_STYLE_IDS)
      for (const length of CAPTION_LENGTH_IDS)
        for (const shape of [{ count: 5 }, { count: 6 }, { narrativeId: 'problem-solution' as const }]) {
          const r = plan(journal, style, length, shape);
          if (r) sets++;
          for (const s of r?.slides ?? [])
            for (const line of [s.headline, s.subheadline ?? '']) if (PLEA.test(line)) pleas.push(`${style}/${length}: ${line}`);
        }
    expect(sets).toBeGreaterThan(0);
    expect(pleas).toEqual([]);
  });
});
