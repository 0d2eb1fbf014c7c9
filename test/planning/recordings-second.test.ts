/**
 * The second recordings read's patterns (docs/reads/2026-11-29-recordings-second.md, "Top patterns"
 * 2 to 8; issue 33), on listings and lines written for this test: filler a subheadline seemed to
 * rescue, a label said instead of its bullet's action, the playful frames where they do not fit, a
 * manner adverb and an aside that end a whole phrase, true refusal messages, off-role lines, and
 * another device's feature.
 */
import { describe, expect, it } from 'vitest';
import { checkCaptions, type CaptionToCheck } from '../../src/captions/checker/check.ts';
import type { CaptionLength, CaptionStyle } from '../../src/core/set.ts';
import { planOrNull as plan } from './plan-or-null.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { listingOf } from './remaining-listings.ts';
import { offRole } from '../../src/captions/checker/selling.ts';
import { applyCase } from '../../src/captions/text.ts';

const findings = (
  l: ReturnType<typeof listingOf>,
  c: CaptionToCheck,
  captionStyle: CaptionStyle = 'playful',
  captionLength: CaptionLength = 'long',
) => checkCaptions([c], { listings: [l], extraContext: null, device: 'iphone-69', captionLength, captionStyle })[0].map((f) => f.id);

/** A tutoring marketplace whose description carries filler headings over audience lines. */
const tutors = listingOf({
  name: 'Tutorhub',
  category: 'Education',
  description: [
    'Tutorhub finds a tutor for every subject near you.',
    'Complete solutions',
    'For building a better school year.',
    'Book a lesson in two taps.',
    'Compare 3,000 tutors by price and rating.',
  ].join('\n\n'),
});

describe('filler is judged alone (pattern 2a)', () => {
  it('a "For …" subheadline does not rescue a filler headline', () => {
    expect(
      findings(tutors, { headline: 'Complete solutions!', subheadline: 'For building a better school year.', role: 'feature', index: 2 }),
    ).toContain('generic');
    expect(
      findings(tutors, {
        headline: 'Complete support!',
        subheadline: 'Great for weekends, holidays, or evenings.',
        role: 'feature',
        index: 2,
      }),
    ).toContain('generic');
  });

  it('a subheadline with an action and its object, a figure or a means still does', () => {
    for (const subheadline of ['Compare 3,000 tutors by price and rating.', 'With a reminder before every lesson.'])
      expect(findings(tutors, { headline: 'Save time!', subheadline, role: 'feature', index: 2 })).not.toContain('generic');
  });

  it('the rule writer never headlines filler, even with a line under it that has a figure', () => {
    const cart = listingOf({
      name: 'Cartly',
      category: 'Shopping',
      description: [
        'We help over 2 million families around the world plan their grocery runs with ease.',
        '=====\nYou really need this app if you know the value of:\n=====',
        '*  Time: a planned list saves minutes in every store',
        '*  Money: a list keeps you from buying twice',
        '=====\nApp features:\n=====',
        '*  AISLE ORDER. Sort your items by aisle with a colour for each one',
        '*  Share your lists with family',
      ].join('\n\n'),
    });
    for (const style of ['playful', 'professional', 'minimal', 'bold'] as const) {
      const set = plan(cart, style, 'long', { count: 3 });
      expect(set).not.toBeNull();
      expect(set!.slides.map((s) => s.headline).join(' | ')).not.toMatch(/really need/i);
    }
  });
});

/** A pantry app whose bullets open with a label in capitals, then the sentence that says what it does. */
const pantry = listingOf({
  name: 'Shelfwise',
  category: 'Food & Drink',
  subtitle: 'Your pantry, always stocked',
  description: [
    'App features:',
    '* SHELF SORTING. Sort your groceries by shelf with a colour for each one, and the app keeps them in order',
    '* PANTRY MEMORY. The items you enter are kept for quick entry next time',
    '* Scan receipts to restock',
  ].join('\n'),
});

