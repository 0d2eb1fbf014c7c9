/**
 * The three shapes of cut caption the second read of 2026-11-28 found (docs/reads/2026-11-28-second.md,
 * "What the read says", item 1), each verbatim: the checker finds them (so the model path is judged by
 * the same rule) and the rule writer no longer writes them. Whole captions of the same listings, and
 * the house's known good ones, still pass.
 */
import { describe, expect, it } from 'vitest';
import { checkCaptions, type CaptionToCheck } from '../../src/captions/checker/check.ts';
import { cutPhrase } from '../../src/captions/checker/cut.ts';
import { sentenceWords } from '../../src/captions/checker/sentences.ts';
import { understand } from '../../src/captions/understand.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import type { CaptionLength, CaptionStyle, PlanRequest } from '../../src/core/set.ts';
import type { Role } from '../../src/core/narratives.ts';
import { corpus } from './corpus/index.ts';
import { devicesFor } from './corpus/measure.ts';

const listing = (id: string) => corpus().find((e) => e.id === id)!.listing;

/** The checker's cut findings on one caption, in the set's voice and length, as the job runs it. */
function cutFindings(id: string, style: CaptionStyle, length: CaptionLength, headline: string, sub: string | null = null): string[] {
  const l = listing(id);
  const caption: CaptionToCheck = { headline, subheadline: sub, role: 'feature' as Role };
  const [found] = checkCaptions([caption], {
    listings: [l],
    extraContext: null,
    device: devicesFor(l)[0],
    captionLength: length,
    captionStyle: style,
  });
  return found.filter((f) => f.id === 'cut').map((f) => f.message);
}

describe('the checker finds the cuts the reader found', () => {
  it.each([
    // (a) a noun compound cut at its modifier: "block | puzzle".
    ['blockfall', 'bold', 'short', 'THE MOST RELAXING BLOCK.', null, 'stops before "puzzle"'],
    ['blockfall', 'playful', 'short', 'The most relaxing block!', null, 'stops before "puzzle"'],
    // (b) a verb stopped before the place or scope it needs, and the bold voice's recast of one.
    ['filebox', 'minimal', 'short', 'FileBox shows everything', null, 'before what it covers'],
    ['scanly', 'minimal', 'short', 'Point your camera', null, 'needs the place'],
    ['scanly', 'bold', 'long', 'YOUR CAMERA. POINTED.', null, 'recasts "point your camera"'],
    // (c) French cut after the head noun, or an agent said apart from its participle.
    ['cuisine-fr', 'playful', 'short', 'Le mode!', null, 'stops before "pas"'],
    ['cuisine-fr', 'playful', 'short', 'Une liste de courses!', null, 'stops before "générée"'],
    ['cuisine-fr', 'playful', 'long', 'Des milliers de recettes testées!', 'Par des chefs.', 'starts on "par"'],
  ] as const)('%s %s/%s: "%s" / %s', (id, style, length, headline, sub, why) => {
    expect(cutFindings(id, style, length, headline, sub).join('\n')).toContain(why);
  });

  it.each([
    ['blockfall', 'professional', 'long', 'The most relaxing block puzzle.'],
    ['blockfall', 'bold', 'short', 'DROP BLOCKS.'],
    ['filebox', 'minimal', 'short', 'FileBox shows everything on your phone'],
    ['filebox', 'minimal', 'short', 'Send files'],
    ['scanly', 'minimal', 'short', 'Point your camera at a page'],
    ['scanly', 'minimal', 'short', 'Scan documents'],
    ['cuisine-fr', 'playful', 'short', 'Le mode pas à pas!'],
    ['cuisine-fr', 'playful', 'short', 'Des milliers de recettes!'],
    ['cuisine-fr', 'playful', 'short', 'Des milliers de recettes testées!'],
    ['cuisine-fr', 'playful', 'short', 'Vos favoris synchronisés!'],
    ['cuisine-fr', 'professional', 'short', 'Une liste de courses générée automatiquement.'],
  ] as const)('%s %s/%s: passes the whole "%s"', (id, style, length, headline) => {
    expect(cutFindings(id, style, length, headline)).toEqual([]);
  });

  it('passes whole captions of other listings: a compound, a recast, a place the phrase does without', () => {
    const sentences = sentenceWords([
      'Track unlimited habits with a single tap.',
      'Scan receipts with your camera.',
      'Smart reminders that adapt to your schedule.',
      'Speed camera warnings and lane guidance keep you on track.',
      'Block puzzle games for everyone.',
      'Le mode pas à pas pour cuisiner sans erreur.',
    ]);
    const frame = new Set(['with', 'now', 'you', 'can']);
    for (const text of [
      'Track Unlimited Habits',
      'Unlimited habits. Tracked.',
      'Scan receipts with your camera',
      'Scan receipts',
      'Smart reminders',
      'Lane guidance',
      'Block puzzle games',
    ])
      expect(cutPhrase(text, sentences, frame), text).toBeNull();
    expect(cutPhrase('Le mode pas à pas', sentences, frame, undefined, 'fr')).toBeNull();
  });
});

describe('the rule writer ends its forms where the phrase does', () => {
  it('offers no cut core of the reader’s listings, and keeps the whole shorter ones', () => {
    const cores = (id: string) => {
      const u = understand([listing(id)], listing(id), null);
      return [u.promise, ...u.phrases, ...u.steps].flatMap((p) => p?.cores ?? []);
    };
    const blockfall = cores('blockfall').map((c) => c.toLowerCase());
    expect(blockfall).not.toContain('the most relaxing block');
    expect(blockfall).toContain('the most relaxing block puzzle');
    expect(cores('filebox')).not.toContain('FileBox shows everything');
    expect(cores('scanly')).not.toContain('Point your camera');
    const cuisine = cores('cuisine-fr');
    expect(cuisine).not.toContain('Le mode');
    expect(cuisine).not.toContain('Une liste de courses');
    expect(cuisine).toContain('Le mode pas à pas');
  });

  const CUT =
    /^(the most relaxing block[.!]?|filebox shows everything|point your camera|your camera\. pointed\.|le mode!?|une liste de courses!?|par des chefs\.)$/i;
  it.each([
    ['blockfall', 'playful', 'short', { count: 5 }],
    ['blockfall', 'bold', 'short', { count: 8 }],
    ['filebox', 'minimal', 'short', { narrativeId: 'problem-solution' }],
    ['scanly', 'minimal', 'short', { count: 5 }],
    ['scanly', 'bold', 'long', { count: 5 }],
    ['cuisine-fr', 'playful', 'short', { count: 5 }],
    ['cuisine-fr', 'playful', 'long', { narrativeId: 'how-it-works' }],
  ] as const)('%s %s/%s %j: no cut caption, and none the checker calls cut', (id, captionStyle, captionLength, shape) => {
    const l = listing(id);
    const request: PlanRequest = { device: devicesFor(l)[0], captionStyle, captionLength, ...shape };
    const r = planScreenshotSet({ listings: [l], extraContext: null, uploadedScreens: 5, request });
    for (const s of r.slides) {
      expect(s.headline).not.toMatch(CUT);
      expect(s.subheadline ?? '').not.toMatch(CUT);
    }
    const found = checkCaptions(
      r.slides.map((s) => ({ headline: s.headline, subheadline: s.subheadline, role: s.role })),
      { listings: [l], extraContext: null, device: request.device, captionLength, captionStyle },
    );
    expect(found.flat().filter((f) => f.id === 'cut')).toEqual([]);
  });
});
