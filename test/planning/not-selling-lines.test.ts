/**
 * Lines of a real listing that are not selling points (recordings read,
 * docs/reads/2026-11-29-recordings.md, "Top 5 patterns" 2): disclaimers, press quotes and their
 * outlets, release notes, template tags, headings with their audience, numbered items and opening
 * hours. Every line here is a look-alike written for this test, not a recording's.
 */
import { describe, expect, it } from 'vitest';
import { offRole } from '../../src/captions/checker/selling.ts';
import { understand } from '../../src/captions/understand.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { isProblem } from '../../src/core/problem.ts';
import { CAPTION_STYLE_IDS, type CaptionLength } from '../../src/core/set.ts';
import { habitly } from './listings.ts';

describe('offRole names the lines that do not sell', () => {
  it.each([
    ['This app does not represent any city council or public agency.', 'a disclaimer'],
    ['Keeping location on in the background can reduce the life of your battery.', 'a disclaimer'],
    ['Read our privacy policy and terms of service in the legal section.', 'a disclaimer'],
    ['The Morning Ledger: "A delight to use every day."', 'a press quote'],
    ['"Simply the tidiest notes app around." — Daily Gadget', 'a press quote'],
    ['Improved widget sync', 'a release note'],
    ['Bug fixes and performance improvements', 'a release note'],
    ['Version 3.2 brings a new look', 'a release note'],
    ['[:build: 3.1]', 'a template tag'],
    ['build: 3.1', 'a template tag'],
    ['Key Features for Home Cooks', 'a heading'],
    ['Pantry Pal: Key Features', 'a heading'],
    ['Open Tuesday through Sunday, 9 AM to 6 PM', 'opening hours'],
    ['See you soon!', 'a greeting'],
  ])('"%s" is %s', (line, kind) => {
    expect(offRole(line)).toBe(kind);
  });

  it.each([
    'Long battery life on every trip',
    'Improve your sleep in two weeks',
    'Featured by the App Store',
    'Plan meals for the whole family',
    'Smart reminders for every plant',
    'Open any file in one tap',
    'Timer: set it and forget it',
  ])('"%s" may sell', (line) => {
    expect(offRole(line)).toBeNull();
  });
});

const pantry = {
  ...habitly,
  name: 'Pantry Pal',
  subtitle: null,
  description: [
    'Pantry Pal keeps your kitchen stocked without the guesswork.',
    '',
    'Key Features for Home Cooks',
    '1- Scan groceries as you unpack them',
    '2- Get a shopping list from what runs low',
    '3- Share the list with everyone at home',
    '',
    'The Morning Ledger: "A delight to use every day."',
    '',
    'Daily Gadget: "Pantry Pal is the tidiest kitchen app we have tried."',
    '',
    'This app does not represent any grocery chain or food brand.',
    'Improved barcode scanning',
    '[:build: 3.1]',
  ].join('\n'),
};

describe('the listing reader and the rule writer leave them out', () => {
  it('reads numbered items without their numbers, and no quote, note or tag as a phrase', () => {
    const u = understand([pantry], pantry, null);
    const texts = [u.promise, ...u.phrases, ...u.steps].filter((p) => p !== null).map((p) => p.text);
    expect(texts).toContain('Scan groceries as you unpack them');
    expect(texts.join('\n')).not.toMatch(/^\d+\s*-|Ledger|Gadget|tidiest|does not represent|Improved|build|Key Features/im);
  });

  it('in every voice and length', () => {
    const lines: string[] = [];
    for (const captionStyle of CAPTION_STYLE_IDS)
      for (const captionLength of ['short', 'long'] as CaptionLength[]) {
        const r = planScreenshotSet({
          listings: [pantry],
          extraContext: null,
          request: { device: 'iphone-69', captionStyle, captionLength, count: 3 },
        });
        if (!isProblem(r)) lines.push(...r.slides.flatMap((s) => [s.headline, s.subheadline ?? '']));
      }
    expect(lines.length).toBeGreaterThanOrEqual(20);
    expect(lines.filter((l) => /^\d+\s*-|ledger|gadget|tidiest|does not represent|improved|build|key features/i.test(l))).toEqual([]);
  });
});
