/**
 * Issue 33, a copywriter's skim of the offline writer (`npm run plan:read -- --seed 1795854869
 * --sets 40`): each defect it found as a rule of the checker (a caption that says it is refused)
 * and of the rule writer (its sets never say it). The rules are about the shape of the language,
 * so the tests read the corpus listings the skim read.
 */
import { describe, expect, it } from 'vitest';
import { checkCaptions, type CaptionToCheck, type CheckContext } from '../../src/captions/checker/check.ts';
import { saysAgain } from '../../src/captions/checker/echo-pair.ts';
import { stem } from '../../src/captions/checker/complete.ts';
import type { CaptionLength, CaptionStyle, PlanRequest, ScreenshotSetResult } from '../../src/core/set.ts';
import { corpus } from './corpus/index.ts';
import { devicesFor } from './corpus/measure.ts';
import { planOrNull } from './plan-or-null.ts';
import { french, habitly } from './listings.ts';

const listing = (id: string) => {
  const e = corpus().find((x) => x.id === id);
  if (!e) throw new Error(`no corpus listing ${id}`);
  return e.listing;
};
const ctx = (id: string, captionStyle: CaptionStyle, captionLength: CaptionLength): CheckContext => ({
  listings: [listing(id)],
  extraContext: null,
  device: devicesFor(listing(id))[0],
  captionLength,
  captionStyle,
});
/** The finding ids of each slide of `set`. */
const findings = (id: string, style: CaptionStyle, length: CaptionLength, set: Partial<CaptionToCheck>[]) =>
  checkCaptions(
    set.map((c) => ({ headline: '', subheadline: null, role: 'feature' as const, ...c })),
    ctx(id, style, length),
  ).map((f) => f.map((x) => x.id));
/** The planned set, or null when refused. */
function plan(id: string, captionStyle: CaptionStyle, captionLength: CaptionLength, shape: Partial<PlanRequest>) {
  return planOrNull(listing(id), captionStyle, captionLength, shape);
}
const lines = (r: ScreenshotSetResult | null) => (r ? r.slides.map((s) => [s.headline, s.subheadline]) : []);

describe('echoes by stem (defect 1)', () => {
  it('maps a word’s inflections to one stem', () => {
    expect(new Set(['export', 'exports', 'exported', 'exporting'].map(stem)).size).toBe(1);
    expect(new Set(['drop', 'dropped', 'dropping', 'drops'].map(stem)).size).toBe(1);
    expect(new Set(['save', 'saved', 'saving'].map(stem)).size).toBe(1);
  });

  it('refuses a subheadline that says its headline’s action and object again', () => {
    expect(saysAgain('REPORTS. EXPORTED.', 'Export reports to CSV and PDF.', 'en', new Set())).not.toBeNull();
    expect(saysAgain('Export reports', 'To CSV and PDF.', 'en', new Set())).toBeNull();
    const [, recast] = findings('pennywise', 'bold', 'long', [
      { headline: 'BUDGETS AND BILLS.', subheadline: 'Pennywise turns your spending into a plan you can actually keep.', role: 'hero' },
      { headline: 'REPORTS. EXPORTED.', subheadline: 'Export reports to CSV and PDF.' },
    ]);
    expect(recast).toContain('echo');
  });

  it('refuses a recast that says another slide’s headline again', () => {
    const [, again] = findings('blockfall', 'bold', 'short', [
      { headline: 'DROP BLOCKS.', role: 'hero' },
      { headline: 'BLOCKS. DROPPED.' },
    ]);
    expect(again).toContain('repeat');
  });

  it('writes neither', () => {
    for (const r of [
      plan('pennywise', 'bold', 'long', { narrativeId: 'benefits-first' }),
      plan('blockfall', 'bold', 'short', { count: 8 }),
    ]) {
      expect(r).not.toBeNull();
      for (const [h, s] of lines(r)) if (s) expect(saysAgain(h!, s, 'en', new Set()), `${h} / ${s}`).toBeNull();
      const heads = lines(r).map(([h]) =>
        [
          ...new Set(
            h!
              .toLowerCase()
              .match(/\p{L}+/gu)!
              .map(stem),
          ),
        ]
          .sort()
          .join(' '),
      );
      expect(new Set(heads).size).toBe(heads.length);
    }
  });
});

