/**
 * A line's purpose ("… to keep the memory") is what its action is for, not a feature: in a long set it
 * is said under its action, and a story with a proof slot to spare shows the rating rather than the
 * purpose on a slide of its own (issue 33, sixth held-out read, T). On a listing written for the test.
 */
import { describe, expect, it } from 'vitest';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import { planOrNull as plan } from './plan-or-null.ts';
import { listingOf } from './remaining-listings.ts';

/** A pet log: bullets under a lead-in, a summing-up line, and an action with what it is for. */
const pets = listingOf({
  name: 'Pawprint Pet Log',
  category: 'Lifestyle',
  subtitle: 'Keep tabs on how your pets grow',
  rating: 4.5,
  ratingCount: 1300,
  description: [
    'Use Pawprint to:',
    '- Weigh your pets',
    '- Compare with breed weight charts',
    '- Share logs with your vet',
    '',
    'Log meals and walks in seconds and see every pet’s health on one clear chart.',
    'Add photos to each walk to keep the memory.',
  ].join('\n'),
});

const SHAPES = [{}, { count: 3 }, { count: 8 }, { narrativeId: 'benefits-first' }, { narrativeId: 'problem-solution' }] as const;

describe('a purpose tail', () => {
  it('is said under its action in long sets, never as the next slide’s headline', () => {
    let under = 0;
    for (const style of CAPTION_STYLE_IDS)
      for (const shape of SHAPES) {
        const r = plan(pets, style, 'long', shape);
        const slides = r?.slides ?? [];
        for (const [i, s] of slides.entries()) {
          const at = `${style} ${JSON.stringify(shape)}: ${slides.map((x) => `${x.headline} // ${x.subheadline}`).join(' | ')}`;
          if (/add photos to each walk/i.test(s.headline) && /keep the memory/i.test(s.subheadline ?? '')) under++;
          // The purpose on its own slide right after its action says the action again, less.
          if (i > 0 && /keep the memory/i.test(s.headline)) expect(slides[i - 1].headline, at).not.toMatch(/add photos to each walk/i);
        }
      }
    expect(under).toBeGreaterThan(0);
  });

  it('gives way to the rating in a named story with no proof slide, in every voice and length', () => {
    let swapped = 0;
    for (const style of CAPTION_STYLE_IDS)
      for (const length of CAPTION_LENGTH_IDS) {
        const r = plan(sprouty, style, length, { narrativeId: 'benefits-first' });
        if (!r) continue;
        const alone = r.slides.filter((s) => /^(now you can |go ahead, )?hear the first word/i.test(s.headline));
        expect(alone, `${style}/${length}: ${r.slides.map((s) => s.headline).join(' | ')}`).toEqual([]);
        if (r.slides.some((s) => s.role === 'social-proof')) swapped++;
      }
    expect(swapped).toBeGreaterThan(0);
  });
});

/** A baby-words app one feature short of benefits-first: its last line is an action and what it is for. */
const sprouty = listingOf({
  name: 'Babble Book',
  category: 'Education',
  subtitle: 'Record how your baby talks',
  rating: 4.7,
  ratingCount: 640,
  description: [
    'Use Babble Book to:',
    '- Note new words',
    '- Compare with speech milestones',
    '- Send notes to your speech therapist',
    '',
    'Add recordings to each entry to hear the first word again.',
  ].join('\n'),
});
