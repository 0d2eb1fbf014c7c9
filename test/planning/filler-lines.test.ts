/**
 * Generic lines filling the slots cut lines left (recordings re-read,
 * docs/reads/2026-11-29-recordings-after.md, "Top 3 patterns left" 2, M 39): filler any app says of
 * itself, a bare ask on a feature slide, a heading with a praise word. Issue 33's rule: no generic
 * filler; refusing the set, and saying why, is better. The checker refuses them on every slide (so
 * the model writer is held to it too), and a refusal never names them as the "more" the listing
 * says. Look-alike lines written for this test.
 */
import { describe, expect, it } from 'vitest';
import { checkCaptions, type CaptionToCheck } from '../../src/captions/checker/check.ts';
import { substance } from '../../src/captions/checker/complete.ts';
import { fillerOnly } from '../../src/captions/checker/filler.ts';
import { askOf, offRole } from '../../src/captions/checker/selling.ts';
import { cutPhrase } from '../../src/captions/checker/cut.ts';
import { sentenceWords } from '../../src/captions/checker/sentences.ts';
import { nearMiss } from '../../src/captions/checker/findings.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { isProblem } from '../../src/core/problem.ts';
import { CAPTION_STYLE_IDS, type CaptionLength } from '../../src/core/set.ts';
import type { Role } from '../../src/core/narratives.ts';
import { habitly } from './listings.ts';

const filler = (text: string) => fillerOnly(substance(text, 'en', new Set()));

describe('filler any app says of itself', () => {
  it.each([
    'Innovative solutions',
    'Complete support',
    'Start your journey',
    'Streamline your workflow',
    'Get more done',
    'Fun for all ages',
    'You definitely need this app',
    'Keep this tool handy',
    'Save time',
    'Get up-to-date details',
  ])('"%s"', (line) => expect(filler(line)).toBe(true));

  it.each([
    'Save favourites',
    'Save on weekly groceries',
    'Full support for Apple Pencil',
    'Get more done with keyboard shortcuts',
    'Track time on every project',
    'Share your garden plans',
  ])('"%s" says what', (line) => expect(filler(line)).toBe(false));

  const listing = {
    ...habitly,
    name: 'Billfold',
    subtitle: null,
    description: ['Billfold shows every bill due this month.', 'Innovative solutions for your finances.', 'Fun for all ages.'].join('\n\n'),
  };
  const check = (c: CaptionToCheck, captionLength: CaptionLength = 'short') =>
    checkCaptions([{ headline: 'See every bill due this month', subheadline: null, role: 'hero' }, c], {
      listings: [listing],
      extraContext: null,
      device: 'iphone-69',
      captionLength,
      captionStyle: 'minimal',
    })[1];

  it('is a hard finding on any slide, never a near miss', () => {
    const found = check({ headline: 'Fun for all ages', subheadline: null, role: 'feature', index: 3 });
    expect(found.map((f) => f.id)).toContain('generic');
    expect(nearMiss(found, { role: 'feature', index: 3 })).toBe(false);
  });

  it('reads the subheadline with its headline', () => {
    const found = check({ headline: 'Save time', subheadline: 'With a reminder two days before a bill is due', role: 'feature' }, 'long');
    expect(found.filter((f) => f.message.includes('any app says'))).toEqual([]);
  });
});

describe('a bare ask is no feature', () => {
  it.each(['Download the app.', 'Dowload our app', 'Get this app now!', 'Come visit!', 'Come play', 'Go ahead, download the app!'])(
    '"%s"',
    (line) => expect(askOf(line)).toBe('an ask'),
  );
  it.each(['Download the app to earn points on every visit', 'Get more done', 'Come back to your notes'])('"%s" is no bare ask', (line) =>
    expect(askOf(line)).toBeNull(),
  );

  const check = (role: Role) =>
    checkCaptions([{ headline: 'Download the app', subheadline: null, role }], {
      listings: [habitly],
      extraContext: null,
      device: 'iphone-69',
      captionLength: 'short',
      captionStyle: 'minimal',
    })[0].filter((f) => f.id === 'off-role');
  it('off-role on a feature slide, not on the ask', () => {
    expect(check('feature')).not.toEqual([]);
    expect(check('call-to-action')).toEqual([]);
  });
});

describe('headings and a split modifier', () => {
  it.each(['ESSENTIAL FEATURES', 'Useful features', 'Important information'])('"%s" is a heading', (line) =>
    expect(offRole(line)).toBe('a heading'),
  );
  it('finds an adverb split from the participle it modifies', () => {
    const s = sentenceWords(['Open your recently added files in one tap.', 'Round up purchases automatically into savings.']);
    expect(cutPhrase('Open your recently', s, new Set()) ?? '').toContain('stops inside "recently added files"');
    expect(cutPhrase('Round up purchases automatically', s, new Set())).toBeNull();
  });
});

describe('the rule writer says a concrete line or refuses', () => {
  const listing = {
    ...habitly,
    name: 'Billfold',
    subtitle: null,
    description: [
      'Billfold shows every bill due this month.',
      'Innovative solutions.',
      'Fun for all ages.',
      'Start your journey.',
      'Snap a receipt to file it under the right bill.',
      'Get a reminder two days before a bill is due.',
      'Download the app.',
    ].join('\n\n'),
  };
  it('in every voice, and a refusal names no filler as "more"', () => {
    const heads: string[] = [];
    for (const captionStyle of CAPTION_STYLE_IDS)
      for (const count of [3, 5]) {
        try {
          const r = planScreenshotSet({
            listings: [listing],
            extraContext: null,
            request: { device: 'iphone-69', captionStyle, captionLength: 'short', count },
          });
          heads.push(...r.slides.filter((s) => s.role !== 'call-to-action').map((s) => s.headline));
        } catch (error) {
          if (!isProblem(error)) throw error;
          expect(error.detail).not.toMatch(/innovative|all ages|journey|download the app/i);
        }
      }
    expect(heads.length).toBeGreaterThan(0);
    expect(heads.filter((h) => /innovative|all ages|journey|download the app/i.test(h))).toEqual([]);
  });
});