describe('German cuts (defect 2)', () => {
  it('refuses a verb whose object was cut, and a verb-final tail away from its object', () => {
    const [hero, cut, tail, own] = findings('kraftwerk-de', 'bold', 'long', [
      { headline: 'DEIN TRAININGSPLAN.', subheadline: 'Für zu Hause.', role: 'hero' },
      { headline: 'KRAFTWERK ERSTELLT DIR.', role: 'benefit' },
      { headline: 'ÜBER 300 ÜBUNGEN MIT VIDEOANLEITUNG.', subheadline: 'Im Blick behalten.' },
      { headline: 'FORTSCHRITT UND REKORDE.', subheadline: 'Im Blick behalten.' },
    ]);
    expect(hero).toEqual([]);
    expect(cut).toContain('cut');
    expect(tail).toContain('cut');
    // Under the headline that says the sentence's start, the tail finishes it.
    expect(own).not.toContain('cut');
  });

  it('writes neither', () => {
    for (const style of ['bold', 'aso-expert'] as const)
      for (const narrativeId of ['benefits-first', 'how-it-works']) {
        const r = plan('kraftwerk-de', style, 'long', { narrativeId });
        for (const [h, s] of lines(r)) {
          expect(h).not.toMatch(/\bdir[.!]?$/i);
          if (s === 'Im Blick behalten.') expect(h).toMatch(/^fortschritt und rekorde/i);
        }
      }
  });
});

describe('name or category padding (defect 5)', () => {
  it('refuses a subheadline that is only the app’s name or category', () => {
    const [forkful] = findings('forkful', 'playful', 'long', [
      { headline: 'Cook something great tonight!', subheadline: 'With Forkful.', role: 'hero' },
    ]);
    expect(forkful).toContain('generic');
    const [kindred, feature] = findings('kindred', 'aso-expert', 'long', [
      { headline: 'Kindred: Make New Friends Nearby', subheadline: 'Social Networking.', role: 'hero' },
      { headline: 'Join Small Groups', subheadline: null },
    ]);
    expect(kindred).toContain('generic');
    expect(feature).toEqual([]);
  });

  it('writes none', () => {
    for (const [id, style] of [
      ['forkful', 'playful'],
      ['kindred', 'aso-expert'],
      ['cartwheel', 'playful'],
    ] as const)
      for (const shape of [{}, { narrativeId: 'problem-solution' }]) {
        const r = plan(id, style, 'long', shape);
        const names = new Set(`${r?.slides.length ? listing(id).name : ''} ${listing(id).category}`.toLowerCase().match(/\p{L}+/gu));
        for (const [, s] of lines(r))
          if (s)
            expect(
              (s.toLowerCase().match(/\p{L}{3,}/gu) ?? []).filter((w) => w !== 'with' && !names.has(w)),
              s,
            ).not.toEqual([]);
      }
  });
});

describe('a complement or a subject cut off (defect 6)', () => {
  it('refuses a verb without the "as" complement that gave it its sense, and a verb that lost its agreement', () => {
    const [, looks, whole] = findings('darkroom', 'minimal', 'short', [
      { headline: 'Edit RAW and ProRAW photos', role: 'hero' },
      { headline: 'Save your looks' },
      { headline: 'Curves and selective masks' },
    ]);
    expect(looks).toContain('cut');
    expect(whole).toEqual([]);
    const [, lane] = findings('routely', 'minimal', 'long', [
      {
        headline: 'Offline maps and turn-by-turn',
        subheadline: 'Routely gives you turn-by-turn navigation that works without a signal',
        role: 'hero',
      },
      { headline: 'Speed camera warnings', subheadline: 'Lane guidance keep you on track' },
    ]);
    expect(lane).toContain('cut');
  });

  it('writes neither', () => {
    for (const length of ['short', 'long'] as const) {
      for (const [h, s] of lines(plan('darkroom', 'minimal', length, { count: 5 })))
        expect(`${h} ${s ?? ''}`).not.toMatch(/save your looks\s*$/i);
      for (const [h, s] of lines(plan('routely', 'minimal', length, { narrativeId: 'how-it-works' })))
        expect(`${h} // ${s ?? ''}`).not.toMatch(/(?<!and )lane guidance keep\b/i);
    }
  });
});