describe('a labelled bullet is said by its action (pattern 2b)', () => {
  it('the sentence’s first whole action, not the label in capitals', () => {
    const set = plan(pantry, 'playful', 'short', { count: 3 });
    const heads = set?.slides.map((s) => s.headline) ?? [];
    expect(heads.some((h) => /^Sort your groceries by shelf/.test(h))).toBe(true);
    expect(heads.some((h) => /^Shelf sorting/i.test(h))).toBe(false);
  });

  it('the label where its sentence gives no action', () => {
    const set = plan(pantry, 'minimal', 'short', { count: 4 });
    expect(set?.slides.map((s) => s.headline)).toContain('Pantry memory');
  });
});

/** A receipts app: a pain said as gone, a spec-sheet bullet, a banner of stars. */
const receipts = listingOf({
  name: 'Slipbox',
  category: 'Finance',
  rating: 4.6,
  ratingCount: 5200,
  description: [
    '***** Loved by home owners in Finance and Lifestyle sections *****',
    'No more paper folders. Just snap every receipt and find it by shop or date.',
    '• Split view support in the app',
    '• Export receipts to PDF for your accountant',
    '• Sort receipts by project',
  ].join('\n\n'),
});

describe('the playful frames where they fit (pattern 3)', () => {
  const ids = (c: CaptionToCheck, style: CaptionStyle = 'playful', length: CaptionLength = 'short') => findings(receipts, c, style, length);

  it('"and counting" never after a rating; after a growing count it stands', () => {
    expect(ids({ headline: '4.6 stars and counting!', subheadline: null, role: 'social-proof', index: 4 })).toContain('frame');
    expect(ids({ headline: '5K+ ratings and counting!', subheadline: null, role: 'social-proof', index: 4 })).not.toContain('frame');
    for (const length of ['short', 'long'] as const) {
      const set = plan(receipts, 'playful', length, { count: 5 });
      expect(set?.slides.map((s) => s.headline).join(' | ')).not.toMatch(/stars? and counting/i);
    }
  });

  it('a problem slide asks no "No more X?"', () => {
    expect(ids({ headline: 'No more paper folders?', subheadline: null, role: 'problem', index: 1 })).toContain('frame');
    expect(ids({ headline: 'Tired of losing receipts?', subheadline: null, role: 'problem', index: 1 })).not.toContain('frame');
    for (const length of ['short', 'long'] as const) {
      const set = plan(receipts, 'playful', length, { narrativeId: 'problem-solution' });
      expect(set?.slides[0]?.headline ?? '').not.toMatch(/^no more .*\?$/i);
    }
  });

  it('no "!" on a label with no verb; a short noun phrase keeps it', () => {
    expect(ids({ headline: 'Split view support in the app!', subheadline: null, role: 'feature', index: 2 })).toContain('frame');
    expect(ids({ headline: 'Multiple receipt folders!', subheadline: null, role: 'feature', index: 2 })).not.toContain('frame');
    const heads = plan(receipts, 'playful', 'long', { count: 5 })?.slides.map((s) => s.headline) ?? [];
    expect(heads.filter((h) => /support/i.test(h) && h.endsWith('!'))).toEqual([]);
  });

  it('a trailing run of "*" is no part of a line', () => {
    expect(ids({ headline: 'Loved by home owners *', subheadline: null, role: 'feature', index: 2 })).toContain('style');
    const set = plan(receipts, 'playful', 'long', { count: 3 });
    expect(set?.slides.flatMap((s) => [s.headline, s.subheadline ?? '']).join(' | ')).not.toMatch(/\*/);
  });
});

/** A carpentry calculator whose lines open on manner adverbs and go on with asides. */
const framing = listingOf({
  name: 'Rafterly',
  category: 'Utilities',
  description: [
    'Quickly find rafter and beam sizes, as well as post spacing and board counts for a given roof span and pitch.',
    'Features include:',
    '- Accurately convert timber lengths between metric and imperial units',
    '- Earn handy badges such as site foreman for every finished job',
    '- Save your favourite roof plans',
  ].join('\n'),
});

describe('a manner adverb and an aside end a whole phrase (pattern 4a, 4b)', () => {
  const ids = (headline: string) => findings(framing, { headline, subheadline: null, role: 'feature', index: 2 }, 'minimal', 'short');

  it('the checker lets the opening adverb go and stops before "as well as", "such as"', () => {
    expect(ids('Convert timber lengths')).not.toContain('cut');
    expect(ids('Find rafter and beam sizes')).not.toContain('cut');
    expect(ids('Earn handy badges')).not.toContain('cut');
    // Inside the phrase it is still a cut.
    expect(ids('Find rafter and beam')).toContain('cut');
  });

  it('the rule writer says those forms where the whole line is over the length', () => {
    const heads = plan(framing, 'minimal', 'short', { count: 3 })?.slides.map((s) => s.headline) ?? [];
    expect(heads).toEqual(expect.arrayContaining(['Find rafter and beam sizes', 'Earn handy badges']));
  });
});

