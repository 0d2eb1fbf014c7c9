/**
 * The cut clauses left after the recordings re-read (docs/reads/2026-11-29-recordings-after.md, "Top
 * 3 patterns left" 1), as shapes: an activity named before its verb, a gesture before its purpose, a
 * comparison before its second "as", a sentence's opening setting said as a headline, a verb before
 * the object it shares, an object list cut to its first thing, a word split from the complement it
 * needs, and a line that points back ("then", "same for"). The checker finds each (so the model
 * writer is held to it too), the whole phrase still passes, and the rule writer leaves the cut ones
 * out. Every sentence here is a look-alike written for this test, not a listing's.
 */
import { describe, expect, it } from 'vitest';
import { danglingClause } from '../../src/captions/checker/dangling.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { isProblem } from '../../src/core/problem.ts';
import { cutAgainst, proseListing, slidesInEveryVoice } from './support/cut-prose.ts';

const PROSE = [
  'Staying on top of your bills has never been easier.',
  'Swipe a card left to archive it.',
  'Drag and drop tasks to reschedule them.',
  'In “Gardens” you can add as many plants as you like to track their watering.',
  'In the winter league, every team plays twice a week.',
  'To have a recipe saved to your book, just tap the heart.',
  'Get a ping when neighbours like and share your garden tips.',
  'Post photos, recipes and shopping lists.',
  'Export to full-size PNG, SVG or PDF.',
  'Every finished puzzle brings you closer to the grand prize.',
  'Your membership card is your ticket to every gym in town.',
  'Immerse yourself in calm forest sounds.',
  'The app will then sort your receipts by store.',
  'Same for your warranties and manuals.',
  'Plan your week so you can easily share meals with family.',
  'Riding with friends is more fun than ever.',
  'Gardenly helps you connect with neighbours across town.',
  'Retouch portraits with smart brushes and layer masks.',
  'On weekdays, yoga classes start every hour and last 45 minutes.',
  'Gardenly helps you plan your beds and share your harvest.',
];
const cut = cutAgainst(PROSE);

describe('a phrase cut where it does not end is a cut', () => {
  it.each([
    ['Staying on top of your bills', 'names the activity'],
    ['Swipe a card left', 'says only the gesture'],
    ['Add as many plants', 'second "as"'],
    ['In the winter league', 'opens its sentence with'],
    ['To have a recipe saved', 'opens its sentence with'],
    ['Get a ping when neighbours like', 'shares what it acts on'],
    ['Post photos', 'inside the list of what "post" takes'],
    ['Every finished puzzle brings you closer', 'splits "closer"'],
    ['Your membership card is your ticket', 'splits "ticket"'],
    ['Immerse yourself', 'splits "immerse yourself"'],
    ['Friends is more fun than ever', 'starts mid-sentence'],
    ['Your membership card', 'names the subject'],
    ['Neighbours across town', 'starts mid-sentence'],
    ['Last 45 minutes', 'whose subject is "classes"'],
  ])('"%s"', (caption, why) => {
    expect(cut(caption) ?? '').toContain(why);
  });

  it('finds the complement split into a subheadline (call d)', () => {
    expect(cut('To the grand prize', 'Every finished puzzle brings you closer') ?? '').toContain('splits "closer"');
    expect(cut('In calm forest sounds', 'Immerse yourself') ?? '').toContain('splits "immerse yourself"');
  });

  it('reads a line that points back, alone', () => {
    expect(danglingClause('The app will then sort your receipts', true)).toContain('"then"');
    expect(danglingClause('Then share it', true)).toContain('"then"');
    expect(danglingClause('Same for your warranties', true)).toContain('"same"');
    // Under a headline "same for" still points past it; "then" may be the headline's next step.
    expect(danglingClause('Same for your warranties and manuals', false)).toContain('"same"');
    expect(danglingClause('Then share it with your team', false)).toBeNull();
  });

  it.each([
    'Swipe a card left to archive it',
    'Drag and drop tasks',
    'Add as many plants as you like',
    'Every team plays twice a week',
    'Post photos, recipes and shopping lists',
    'Export to full-size PNG',
    'Immerse yourself in calm forest sounds',
    'Easily share meals with family',
    'Riding with friends is more fun than ever',
    'Smart brushes and layer masks',
    'Share your harvest',
  ])('keeps "%s" whole', (caption) => {
    expect(cut(caption)).toBeNull();
  });

  it.each(['Scan, then share', 'Back then, maps were paper', 'Track it, and then relax', 'Sort receipts by store'])(
    'reads "%s" as its own line',
    (caption) => {
      expect(danglingClause(caption, true)).toBeNull();
    },
  );
});

describe('the rule writer leaves such phrases out on a prose listing', () => {
  const prose = proseListing('Gardenly: Home Organiser', PROSE);
  const CUT =
    /^(staying on top of your bills|swipe a card left|add as many plants|in the winter league|to have a recipe saved|get a ping when neighbours like|post photos|every finished puzzle brings you closer|your membership card( is your ticket)?|immerse yourself|friends is more fun than ever|same for\b|.*\bwill then\b)[.!]?$/i;
  it('in every voice and length', () => {
    const slides = slidesInEveryVoice(prose);
    const headlines = slides.map((s) => s.headline.replace(/^(go ahead|now you can),?\s+/i, ''));
    const subs = slides.map((s) => s.subheadline ?? '');
    expect(headlines.length).toBeGreaterThanOrEqual(20);
    expect(headlines.filter((h) => CUT.test(h))).toEqual([]);
    expect(subs.filter((s) => /^(same for|to the grand prize|in calm forest sounds)/i.test(s))).toEqual([]);
  });

  it('says an action after "you can easily…" as the listing does', () => {
    const r = planScreenshotSet({
      listings: [prose],
      extraContext: null,
      request: { device: 'iphone-69', captionStyle: 'minimal', captionLength: 'long', count: 8 },
    });
    const said = isProblem(r) ? [] : r.slides.map((s) => `${s.headline} ${s.subheadline ?? ''}`);
    expect(said.join('\n')).toMatch(/easily share meals with family/i);
  });
});

describe('the professional voice says a feature as the listing does', () => {
  it('never pads it with the app name', () => {
    const prose = proseListing('Gardenly: Home Organiser', PROSE);
    const r = planScreenshotSet({
      listings: [prose],
      extraContext: null,
      request: { device: 'iphone-69', captionStyle: 'professional', captionLength: 'short', count: 4 },
    });
    const features = r.slides.filter((s) => s.role !== 'call-to-action' && s.role !== 'hero').map((s) => s.headline);
    expect(features.length).toBeGreaterThan(0);
    expect(features.filter((h) => / with Gardenly/i.test(h))).toEqual([]);
  });
});
