/**
 * Issue 33, the fourth and the second held-out reads (docs/reads/2026-11-28-*.md): a locale's own
 * punctuation and the seam between a headline and its subheadline. Each shape is a rule of the
 * checker, so a model's caption is judged the same, and of the rule writer, whose sets never say it.
 * Every listing is written here, in the shape the read found (not the held-out listings).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkCaptions, type CaptionToCheck } from '../../src/captions/checker/check.ts';
import { restatesHero, seamEcho } from '../../src/captions/checker/echo-pair.ts';
import { substance } from '../../src/captions/checker/complete.ts';
import { localePunctuation, punctuationFault } from '../../src/captions/checker/typography.ts';
import type { Listing } from '../../src/core/listing.ts';
import type { CaptionLength, CaptionStyle, ScreenshotSetResult } from '../../src/core/set.ts';
import { CAPTION_STYLE_IDS } from '../../src/core/set.ts';
import { coverageOf } from '../../src/rendering/cmap.ts';
import { FONT_SOURCES, fontFiles } from '../../src/rendering/fonts.ts';
import { breakPieces, wrap } from '../../src/rendering/text.ts';
import { devicesFor } from './corpus/measure.ts';
import { planOrNull as plan } from './plan-or-null.ts';
import { listingOf } from './remaining-listings.ts';

const findings = (l: Listing, style: CaptionStyle, length: CaptionLength, set: Partial<CaptionToCheck>[]) =>
  checkCaptions(
    set.map((c) => ({ headline: '', subheadline: null, role: 'feature' as const, ...c })),
    { listings: [l], extraContext: null, device: devicesFor(l)[0], captionLength: length, captionStyle: style },
  ).map((f) => f.map((x) => x.id));

const lines = (r: ScreenshotSetResult | null): string[] =>
  (r?.slides ?? []).flatMap((s) => [s.headline, s.subheadline ?? '']).filter((t) => t.length > 0);

/** A Spanish meditation app: its phrases are Spanish, the playful voice closes them with "!". */
const calm = listingOf({
  country: 'es',
  language: 'es',
  url: 'https://apps.apple.com/es/app/id1000000778',
  name: 'Sereno Diario',
  category: 'Salud y forma física',
  subtitle: 'Medita y descansa mejor',
  rating: 4.7,
  ratingCount: 5200,
  description: [
    'Sereno Diario te guía con meditaciones de 5 a 20 minutos.',
    '',
    '• Ejercicios de respiración contra el estrés',
    '• Recordatorios suaves para crear el hábito',
    '• Sonidos de lluvia para dormir',
    '• Diario de ánimo con gráficos semanales',
  ].join('\n'),
});

/** A French cooking app: its playful captions close with "!". */
const cuisine = listingOf({
  country: 'fr',
  language: 'fr',
  url: 'https://apps.apple.com/fr/app/id1000000778',
  name: 'Marmite Facile',
  category: 'Cuisine et boissons',
  subtitle: 'Des idées repas chaque jour',
  rating: 4.5,
  ratingCount: 3100,
  description: [
    'Marmite Facile vous aide à cuisiner de bons plats sans stress.',
    '',
    '• Des milliers de recettes testées par des chefs',
    '• Une liste de courses générée automatiquement',
    '• Le mode pas à pas pour cuisiner sans erreur',
    '• Vos favoris synchronisés sur tous vos appareils',
  ].join('\n'),
});

describe('Spanish opens what it closes (held-out read: calma-es, 11 slides)', () => {
  it('opens an exclamation and a question with their marks, each sentence its own', () => {
    expect(localePunctuation('Duerme mejor!', 'es')).toBe('¡Duerme mejor!');
    expect(localePunctuation('¿Te cuesta dormir?', 'es')).toBe('¿Te cuesta dormir?');
    expect(localePunctuation('Respira. Duerme mejor!', 'es')).toBe('Respira. ¡Duerme mejor!');
    expect(localePunctuation('Duerme mejor!', 'en')).toBe('Duerme mejor!');
  });

  it('the checker refuses a closing "!" or "?" with no opening mark in Spanish only', () => {
    expect(punctuationFault('Medita y duerme mejor!', 'es')).toMatch(/¡/);
    expect(punctuationFault('Te cuesta dormir?', 'es')).toMatch(/¿/);
    expect(punctuationFault('¡Medita y duerme mejor!', 'es')).toBeNull();
    expect(punctuationFault('Medita y duerme mejor.', 'es')).toBeNull();
    const [glued, opened] = findings(calm, 'playful', 'short', [
      { headline: 'Medita y descansa mejor!', role: 'hero' },
      { headline: '¡Sonidos de lluvia para dormir!' },
    ]);
    expect(glued).toContain('language');
    expect(opened).not.toContain('language');
  });

  it('the playful writer opens every exclamation it closes', () => {
    let closed = 0;
    for (const length of ['short', 'long'] as const) {
      const all = lines(plan(calm, 'playful', length, { count: 5 }));
      for (const t of all) if (/[!?]$/.test(t)) closed++;
      expect(all.filter((t) => punctuationFault(t, 'es') !== null)).toEqual([]);
    }
    expect(closed).toBeGreaterThan(0);
  });
});