describe('off-role lines the O rules did not see (pattern 5)', () => {
  it.each([
    ['Classes begin every half hour', 'opening hours'],
    ['Open Tuesday through Sunday, noon to 9 PM', 'opening hours'],
    ['Heavy use of location services can shorten battery life', 'a disclaimer'],
    ["Une utilisation intensive du GPS peut réduire l'autonomie de la batterie", 'a disclaimer'],
    ["Cette application n'est pas affiliée au musée", 'a disclaimer'],
    ['What does Tutorhub offer you?', 'a heading question'],
    ['Why choose Tutorhub?', 'a heading question'],
  ])('"%s" is %s', (line, kind) => expect(offRole(line)).toBe(kind));

  it.each(['Book a lesson every week', 'Save battery with dark mode', 'Track your hours on every job'])('"%s" still sells', (line) =>
    expect(offRole(line)).toBeNull(),
  );

  it('the rule writer says no schedule and no heading question', () => {
    const gym = listingOf({
      name: 'Bouncepark',
      category: 'Entertainment',
      description: [
        'Bouncepark is an indoor park full of trampolines and foam pits.',
        'What does Bouncepark offer you?',
        'Classes begin every half hour.',
        'Book your jump time from your phone.',
        'Collect points on every visit.',
      ].join('\n\n'),
    });
    for (const style of ['professional', 'playful', 'minimal'] as const)
      for (const shape of [{ count: 3 }, { narrativeId: 'problem-solution' }]) {
        const words = plan(gym, style, 'long', shape)?.slides.flatMap((s) => [s.headline, s.subheadline ?? '']) ?? [];
        expect(words.join(' | ')).not.toMatch(/half hour|offer you/i);
      }
  });
});

describe('refusals say what is true of the lines (pattern 4c)', () => {
  const stairs = listingOf({
    name: 'Stairwise',
    category: 'Utilities',
    description: [
      'Stairwise is the easiest way to plan a staircase.',
      'Features include:',
      '- Calculate stringer lengths for any rise and run',
      '- Enter heights in mm, cm, inches or feet',
      '- Choose your preferred tread depth and nosing',
    ].join('\n'),
  });

  it('lines that pass but for the length are said to be over it, with the length that holds them', () => {
    expect(() =>
      planScreenshotSet({
        listings: [stairs],
        extraContext: null,
        uploadedScreens: 5,
        request: { device: 'iphone-69', captionStyle: 'minimal', captionLength: 'short', count: 8 },
      }),
    ).toThrow(/pass them but run \d+–\d+ characters, over a short headline's 30\. Ask for captionLength "long"/);
  });
});

describe('a verb stopped before its object is a cut (pattern 6)', () => {
  const puzzle = listingOf({
    name: 'Plankit',
    category: 'Games',
    description:
      'Lay planks across the river by dropping them in place.\nSometimes you need to test a few shapes before the bridge holds.\nEverything you need in one place.',
  });
  const ids = (headline: string) => findings(puzzle, { headline, subheadline: null, role: 'feature', index: 2 }, 'professional', 'short');

  it('"Sometimes you need." is cut; "Everything you need" has its object', () => {
    expect(ids('Sometimes you need.')).toContain('cut');
    expect(ids('Everything you need.')).not.toContain('cut');
  });
});

describe('title case left in a sentence-case voice (pattern 8)', () => {
  it('a function word the listing capitalises is lowered inside the line', () => {
    const proper = new Set(['the', 'month', 'puzzle']);
    expect(applyCase('Puzzle Pick of The Month', 'sentence', 'en', proper)).toBe('Puzzle pick of the Month');
    // The line's first word keeps its capital.
    expect(applyCase('The Month in puzzles', 'sentence', 'en', proper)).toBe('The Month in puzzles');
  });
});
