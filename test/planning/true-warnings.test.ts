/**
 * Issue 33, hw12: every warning true and saying what to do. Invented listings and captions (none of
 * the corpus's held-out sentences): a "names more" quote the set already says, the reason a long
 * slide stands on its headline alone, a count taken for a near miss, and the code review's points
 * on review questions and a brand of small words.
 */
import { describe, expect, it } from 'vitest';
import { checkCaptions, type CaptionToCheck, type CheckContext } from '../../src/captions/checker/check.ts';
import { cutPhrase } from '../../src/captions/checker/cut.ts';
import { sentenceWords } from '../../src/captions/checker/sentences.ts';
import { notAFeature } from '../../src/captions/clean.ts';
import { setSays, whyBare } from '../../src/planning/left-out.ts';
import { missingSubheadlinesWarning } from '../../src/planning/story.ts';
import { understand } from '../../src/captions/understand.ts';
import { emptyScreenshots, type Listing } from '../../src/core/listing.ts';

const listing = (over: Partial<Listing>): Listing => ({
  store: 'app-store',
  storeId: '1000000077',
  country: 'us',
  language: 'en',
  url: 'https://apps.apple.com/us/app/id1000000077',
  name: 'Shelfie',
  category: 'Books',
  categoryId: '6018',
  artworkUrl: 'https://cdn.example.com/icon-512.png',
  description: '',
  subtitle: null,
  developer: 'Example Ltd',
  rating: 4.7,
  ratingCount: 5200,
  price: 0,
  currency: 'USD',
  screenshots: emptyScreenshots(),
  ...over,
});
const ctx = (l: Listing, over: Partial<CheckContext> = {}): CheckContext => ({
  listings: [l],
  extraContext: null,
  device: 'iphone-69',
  captionLength: 'short',
  captionStyle: 'minimal',
  ...over,
});
const check = (l: Listing, slides: Partial<CaptionToCheck>[], over: Partial<CheckContext> = {}) =>
  checkCaptions(
    slides.map((s, i) => ({ headline: '', subheadline: null, role: i === 0 ? 'hero' : 'feature', ...s })),
    ctx(l, over),
  );

const shelfie = listing({
  description: [
    'Catalogue every book you own.',
    'Scan a barcode to add a book in a second.',
    'Lend books to friends and see who has them.',
    'Browse 40,000 reading lists made by librarians.',
    'Sort your shelves by genre or colour.',
  ].join('\n'),
});

describe('"names more" quotes only what the set does not say (hw12, 2a)', () => {
  const u = understand([shelfie], shelfie, null);
  it('a phrase a slide says over its headline and subheadline together is said', () => {
    const slides = [{ headline: 'The quickest way to lend books.', subheadline: 'To friends, and see who has them.' }];
    expect(setSays(slides, 'Lend books to friends', u)).toBe(true);
    // Another slide's words are not it.
    expect(setSays([{ headline: 'Sort your shelves.', subheadline: 'By genre or colour.' }], 'Lend books to friends', u)).toBe(false);
  });
});

describe('why a long slide has no subheadline, said true (hw12, 2b)', () => {
  const u = understand([shelfie], shelfie, null);
  const phrase = (start: string) => [...u.phrases, ...u.steps].find((p) => p.text.startsWith(start))?.text;

  it('names the rest of the slide’s own sentence when that is what was left', () => {
    const why = whyBare({ headline: 'Sort your shelves.', subheadline: null, phrase: phrase('Sort your shelves') }, u, [], 'feature');
    expect(why).toEqual({ why: 'rest', rest: 'by genre or colour' });
    expect(missingSubheadlinesWarning([3], why)).toMatch(/rest of its sentence in the listing \("by genre or colour"\)/);
  });

  it('a rest that lists another thing is no rest of this slide: the lines left are other features', () => {
    const l = listing({ description: 'Scan barcodes, lend books and track loans.\nSort your shelves by genre.' });
    const v = understand([l], l, null);
    const p = [...v.phrases].find((x) => x.text.startsWith('Scan barcodes'))?.text;
    const why = whyBare({ headline: 'Scan barcodes', subheadline: null, phrase: p }, v, ['Sort your shelves by genre'], 'feature');
    expect(why).toEqual({ why: 'other', line: 'Sort your shelves by genre' });
    expect(missingSubheadlinesWarning([2, 4], why)).toMatch(/^Slides 2 and 4 have .*\("Sort your shelves by genre"\) name another feature/);
    // So does one that goes on "and …": a second thing, not this slide's rest.
    const w = listing({ description: 'Due-date reminders and loan notes keep you organised.\nSort your shelves by genre.' });
    const x = understand([w], w, null);
    const q = x.phrases.find((y) => y.text === 'Due-date reminders')?.text;
    expect(q).toBeDefined();
    expect(whyBare({ headline: 'Due-date reminders', subheadline: null, phrase: q }, x, [], 'feature')).toEqual({ why: 'none' });
  });

  it('a rest another slide says is no line left for this one', () => {
    const l = listing({ description: 'Scan barcodes in the shop to compare prices nearby.\nSort your shelves by genre.' });
    const v = understand([l], l, null);
    const p = v.phrases.find((x) => x.sentence.startsWith('Scan barcodes'));
    const c = { headline: 'Scan barcodes in the shop', subheadline: null, phrase: p?.text };
    expect(whyBare(c, v, [], 'feature')).toEqual({ why: 'rest', rest: 'to compare prices nearby' });
    expect(whyBare(c, v, [], 'feature', [{ headline: 'Compare prices nearby', subheadline: null }])).toEqual({ why: 'none' });
  });

  it('says "no line left" only when there is none', () => {
    expect(whyBare({ headline: 'Get Shelfie', subheadline: null }, u, [], 'call-to-action')).toEqual({ why: 'none' });
    expect(missingSubheadlinesWarning([5])).toMatch(/no line left that adds to its headline/);
  });

  it('the checker lets an aside of where or how stand under the action its sentence began with', () => {
    const sentences = sentenceWords(['Export your notes to Markdown and PDF.', 'Offline access to every shelf.']);
    const frame = new Set<string>();
    expect(cutPhrase('To Markdown and PDF', sentences, frame, 'Export your notes')).toBeNull();
    // After a noun it only finishes it: "Offline access // To every shelf" stays a cut.
    expect(cutPhrase('To every shelf', sentences, frame, 'Offline access')).not.toBeNull();
    // And under another headline it starts mid-sentence.
    expect(cutPhrase('To Markdown and PDF', sentences, frame, 'Sort your shelves')).not.toBeNull();
  });
});

