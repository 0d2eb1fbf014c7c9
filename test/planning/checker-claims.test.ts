/**
 * Issue 33, item 3: the checker judges what a copywriter judges. A caption is grounded by its
 * claims (numbers, ratings, awards, platforms, named features), not by sharing the listing's exact
 * words; and the language, completeness, symbol and price rules refuse no caption a copywriter ships.
 */
import { describe, expect, it } from 'vitest';
import { checkCaptions, type CaptionToCheck, type CheckContext } from '../../src/captions/checker/check.ts';
import { leansOnPronoun } from '../../src/captions/checker/cut.ts';
import { habitly } from './listings.ts';

const ctx = (over: Partial<CheckContext> = {}): CheckContext => ({
  listings: [habitly],
  extraContext: null,
  device: 'iphone-69',
  captionLength: 'short',
  captionStyle: 'aso-expert',
  ...over,
});
const found = (headline: string, c: Partial<CaptionToCheck> = {}, x: Partial<CheckContext> = {}) =>
  checkCaptions([{ headline, subheadline: null, role: 'feature', ...c }], ctx(x))[0];
const ids = (headline: string, c: Partial<CaptionToCheck> = {}, x: Partial<CheckContext> = {}) => found(headline, c, x).map((f) => f.id);

describe('grounded: claims, not words', () => {
  it('passes a paraphrase in words the listing never uses', () => {
    // The listing says "Track unlimited habits with a single tap": none of these words but "habits".
    expect(ids('Log Any Habit in One Tap')).not.toContain('grounded');
    expect(ids('Never Lose Your Momentum Again')).not.toContain('grounded');
  });

  it('still refuses a number, an award, a platform or a feature the listing does not state', () => {
    expect(ids('Over 40 Habit Templates')).toContain('grounded');
    expect(ids('Award-Winning Habit Coach')).toContain('grounded');
    expect(ids('Your Habits on Your Mac')).toContain('grounded');
    expect(ids('Track Habits Offline')).toContain('grounded');
    expect(ids('A Dark Mode for Night Owls')).toContain('grounded');
    // What the listing does say stays grounded: "Sync across iPhone, iPad and Apple Watch".
    expect(ids('Habits Synced to Your Apple Watch')).not.toContain('grounded');
  });

  it('grounds a claim in extraContext or in the text read off a screen', () => {
    expect(ids('Track Habits Offline', {}, { extraContext: 'Works offline, no account needed.' })).not.toContain('grounded');
    expect(ids('40 Habit Templates', {}, { screenText: ['Templates', '40 habit templates'] })).not.toContain('grounded');
  });
});