describe('one list, one slide; lore is no feature (defects 3 and 4)', () => {
  it('refuses a second item of a list the listing says sentence by sentence, and a chapter of the story', () => {
    const [, knights, archers, guild, chapter] = findings('ironvale', 'minimal', 'short', [
      { headline: 'Raise an army', role: 'hero' },
      { headline: 'Recruit knights' },
      { headline: 'Recruit archers' },
      { headline: 'Join a guild' },
      { headline: 'Chapter 1 of the saga' },
    ]);
    expect(knights).toEqual([]);
    expect(archers).toContain('one-feature');
    expect(guild).toEqual([]);
    expect(chapter).toContain('off-role');
  });

  it('writes neither', () => {
    for (const [style, length] of [
      ['minimal', 'short'],
      ['aso-expert', 'short'],
      ['minimal', 'long'],
    ] as const) {
      const heads = lines(plan('ironvale', style, length, { count: 8 })).map(([h]) => h!);
      expect(heads.filter((h) => /^recruit\b/i.test(h)).length, heads.join(' | ')).toBeLessThanOrEqual(1);
      expect(heads.join(' | ')).not.toMatch(/chapter \d/i);
    }
  });
});

describe('a rating in words of the caption’s language (defect 8)', () => {
  it('says a long proof slide in German and French words, not symbols only', () => {
    for (const [id, words] of [
      // The count in the language's words, not English "5K+" (third held-out read, L).
      ['kraftwerk-de', /^4,6 von 5 Sternen.*\/\/ Über 5\.000 Bewertungen/],
      ['cuisine-fr', /sur 5 étoiles.*\/\/ Plus de \d[\d\u202f]* avis/],
    ] as const) {
      const proof = plan(id, 'minimal', 'long', { count: 5 })?.slides.find((s) => s.role === 'social-proof');
      expect(`${proof?.headline} // ${proof?.subheadline}`).toMatch(words);
      expect(
        findings(id, 'minimal', 'long', [
          { headline: proof!.headline, subheadline: proof!.subheadline, role: 'social-proof', index: 5 },
        ])[0],
      ).toEqual([]);
    }
  });
});

describe('the held-out read’s shapes, on listings of our own (hh-findings)', () => {
  const check = (listing: typeof habitly, set: Partial<CaptionToCheck>[], captionLength: CaptionLength = 'short') =>
    checkCaptions(
      set.map((c) => ({ headline: '', subheadline: null, role: 'feature' as const, ...c })),
      { listings: [listing], extraContext: null, device: 'iphone-69', captionLength, captionStyle: 'professional' },
    ).map((f) => f.map((x) => x.id));
  const own = {
    ...habitly,
    description: [
      habitly.description,
      'Bedtime tales read by calm narrators help you wind down.',
      'Habitly guides you with short daily check-ins.',
      'Daily challenges with streak rewards',
    ].join('\n'),
  };

  it('refuses a participle cut from its agent, and the app’s name and verb alone (T)', () => {
    const [tales, guides] = check(own, [{ headline: 'Bedtime tales read.' }, { headline: 'Habitly guides you.' }]);
    expect(tales).toContain('cut');
    expect(guides).toContain('cut');
    expect(check(own, [{ headline: 'Bedtime tales read by calm narrators.' }])[0]).not.toContain('cut');
  });

  it('refuses a Romance tail under a headline it never finished (T)', () => {
    const [, tail] = check(
      french,
      [
        {
          headline: 'Des idées repas chaque jour.',
          subheadline: 'Recettes Faciles vous aide à cuisiner de bons plats sans stress.',
          role: 'hero',
        },
        { headline: 'Des milliers de recettes.', subheadline: 'Sans erreur.' },
      ],
      'long',
    );
    expect(tail).toContain('cut');
  });

  it('refuses "ready when you are" on a thing that runs on a schedule (G)', () => {
    expect(check(own, [{ headline: 'Daily challenges, ready when you are.' }])[0]).toContain('frame');
  });
});