describe('a count is a thing of its own, not a near miss (hw12, 2c)', () => {
  it('"Browse 40,000 reading lists" is no part of a hero about reading lists said again', () => {
    const [, second] = check(shelfie, [{ headline: 'Reading lists for you' }, { headline: 'Browse 40,000 reading lists' }]);
    expect(second.filter((f) => f.id === 'repeat')).toEqual([]);
    // Without the count it is the hero again, one part of it.
    const [, again] = check(shelfie, [{ headline: 'Reading lists for you' }, { headline: 'Browse reading lists' }]);
    expect(again.map((f) => f.id)).toContain('repeat');
  });

  it('a count of things says more than the app’s name or category', () => {
    const books = listing({
      name: 'Shelfie Books',
      category: 'Books',
      description: 'Over 40,000 books to choose from.\nScan a barcode to add a book.',
    });
    const [, slide] = check(books, [{ headline: 'Scan a barcode to add a book' }, { headline: 'Over 40,000 books' }]);
    expect(slide.filter((f) => f.id === 'generic')).toEqual([]);
    const [, bare] = check(books, [{ headline: 'Scan a barcode to add a book' }, { headline: 'Shelfie Books' }]);
    expect(bare.map((f) => f.id)).toContain('generic');
  });
});

describe('code review: review questions and brands of small words (hw12, 2d)', () => {
  it('the listing reader and the checker agree: "Love reading?" may be a hook, "Enjoying Shelfie?" opens a review ask', () => {
    expect(notAFeature('Love reading?')).toBeNull();
    expect(notAFeature('Enjoying Shelfie?')).toBe('review request');
    expect(notAFeature('Like the app?')).toBe('review request');
    const ids = (headline: string, l = shelfie) => check(l, [{ headline, role: 'problem' }])[0].map((f) => f.id);
    expect(ids('Love reading?')).not.toContain('policy.review');
    expect(ids('Enjoying Shelfie?')).toContain('policy.review');
  });

  it('a name of small words is still the app’s name in a review question', () => {
    const myDay = listing({
      name: 'My Day: Journal',
      category: 'Lifestyle',
      description: 'Write a line about your day.\nAdd a photo to each entry.',
    });
    const toDo = listing({ name: 'To Do', category: 'Productivity', description: 'Make lists of what to do.\nTick tasks off as you go.' });
    const ids = (headline: string, l: Listing) => check(l, [{ headline, role: 'problem' }])[0].map((f) => f.id);
    expect(ids('Love My Day?', myDay)).toContain('policy.review');
    expect(ids('Enjoying To Do?', toDo)).toContain('policy.review');
  });

  it('the brand is the whole name before its tagline, not its first content word', () => {
    // "My Day": its first content word is "day", so "Day pages" of the listing's own noun phrase was
    // read as the app "My Day" doing something ("pages"). The brand is "my day", which it does not say.
    const sentences = sentenceWords(['Day pages keep your week tidy.', 'My Day pages your week.']);
    const frame = new Set(['my', 'day']);
    const name = new Set(['day']);
    expect(cutPhrase('Day pages', sentences, frame, undefined, 'en', name, ['my', 'day']) ?? '').not.toMatch(/says only that the app/);
    // The name said whole and its verb alone still says nothing: "My Day pages | your week".
    expect(cutPhrase('My Day pages', sentences, frame, undefined, 'en', name, ['my', 'day'])).toMatch(/says only that the app/);
  });
});