describe('French spaces its high punctuation (fourth read: "Des idées repas chaque jour!")', () => {
  it('sets a narrow no-break space before "!", "?", ";" and a no-break one before ":"', () => {
    expect(localePunctuation('Des idées repas chaque jour!', 'fr')).toBe('Des idées repas chaque jour\u202F!');
    expect(localePunctuation('Des idées repas chaque jour !', 'fr')).toBe('Des idées repas chaque jour\u202F!');
    expect(localePunctuation('Marmite Facile: des idées', 'fr')).toBe('Marmite Facile\u00A0: des idées');
    expect(localePunctuation('Prêt à 10:30', 'fr')).toBe('Prêt à 10:30');
  });

  it('the checker refuses the glued form in French only', () => {
    expect(punctuationFault('Des idées repas chaque jour!', 'fr')).toMatch(/no-break/);
    expect(punctuationFault('Des idées repas chaque jour\u202F!', 'fr')).toBeNull();
    expect(punctuationFault('Des idées repas chaque jour!', 'en')).toBeNull();
    const [glued, spaced] = findings(cuisine, 'playful', 'short', [
      { headline: 'Des idées repas chaque jour!', role: 'hero' },
      { headline: 'Des milliers de recettes\u202F!' },
    ]);
    expect(glued).toContain('language');
    expect(spaced).not.toContain('language');
  });

  it('the playful writer spaces every "!" it writes', () => {
    let marks = 0;
    for (const style of CAPTION_STYLE_IDS) {
      const all = lines(plan(cuisine, style, 'short', { count: 5 }));
      marks += all.filter((t) => /[!?;:]/.test(t)).length;
      expect(all.filter((t) => punctuationFault(t, 'fr') !== null)).toEqual([]);
    }
    expect(marks).toBeGreaterThan(0);
  });

  it('the renderer draws U+202F and never breaks a line before the mark', () => {
    const latin = FONT_SOURCES.find((s) => s.family === 'sg-latin')!;
    for (const file of fontFiles(latin)) {
      const covers = coverageOf(readFileSync(file), file);
      for (const cp of [0x202f, 0x00a0, 0x00a1, 0x00bf]) expect(covers(cp), `${file} U+${cp.toString(16)}`).toBe(true);
    }
    const text = 'Des idées repas chaque jour\u202F!';
    // UAX #14: U+202F is GL, so no break opportunity falls between "jour" and "!".
    expect(breakPieces(text, 'fr').map((p) => p.piece)).not.toContain('jour\u202F');
    for (const width of [5, 8, 12, 20, 30]) {
      const wrapped = wrap(text, width, (s) => [...s].length, 'fr').lines;
      expect(
        wrapped.some((l) => l.trim() === '!' || l.startsWith('\u202F')),
        wrapped.join(' | '),
      ).toBe(false);
    }
  });
});

/** An arcade racer whose first sentence is a list of actions, its second opening on the list's last verb. */
const racer = listingOf({
  name: 'Neon Rush',
  category: 'Games',
  rating: 4.3,
  ratingCount: 52000,
  description: [
    'Drift, boost and race to the top!',
    'Race through neon cities in the fastest arcade racer on mobile!',
    '',
    '• 40 cars to unlock and tune',
    '• Weekly tournaments against players worldwide',
    '• One-thumb controls anyone can learn',
    '• Night and rain tracks with their own grip',
  ].join('\n'),
});