describe('false positives a copywriter would ship', () => {
  const dartsListing = { ...habitly, name: 'Darts Scorer', description: 'Ten dart games in one app: 501, Cricket and more.' };

  it('reads "Ten dart games, one app!" as English', () => {
    expect(ids('Ten dart games, one app!', {}, { listings: [dartsListing] })).not.toContain('language');
    // A caption that is Polish still reads as Polish.
    expect(ids('Śledź nawyki, które są dla ciebie ważne, i nie tylko')).toContain('language');
  });

  it('finds lines ending on "is", "that" or "when" finished when their clause closes', () => {
    for (const h of ['Know Where Your Habits Are', 'See How Far You Are', 'Just Like That', 'You Decide When'])
      expect(
        found(h).filter((f) => f.id === 'complete'),
        h,
      ).toEqual([]);
    for (const h of ['Your Streak Is', 'Build Habits That', 'Get Reminded When']) expect(ids(h), h).toContain('complete');
  });

  it('reads the refusals of recorded model answers as the copywriter did: all of these ship', () => {
    const long = { captionLength: 'long' as const };
    const pass = (headline: string, subheadline: string | null, x: Partial<CheckContext> = {}, role: CaptionToCheck['role'] = 'feature') =>
      checkCaptions([{ headline, subheadline, role }], ctx(x))[0].map((f) => f.message);
    expect(pass('Everywhere you are', 'Sync across iPhone, iPad and Apple Watch with iCloud', long)).toEqual([]);
    const blocks = {
      ...habitly,
      name: 'Blockfall Puzzle',
      category: 'Games',
      description: 'OVER 500 HAND-MADE LEVELS. NO TIMERS, NO PRESSURE.',
    };
    expect(
      pass('So many levels to play!', 'Over 500 hand-made levels to work through.', {
        ...long,
        listings: [blocks],
        captionStyle: 'playful',
      }),
    ).toEqual([]);
    expect(
      pass('500 levels, all made by hand!', "Over 500 hand-made levels, so there's always another to try.", {
        ...long,
        listings: [blocks],
        captionStyle: 'playful',
      }),
    ).toEqual([]);
    const cuisine = {
      ...habitly,
      language: 'fr',
      name: 'Petite Cuisine',
      category: 'Cuisine et boissons',
      rating: 4.7,
      ratingCount: 2200,
      description: 'Petite Cuisine vous aide à cuisiner de bons plats sans stress. Le mode pas à pas pour cuisiner sans erreur.',
    };
    const fr = { ...long, listings: [cuisine], captionStyle: 'professional' as const };
    expect(pass('Cuisinez de bons plats sans stress.', 'Des idées repas pour chaque jour de la semaine.', fr, 'hero')).toEqual([]);
    expect(pass('Cuisinez sans erreur, pas à pas.', 'Le mode pas à pas vous guide à chaque étape.', fr, 'benefit')).toEqual([]);
    expect(pass('Une note moyenne de 4,7.', 'Sur plus de 2K avis laissés par des cuisiniers.', fr, 'social-proof')).toEqual([]);
    // A slide about widgets that says "one tap" does not repeat "One tap, one habit"; the same line twice still repeats.
    const two = (a: string, b: string) =>
      checkCaptions(
        [
          { headline: a, subheadline: null, role: 'feature' },
          { headline: 'Check in from your Home Screen', subheadline: b, role: 'feature' },
        ],
        ctx(long),
      )[1].map((f) => f.id);
    expect(two('One tap, one habit', 'Widgets make a check-in one tap away')).not.toContain('repeat');
    expect(ids('Swipe to learn')).toContain('complete');
  });

  it('reads the whole-phrase refusals of the recorded answers (2026-11-28 replay) as a copywriter does', () => {
    const long = { captionLength: 'long' as const, captionStyle: 'minimal' as const };
    const cut = (headline: string, subheadline: string | null, listing: typeof habitly, x: Partial<CheckContext> = {}) =>
      checkCaptions([{ headline, subheadline, role: 'benefit' }], ctx({ listings: [listing], ...x }))[0]
        .filter((f) => f.id === 'cut')
        .map((f) => f.message);
    // The sentence goes on "week by week": an adverb of time the phrase is whole without.
    const budget = {
      ...habitly,
      name: 'Pennywise Budget',
      description: '3. Watch your savings grow week by week\nTrack bills every month.',
    };
    expect(cut('Watch Your Savings Grow', null, budget)).toEqual([]);
    expect(cut('WATCH YOUR SAVINGS GROW.', 'Week by week, see the plan pay off.', budget, { ...long, captionStyle: 'bold' })).toEqual([]);
    expect(cut('Track Bills', null, budget)).toEqual([]);
    // "TaskForge is | a to-do list and planner…": what the app is, said as a noun phrase, stands.
    const tasks = {
      ...habitly,
      name: 'TaskForge: To-Do & Planner',
      description: 'TaskForge is a to-do list and planner for busy people.\nYour week is a mess without a plan.',
    };
    expect(cut('To-do lists that keep up with you', 'A to-do list and planner for busy people', tasks, long)).toEqual([]);
    // "Build good habits and keep them": the pronoun points at the habits the same line names.
    const habits = {
      ...habitly,
      name: 'Streakly: Habit Tracker',
      description:
        'Streakly helps you build good habits and keep them, one day at a time.\nCollect digital coupons and use them at checkout.',
    };
    expect(cut('Habits that last', 'Build good habits and keep them, one day at a time', habits, long)).toEqual([]);
    // "Get | reminders before bills are due": what the app gives, a noun phrase to the sentence's end.
    const bills = { ...habitly, name: 'Penny Wise', description: '• Get reminders before bills are due' };
    expect(cut('Reminders Before Bills Are Due', null, bills)).toEqual([]);
    // Still cut: a pronoun with nothing before it; a later part of a sentence that is not what the app is.
    expect(cut('Save at checkout', 'Use them at checkout', habits, long)).not.toEqual([]);
    // A name before a colon is a label, not what the pronoun points at.
    expect(leansOnPronoun('Lumen Darkroom: Apply Them')).not.toBeNull();
    expect(leansOnPronoun('Create a jar and watch it fill up')).toBeNull();
    expect(cut('A Mess Without a Plan', null, tasks)).not.toEqual([]);
  });

  it('lets Korean join words with a middle dot; a spaced dot in Latin script is still a bullet', () => {
    const korean = { ...habitly, language: 'ko', name: '해빗리', description: '운동·식단·수면 습관을 한 곳에서 기록하세요.' };
    expect(ids('운동·식단·수면 기록', {}, { listings: [korean] })).not.toContain('style');
    expect(ids('운동 · 식단 기록', {}, { listings: [korean] })).not.toContain('style');
    expect(ids('Habits · Goals · Streaks')).toContain('style');
  });

  it('reads a price as an amount of money, not the word', () => {
    const shop = { ...habitly, name: 'Pricey', description: 'Price shop with friends and compare prices in every store.' };
    expect(ids('Price shop with friends', {}, { listings: [shop] })).not.toContain('policy.price');
    expect(ids('Compare prices in every store', {}, { listings: [shop] })).not.toContain('policy.price');
    expect(ids('Premium for $4.99')).toContain('policy.price');
    expect(ids('50% off Premium')).toContain('policy.price');
  });
});
