/**
 * A long hero's subheadline does not say the headline again in the listing's sentence form (seventh
 * read, D): "Kindred: Join Small Groups // Kindred helps you make new friends…" (the name twice) and
 * "Learn, play and analyse chess // Play chess against…" (a sub opening on the headline's words).
 * On listings written for the test.
 */
import { describe, expect, it } from 'vitest';
import { CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import { opensOnHeadline, withoutNameLead } from '../../src/captions/rules/hero-restated.ts';
import { planOrNull as plan } from './plan-or-null.ts';
import { listingOf } from './remaining-listings.ts';

/** A club finder whose one line about itself opens on its name. */
const huddle = listingOf({
  name: 'Huddle: Sports Buddies',
  category: 'Social Networking',
  subtitle: null,
  rating: 4.2,
  ratingCount: 8800,
  description:
    'Huddle helps you meet people nearby who love the same sports. Join local clubs for runs, rides and climbs, chat before the first session, and see verified members only.',
});

/** A board game whose subtitle lists what its first sentence then says again. */
const goban = listingOf({
  name: 'Goban Master',
  category: 'Board',
  subtitle: 'Learn, play and review go',
  rating: 4.7,
  ratingCount: 6100,
  description: [
    'Play go against a patient engine that learns your style.',
    'Solve 3,000 life-and-death problems sorted by rank.',
    'Review your games stone by stone with plain hints.',
    'Study joseki with short guided lessons.',
    'No ads, no timers.',
  ].join('\n'),
});

describe('a hero’s sub says its headline again', () => {
  it('cuts the name and its frame off a line the app is the subject of', () => {
    expect(withoutNameLead('Huddle helps you meet people nearby.', 'Huddle')).toBe('Meet people nearby.');
    expect(withoutNameLead('Huddle lets you join clubs.', 'Huddle')).toBe('Join clubs.');
    expect(withoutNameLead('Meet people nearby with Huddle.', 'Huddle')).toBeNull();
  });

  it('knows a sub that opens on the headline’s words', () => {
    expect(opensOnHeadline('Learn, play and review go', 'Play go against a patient engine', 'en', new Set())).toBe(true);
    expect(opensOnHeadline('Learn, play and review go', 'Solve 3,000 problems sorted by rank', 'en', new Set())).toBe(false);
    expect(opensOnHeadline('Offline maps and turn-by-turn', 'Turn-by-turn navigation that works offline', 'en', new Set())).toBe(false);
  });

  it('a hero that names the app is not named again under it', () => {
    let named = 0;
    const again: string[] = [];
    for (const style of CAPTION_STYLE_IDS)
      for (const shape of [{ count: 3 }, { count: 4 }, { count: 5 }]) {
        const hero = plan(huddle, style, 'long', shape)?.slides[0];
        if (!hero || !/huddle/i.test(hero.headline) || !hero.subheadline) continue;
        named++;
        if (/huddle/i.test(hero.subheadline)) again.push(`${style}: ${hero.headline} // ${hero.subheadline}`);
      }
    expect(named).toBeGreaterThan(0);
    expect(again).toEqual([]);
  });

  it('no hero’s sub opens on the headline’s words', () => {
    let subs = 0;
    const again: string[] = [];
    for (const style of CAPTION_STYLE_IDS)
      for (const shape of [{ count: 4 }, { count: 5 }]) {
        const hero = plan(goban, style, 'long', shape)?.slides[0];
        if (!hero?.subheadline) continue;
        subs++;
        if (/^play go\b/i.test(hero.subheadline)) again.push(`${style}: ${hero.headline} // ${hero.subheadline}`);
      }
    expect(subs).toBeGreaterThan(0);
    expect(again).toEqual([]);
  });
});
