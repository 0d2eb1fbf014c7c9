/**
 * A clause cut after its verb, the object or complement left in the listing (recordings read,
 * docs/reads/2026-11-29-recordings.md, "Top 5 patterns" 1): real listings are prose, and the rule
 * writer stopped where the corpus's bullets never made it stop. Every sentence here is a look-alike
 * written for this test, not a recording's.
 */
import { describe, expect, it } from 'vitest';
import { danglingClause } from '../../src/captions/checker/dangling.ts';
import { cutAgainst, proseListing, slidesInEveryVoice } from './support/cut-prose.ts';

const PROSE = [
  'We help over 2 million home cooks plan their meals with ease.',
  'We provide you with a fresh list of local farms every week.',
  'Thousands of gardeners have planted millions of seeds with us.',
  'Charts are now shown for every station.',
  'The board is split into three columns for each stage of your work.',
  'If you are signed in to your account, your notes sync to every device.',
  'Each recipe comes with a shopping list.',
  'The saved songs are kept offline for your next flight.',
  'Every right answer brings you closer to the top of the league.',
  'Bring your sketches to life with layers and brushes.',
  'Everything you need for the garden.',
];
const cut = cutAgainst(PROSE);

describe('a clause stopped after its verb is a cut', () => {
  it.each([
    ['We help', 'whose object is left out'],
    ['We provide you', 'what is given is left out'],
    ['Thousands of gardeners have', 'needs its verb'],
    ['Charts are now', 'needs what it is'],
    ['The board is split', 'needs what follows it'],
    ['If you are signed', 'a condition with no main clause'],
    ['Each recipe comes', 'before what it needs'],
    ['The saved songs', 'stops before what the listing says of it'],
    ['Every right answer', 'stops before what the listing says of it'],
    ['Bring your sketches', 'needs where it brings its object'],
  ])('"%s"', (caption, why) => {
    expect(cut(caption) ?? '').toContain(why);
  });

  it('reads the caption alone too, without the listing', () => {
    expect(danglingClause('We help.', true)).not.toBeNull();
    expect(danglingClause('MILLIONS OF PLAYERS HAVE.', true)).not.toBeNull();
    expect(danglingClause('Is built for busy teams!', true)).not.toBeNull();
    expect(danglingClause('When the week gets busy', true)).not.toBeNull();
  });

  it.each([
    'Bring your sketches to life',
    'Plan your meals with ease',
    'Everything you need',
    'Each recipe comes with a shopping list',
    'Charts for every station',
    'Everything you have',
    'Here to help',
    'When the rain starts, get an alert',
  ])('keeps "%s" whole', (caption) => {
    expect(danglingClause(caption, true)).toBeNull();
  });

  it('lets a subheadline finish its headline with "when…"', () => {
    expect(danglingClause('When you close the app', false)).toBeNull();
  });
});

describe('the rule writer leaves such clauses out on a prose listing', () => {
  const DANGLING =
    /^(if|when|because|while|although)\b|\b(we help|provide you|gardeners have|are now|is split|recipe comes|the saved songs|every right answer|bring your sketches)[.!]?$/i;
  it('in every voice and length', () => {
    const headlines = slidesInEveryVoice(proseListing('Seedling: Garden Planner', PROSE)).map((s) => s.headline);
    // The listing is long enough to plan most sets: the read is not of refusals.
    expect(headlines.length).toBeGreaterThanOrEqual(20);
    expect(headlines.filter((h) => DANGLING.test(h))).toEqual([]);
  });
});
