/**
 * A set of more than the default five slides never fills a slot by saying the hero again (one of its
 * line's halves, its slogan's rest) or by a purpose on a slide of its own: it is refused down to the
 * count the listing fills, and that count is true (issue 33, seventh held-out read: T ×5, D ×2 at
 * counts 7 and 8). At five slides or fewer the warned last resort stays (./hero-halves.test.ts).
 * On listings written for the test.
 */
import { describe, expect, it } from 'vitest';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { isProblem } from '../../src/core/problem.ts';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS, type PlanRequest } from '../../src/core/set.ts';
import type { Listing } from '../../src/core/listing.ts';
import { devicesFor } from './corpus/measure.ts';
import { listingOf } from './remaining-listings.ts';

/** A bird log: bullets under a lead-in, a summing-up line, and an action with what it is for. */
const birds = listingOf({
  name: 'Featherlog Birding',
  category: 'Reference',
  subtitle: 'Keep count of the birds you spot',
  rating: 4.5,
  ratingCount: 2300,
  description: [
    'Use Featherlog to:',
    '- Count your sightings',
    '- Compare with regional migration maps',
    '- Share lists with your birding club',
    '',
    'Log wingspan and weight in seconds and see every flock’s tally on one clear map.',
    'Add photos to each sighting to keep the morning.',
  ].join('\n'),
});

/** A game whose subtitle is a list of actions with a slogan's tail, and four bullets. */
const climber = listingOf({
  name: 'Summit Sprint',
  category: 'Games',
  subtitle: 'Jump, spin and climb to the summit',
  rating: 4.4,
  ratingCount: 52000,
  description: [
    'Dash across floating islands in the quickest platformer on mobile!',
    'FEATURES',
    '- 30 suits to collect and upgrade',
    '- Live duels against climbers worldwide',
    '- Monthly trials with rare badges',
    '- Tap controls anybody can master',
  ].join('\n'),
});

type Planned = { ok: true; headlines: string[]; warnings: string[] } | { ok: false; supported: number };

function planned(l: Listing, request: Partial<PlanRequest>): Planned {
  try {
    const r = planScreenshotSet({
      listings: [l],
      extraContext: null,
      uploadedScreens: 5,
      request: { device: devicesFor(l)[0], ...request },
    });
    return { ok: true, headlines: r.slides.map((s) => s.headline), warnings: r.warnings };
  } catch (error) {
    if (!isProblem(error) || error.code !== 'cannot_fill_set') throw error;
    return { ok: false, supported: Number(error.extensions.supported ?? 0) };
  }
}

const words = (t: string) => t.toLowerCase().match(/[a-z]+/g) ?? [];
const FRAME = new Set(['now', 'you', 'can', 'go', 'ahead', 'with', 'summit', 'sprint', 'featherlog', 'birding']);
/** Whether `head` says only some of the hero's words (the app's name and the voices' frames aside). */
const partOfHero = (hero: string, head: string) => {
  const own = words(head).filter((w) => !FRAME.has(w));
  const said = new Set(words(hero));
  return own.length > 0 && own.length < said.size && own.every((w) => said.has(w));
};

describe('a set over five slides', () => {
  it('shows no purpose on a slide of its own, and a refusal names a count that is made', () => {
    for (const captionStyle of CAPTION_STYLE_IDS)
      for (const captionLength of CAPTION_LENGTH_IDS)
        for (const count of [7, 8]) {
          const at = `${captionStyle}/${captionLength} count ${count}`;
          const r = planned(birds, { captionStyle, captionLength, count });
          if (r.ok) {
            expect(
              r.headlines.filter((h) => /keep the morning/i.test(h)),
              `${at}: ${r.headlines.join(' | ')}`,
            ).toEqual([]);
            continue;
          }
          expect(r.supported, at).toBeGreaterThan(0);
          expect(planned(birds, { captionStyle, captionLength, count: r.supported }).ok, `${at}: supports ${r.supported}`).toBe(true);
        }
  });

  it('never says a part of the hero’s line again, and a refusal names a count that is made', () => {
    for (const captionStyle of CAPTION_STYLE_IDS)
      for (const captionLength of CAPTION_LENGTH_IDS) {
        const at = `${captionStyle}/${captionLength} count 8`;
        const r = planned(climber, { captionStyle, captionLength, count: 8 });
        if (!r.ok) {
          expect(planned(climber, { captionStyle, captionLength, count: r.supported }).ok, `${at}: supports ${r.supported}`).toBe(true);
          continue;
        }
        const [hero, ...rest] = r.headlines;
        for (const h of rest) expect(partOfHero(hero, h), `${at}: ${hero} → ${h}`).toBe(false);
      }
  });

  it('still ships the warned halves at the default five, where refusing would refuse the default set', () => {
    const r = planned(climber, { count: 5 });
    expect(r.ok).toBe(true);
  });
});