describe('the seam echo: a headline’s last word opening its subheadline (held-out read: nitro)', () => {
  it('the checker refuses it on the hero as on any slide, by stem, the app’s name aside', () => {
    expect(
      seamEcho('DRIFT, BOOST AND RACE.', 'Race through neon cities in the fastest arcade racer on mobile!', 'en', new Set()),
    ).not.toBeNull();
    expect(seamEcho('Smart reminders', 'Reminder that adapts to your day.', 'en', new Set())).not.toBeNull();
    expect(seamEcho('Get Neon Rush', 'Neon Rush is free to start.', 'en', new Set(['neon', 'rush']))).toBeNull();
    expect(seamEcho('Drift, boost and race', 'Through neon cities, fast.', 'en', new Set())).toBeNull();
    for (const style of ['bold', 'minimal'] as const) {
      const [hero, feature, fine] = findings(racer, style, 'long', [
        { headline: 'Drift, boost and race', subheadline: 'Race through neon cities in the fastest arcade racer on mobile', role: 'hero' },
        { headline: 'Weekly tournaments', subheadline: 'Tournaments against players worldwide' },
        { headline: 'One-thumb controls', subheadline: 'Anyone can learn them in a minute' },
      ]);
      expect(hero, style).toContain('echo');
      expect(feature, style).toContain('echo');
      expect(fine, style).not.toContain('echo');
    }
  });

  it('the writer chooses another subheadline, in every voice and story', () => {
    const seams: string[] = [];
    for (const style of CAPTION_STYLE_IDS)
      for (const shape of [{ count: 5 }, { narrative: 'benefits-first' as const }, { narrative: 'how-it-works' as const }])
        for (const s of plan(racer, style, 'long', shape)?.slides ?? [])
          if (s.subheadline && seamEcho(s.headline, s.subheadline, 'en', new Set(['neon', 'rush', 'games'])))
            seams.push(`${style}: ${s.headline} // ${s.subheadline}`);
    expect(seams).toEqual([]);
  });

  it('the checker refuses a "!" in the minimal and professional voices only', () => {
    const says = (style: CaptionStyle) =>
      findings(racer, style, 'long', [
        { headline: 'Drift, boost and race', subheadline: 'Through neon cities in the fastest arcade racer on mobile!', role: 'hero' },
      ])[0];
    expect(says('minimal')).toContain('style');
    expect(says('professional')).toContain('style');
    expect(says('playful')).not.toContain('style');
  });

  it('a voice that does not exclaim does not keep the listing’s "!"', () => {
    for (const style of ['professional', 'minimal', 'aso-expert', 'bold'] as const)
      for (const shape of [{ count: 5 }, { narrative: 'problem-solution' as const }]) {
        const r = plan(racer, style, 'long', shape);
        expect(r, style).not.toBeNull();
        expect(
          lines(r).filter((t) => t.endsWith('!')),
          style,
        ).toEqual([]);
      }
  });
});

/** A growth tracker whose subtitle hero tracks, and whose first bullet measures the same thing. */
const growth = listingOf({
  name: 'Little Sprout',
  category: 'Health & Fitness',
  subtitle: 'Track how your kids grow',
  rating: 4.6,
  ratingCount: 880,
  description: [
    'Log height and weight in seconds and see every child’s growth on one clear chart.',
    '',
    '• Measure your kids',
    '• Share charts with your pediatrician',
    '• Add photos to each measurement',
    '• Compare with WHO growth curves',
  ].join('\n'),
});

describe('a synonym of the hero’s verb (held-out read: sprout, 8 slides)', () => {
  const words = (t: string) => substance(t, 'en', new Set());
  const hero = (headline: string, sub: string) => ({
    headline: words(headline),
    whole: words(`${headline} ${sub}`),
    sentence: new Set<string>(),
  });

  it('counts track, measure, monitor, log and record as one verb against the hero', () => {
    const h = hero('Track how your kids grow', 'Every child on one clear chart.');
    expect(restatesHero(words('Measure your kids'), h)).not.toBeNull();
    expect(restatesHero(words('Monitor your kids'), h)).not.toBeNull();
    // A copywriter ships these: they name what is logged, or another thing recorded.
    expect(restatesHero(words('Log height and weight'), hero('Track growth', 'Every child on one clear chart.'))).toBeNull();
    expect(restatesHero(words('Record bedtime stories'), h)).toBeNull();
    const [, again, own] = findings(growth, 'minimal', 'short', [
      { headline: 'Track how your kids grow', role: 'hero' },
      { headline: 'Measure your kids' },
      { headline: 'Compare with WHO growth curves' },
    ]);
    expect(again).toContain('echo');
    expect(own).not.toContain('echo');
  });

  it('the writer puts another feature under the hero', () => {
    const restated: string[] = [];
    for (const style of CAPTION_STYLE_IDS)
      for (const length of ['short', 'long'] as const)
        for (const s of plan(growth, style, length, { count: 5 })?.slides ?? [])
          if (/measure your kids/i.test(s.headline)) restated.push(`${style}/${length}: ${s.headline}`);
    expect(restated).toEqual([]);
  });
});
