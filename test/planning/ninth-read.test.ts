/**
 * The ninth read's patterns 10, 6 and 4 (issue 33), on listings and lines written for the test: a
 * voice's closing mark that alone takes a line over the limit, warnings that say "no line left" or
 * "another feature" while something is left, the app's name twice in a hero, and a hero's sub that
 * is half of an unrelated bullet.
 */
import { describe, expect, it } from 'vitest';
import { CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import type { Phrase } from '../../src/captions/understand.ts';
import { understand } from '../../src/captions/understand.ts';
import { inSpentLine } from '../../src/planning/refuse.ts';
import { leftUnsaid } from '../../src/planning/left-out.ts';
import { insteadOfFeatureWarning, missingSubheadlinesWarning, nearMissWarning } from '../../src/planning/story.ts';
import { planOrNull as plan } from './plan-or-null.ts';
import { listingOf } from './remaining-listings.ts';

/** A storage app with few lines: one of them exactly 30 characters, a short headline's limit. */
const drawers = listingOf({
  name: 'Tidybox',
  category: 'Productivity',
  subtitle: 'Know where everything is',
  rating: 4.5,
  ratingCount: 3400,
  description: ['• Pick a colour for every drawer', '• Label boxes in one tap', '• Find any item by photo'].join('\n'),
});

describe('a closing mark alone never costs a line (pattern 10a)', () => {
  it('the exclaiming voice says a 30-character line without its "!", the rest with it', () => {
    const set = plan(drawers, 'playful', 'short', { count: 5 });
    expect(set).not.toBeNull();
    const heads = set!.slides.map((s) => s.headline);
    expect(heads).toContain('Pick a colour for every drawer');
    expect(heads.every((h) => h.length <= 30)).toBe(true);
    // Only the line the mark would push over drops it.
    expect(heads.filter((h) => !/[!?]$/.test(h))).toEqual(['Pick a colour for every drawer']);
  });

  it('a voice ending in "." drops it the same way', () => {
    const set = plan(drawers, 'bold', 'short', { count: 5 });
    expect(set?.slides.map((s) => s.headline)).toContain('PICK A COLOUR FOR EVERY DRAWER');
  });
});

const phrase = (text: string, shape: Phrase['shape'], sentence = text): Phrase =>
  ({ text, cores: [], sentence, keywords: [], kind: 'action', shape, score: 0 }) as Phrase;

describe('warnings name what is left (pattern 10b)', () => {
  it('a thing cut off a spent action is that action’s rest, another action of its line a feature', () => {
    const phrases = [
      phrase('Clear space by removing old and blurry photos', 'imperative', 'Clear space by removing old and blurry photos.'),
      phrase('Clear space by removing old', 'imperative'),
      phrase('Blurry photos', 'noun'),
      phrase(
        'See tides hour by hour, get swell alerts and check the wind',
        'imperative',
        'See tides hour by hour, get swell alerts and check the wind.',
      ),
      phrase('See tides hour by hour', 'imperative'),
      phrase('Check the wind', 'imperative'),
    ];
    const rest = inSpentLine({ phrases }, new Set(['Clear space by removing old', 'See tides hour by hour']));
    expect(rest(phrases[2])).toBe(true);
    expect(rest(phrases[5])).toBe(false);
  });

  const tides = listingOf({
    name: 'Tideline',
    category: 'Weather',
    subtitle: 'Tides for weekend sailors',
    rating: 4.7,
    ratingCount: 2200,
    description: ['Tideline is a tide chart for weekend sailors.', '• Tide times for every harbour', '• Swell alerts before you sail'].join(
      '\n',
    ),
  });
  const u = understand([tides], tides, null);
  const said = (headline: string, subheadline: string | null = null, p?: string) => ({ headline, subheadline, phrase: p });

  it('finds the store’s rating when no slide quotes it, and a line no slide says', () => {
    const slides = [
      said('Tide times for every harbour', null, 'Tide times for every harbour'),
      said('Swell alerts', 'Before you sail.', 'Swell alerts before you sail'),
      said('Get Tideline'),
    ];
    const left = leftUnsaid(slides, u);
    expect(left.rating).toBe('4.7 from 2K+ ratings');
    expect(left.line).toMatch(/^Tideline is a tide chart/);
    // Quoted, the rating is not left ("4,7" as a comma language writes it too).
    expect(leftUnsaid([...slides, said('4,7 ★')], u).rating).toBeUndefined();
  });

  it('"no line left" only when nothing is', () => {
    const some = missingSubheadlinesWarning([6], { why: 'none', rating: '4.7 from 2.2K+ ratings' });
    expect(some).not.toMatch(/no line left/);
    expect(some).toMatch(/store's rating \(4\.7 from 2\.2K\+ ratings\) is said on no slide/);
    const both = missingSubheadlinesWarning([2, 3], { why: 'none', line: 'Tideline is a tide chart', rating: '4.7' });
    expect(both).toMatch(/^Slides 2 and 3 .*"Tideline is a tide chart" and the store's rating \(4\.7\) are said on no slide/);
    expect(missingSubheadlinesWarning([6], { why: 'none' })).toMatch(/no line left/);
  });

  it('a near miss says "nothing better" only when no feature is left', () => {
    expect(nearMissWarning(3, ['"Tide times" is weak'])).toMatch(/gives nothing better/);
    const left = nearMissWarning(3, ['"Tide times" is weak'], ['Swell alerts before you sail']);
    expect(left).not.toMatch(/nothing better/);
    expect(left).toMatch(/line left \("Swell alerts before you sail"\) could not be said/);
  });

  it('a line stopped by its length says so, not only that its stub echoes the hero', () => {
    const w = insteadOfFeatureWarning(5, 'proof', [], {
      phrase: 'Download charts for every coast in a few seconds',
      why: 'hero',
      form: 'Download Charts',
      tooLong: 'short',
    });
    expect(w).toMatch(/is too long for a short headline, and its shorter form \("Download Charts"\) says the hero's words again/);
    expect(insteadOfFeatureWarning(5, 'proof', [], { phrase: 'Download charts', why: 'hero' })).toMatch(
      /\("Download charts"\) says the hero's words/,
    );
  });
});

/** A planner whose line about itself opens on its name and says its subtitle's words again. */
const mealwise = listingOf({
  name: 'Mealwise',
  category: 'Food & Drink',
  subtitle: 'Meal plans for your month',
  rating: 4.3,
  ratingCount: 910,
  description: [
    'Mealwise turns your month into simple menus you can actually cook.',
    '• Swap dishes between days',
    '• Shopping lists by store aisle',
    '• Cook together with shared plans',
  ].join('\n'),
});

/** A baking app whose promise has no subtitle, and a bullet of two unrelated actions. */
const crumbly = listingOf({
  name: 'Crumbly Bakes',
  category: 'Food & Drink',
  subtitle: null,
  rating: 4.6,
  ratingCount: 5300,
  description: [
    'Bake something lovely tonight with Crumbly.',
    '• Hundreds of cakes tested by home bakers',
    '• Pantry lists sorted by shelf',
    '• Guided baking mode with oven timers',
    '• Save bakes and share the tray',
  ].join('\n'),
});

describe('heroes (patterns 6 and 4)', () => {
  it('a hero whose sub opens on the app’s name does not name it in its headline too', () => {
    const twice: string[] = [];
    let opened = 0;
    for (const style of CAPTION_STYLE_IDS)
      for (const shape of [{ count: 3 }, { count: 5 }, { narrativeId: 'problem-solution' as const }]) {
        const hero = plan(mealwise, style, 'long', shape)?.slides[0];
        if (!hero?.subheadline || !/^mealwise\b/i.test(hero.subheadline)) continue;
        opened++;
        if (/mealwise/i.test(hero.headline)) twice.push(`${style}: ${hero.headline} // ${hero.subheadline}`);
      }
    expect(opened).toBeGreaterThan(0);
    expect(twice).toEqual([]);
  });

  it('a hero’s sub is never one action of a two-action bullet', () => {
    const halves: string[] = [];
    let subs = 0;
    for (const style of CAPTION_STYLE_IDS)
      for (const shape of [{ count: 4 }, { count: 5 }, { narrativeId: 'how-it-works' as const }]) {
        const hero = plan(crumbly, style, 'long', shape)?.slides[0];
        if (!hero?.subheadline) continue;
        subs++;
        if (/^(save bakes|share the tray)\.?$/i.test(hero.subheadline)) halves.push(`${style}: ${hero.headline} // ${hero.subheadline}`);
      }
    expect(subs).toBeGreaterThan(0);
    expect(halves).toEqual([]);
  });
});
