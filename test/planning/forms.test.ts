/** The extra listing forms the rule writer may try (src/captions/rules/forms.ts), on tuned listings only. */
import { describe, expect, it } from 'vitest';
import { cutForms, moreIdeas, participleForms } from '../../src/captions/rules/forms.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { screensFor } from '../../src/planning/screens.ts';
import { isProblem } from '../../src/core/problem.ts';
import { corpus } from './corpus/index.ts';
import { devicesFor } from './corpus/measure.ts';
import split from './corpus/split.json' with { type: 'json' };

const raw = (text: string) => ({ text, sentence: text, kind: 'sentence' as const });

describe('listing forms', () => {
  it('cut before an aside, never inside an idiom, a list or an opened clause', () => {
    expect(cutForms('Solve 10,000 puzzles sorted by theme')).toContain('Solve 10,000 puzzles');
    expect(cutForms('Analyse your games move by move with clear explanations')).not.toContain('Analyse your games move');
    expect(cutForms('Get alerts when items on your list go on sale')).not.toContain('Get alerts when items');
    expect(cutForms('Plan monthly budgets and see where your money goes')).not.toContain('Plan monthly budgets and see');
    expect(participleForms('Une liste de courses générée automatiquement', 'fr')).toEqual(['Une liste de courses']);
  });

  it('find the other ideas a sentence names, in its words', () => {
    const texts = (t: string, name = 'Nobody') => moreIdeas(raw(t), name).map((r) => r.text);
    expect(texts('Adjust light, colour and detail with curves and selective masks')).toContain('Curves and selective masks');
    expect(texts('Join small groups for walks, games and book clubs, chat before you meet, and see verified profiles only')).toEqual(
      expect.arrayContaining(['Chat before you meet', 'See verified profiles only']),
    );
    expect(texts('Alternate tunings and a metronome are included')).toContain('Alternate tunings and a metronome');
    expect(texts('Pulse gives you short, intense workouts you can do anywhere', 'Pulse')[0]).toBe(
      'Short, intense workouts you can do anywhere',
    );
    // Nothing that leans on a word outside it.
    expect(texts('Create a jar for each goal and watch it fill up')).not.toContain('Watch it fill up');
  });
});

describe('sets filled as asked', () => {
  it('at count 6, at most 1 in 4 tuned listings with screens is refused', { timeout: 60_000 }, () => {
    const held = new Set(split.heldOut);
    let listings = 0;
    let refused = 0;
    for (const e of corpus().filter((x) => !held.has(x.id))) {
      const device = devicesFor(e.listing)[0];
      if (screensFor([e.listing], device).urls.length === 0) continue;
      listings++;
      try {
        expect(planScreenshotSet({ listings: [e.listing], extraContext: null, request: { device, count: 6 } }).slides).toHaveLength(6);
      } catch (error) {
        if (!isProblem(error) || error.code !== 'cannot_fill_set') throw error;
        refused++;
      }
    }
    expect(refused / listings).toBeLessThanOrEqual(0.25);
  });
});
