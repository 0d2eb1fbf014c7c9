/**
 * The caption writer's ways of saying a phrase, on corpus listings whose copy once came out wrong:
 * each expectation is a caption a copywriter sent back, and what it reads now.
 */
import { describe, expect, it } from 'vitest';
import { doneForm } from '../../src/captions/rules/writer.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { checkCaptions } from '../../src/captions/checker/check.ts';
import { echoes, incompleteness } from '../../src/captions/checker/complete.ts';
import { CAPTION_STYLE_IDS, type CaptionLength, type CaptionStyle, type PlanRequest } from '../../src/core/set.ts';
import { corpus } from './corpus/index.ts';
import { planSupported } from './supported.ts';
import { everyVoice } from './support/every-voice.ts';
import { understand } from '../../src/captions/understand.ts';

function slides(app: string, captionStyle: CaptionStyle, captionLength: CaptionLength = 'long', extra: Partial<PlanRequest> = {}) {
  const listing = corpus().find((e) => e.id === app)!.listing;
  const device = listing.store === 'google-play' ? 'android-phone' : 'iphone-69';
  return (
    planSupported({ listings: [listing], extraContext: null, request: { device, captionStyle, captionLength, count: 4, ...extra } })
      ?.slides ?? []
  );
}
const pairs = (app: string, style: CaptionStyle) => slides(app, style).map((s) => `${s.headline} — ${s.subheadline}`);

describe('subheadlines that stand alone', () => {
  it('say the rest of a sentence only when it reads as a line of its own', () => {
    expect(pairs('darkroom', 'minimal')).toContain('Save your looks as presets — Apply them to a whole album at once');
    // (The hero is the subtitle now, "Adjust light, colour and detail…" whole under it: the rest stands on the next slide.)
    expect(pairs('darkroom', 'aso-expert')).toContain('Edit RAW and ProRAW Photos — With full-resolution precision.');
    expect(pairs('wayfarer', 'professional')).toContain('Offline access to every document. — On the road.');
    // Where it goes, under the action its sentence began with, is an aside of its own (checker/cut.ts,
    // fifth read: "EXPORT REPORTS." left "To CSV and PDF" unused and warned "no line left").
    expect(pairs('pennywise', 'minimal')).toContain('Export reports — To CSV and PDF');
    // An aside with a second action glued on is not one: the longer form leaves the action alone.
    // (Three slides: at four the listing's sentences run out and a long set headlines them instead.)
    const moneyjar = slides('moneyjar', 'minimal', 'long', { count: 3 }).map((s) => `${s.headline} — ${s.subheadline}`);
    expect(moneyjar).toContain('Create a jar for each goal — Watch it fill up');
    // The hero's promise said again under it is an echo, even mid-sentence.
    expect(pairs('streakly', 'minimal')[0]).toBe('Build good habits — Keep them, one day at a time');
    expect(echoes('Build good habits.', 'Streakly helps you build good habits and keep them.')).toBe(true);
    // No stutter: a headline framed "with {name}" is not followed by a "With …" line.
    expect(pairs('streakly', 'professional')).toContain('Track unlimited habits. — With a single tap.');
    expect(incompleteness('The fastest way', 'en')).not.toBeNull();
  });

  it('never open with a word that only finishes the headline, anywhere in the corpus', () => {
    // Every listing, in a voice rotated over the corpus (./support/every-voice.ts): every voice on a
    // fifth of the listings, 36 long sets of six instead of 180 (planned alone: 3.8 s of CPU instead of
    // 9.0); `npm run plan:full` plans every listing in every voice.
    const subs = everyVoice(corpus(), { lengths: ['long'] }).flatMap(({ item, captionStyle }) =>
      slides(item.id, captionStyle, 'long', { count: 6 }).map((s) => s.subheadline ?? ''),
    );
    expect(subs.filter((s) => /^(As|Of|And|Or) /.test(s))).toEqual([]);
    // Nor "To …", which only finishes the sentence its headline began.
    expect(subs.filter((s) => /^To every document/.test(s))).toEqual([]);
  });

  it('keep the preposition a relative clause ends on', () => {
    expect(pairs('wayfarer', 'minimal')).toContain('Share plans — With the people you travel with');
    expect(incompleteness('With the people you travel with.', 'en')).toBeNull();
  });

  it('take a store subtitle that says "no subscription" as the promise, not as an upsell', () => {
    const listing = corpus().find((e) => e.id === 'darkroom')!.listing;
    expect(understand([listing], listing, null).promise?.text).toMatch(/^Pro photo editing, no subscription$/i);
  });
});

describe('the bold voice', () => {
  it('says an imperative as its result where the object stands alone, never with a glued NOW', () => {
    expect(doneForm('Track unlimited habits', 'Track unlimited habits with a single tap')).toBe('Unlimited habits. Tracked');
    expect(doneForm('Write your story')).toBe('Your story. Written');
    // What follows is the phrase's sense, or the object is not one: no result form.
    expect(doneForm('Save your looks', 'Save your looks as presets')).toBeNull();
    expect(doneForm('Bring your imagination', 'Bring your imagination to life')).toBeNull();
    expect(doneForm('Take a photo')).toBeNull();
    expect(doneForm('Share them with friends')).toBeNull();
    expect(incompleteness('UNLIMITED HABITS. TRACKED.', 'en')).toBeNull();
    expect(incompleteness('Track habits. Now.', 'en')).not.toBeNull();
    // "GET STREAKLY NOW." is the call to action's own line, not a feature's.
    const bold = corpus().flatMap((e) =>
      slides(e.id, 'bold', 'short', { count: 6 })
        .filter((s) => s.role !== 'call-to-action')
        .map((s) => s.headline),
    );
    expect(bold.filter((h) => /\bNOW\.$/.test(h))).toEqual([]);
    expect(bold).toContain('UNLIMITED HABITS. TRACKED.');
  });
});

describe('calls to action', () => {
  it('fit a short headline with a two- or three-word name in every voice', () => {
    const set = slides('skycast', 'professional', 'short', { count: 6 });
    expect(set).toHaveLength(6);
    expect(set[5]).toMatchObject({ role: 'call-to-action', headline: 'Download Skycast Weather.' });
    // Wayfarer says five short slides whole ("Offline access" alone is cut before "to every document"): the ask is the last.
    expect(slides('wayfarer', 'professional', 'short', { count: 6 }).at(-1)).toMatchObject({ headline: 'Get Wayfarer Trip Planner.' });
    expect(slides('wayfarer', 'playful', 'short', { count: 6 }).at(-1)).toMatchObject({ headline: 'Try Wayfarer Trip Planner!' });
  });
});

describe('other languages', () => {
  it('cut a phrase before a preposition, never between a noun and its complement', () => {
    expect(pairs('cuisine-fr', 'minimal')).toContain('Vos favoris synchronisés — Sur tous vos appareils');
    expect(pairs('cuisine-fr', 'minimal').length).toBe(4);
    expect(slides('cuisine-fr', 'aso-expert').map((s) => s.headline)).not.toContain('Une Liste');
  });

  // kotoba-ja and calma-es are held out (./corpus/split.json): only properties, never their captions.
  it('plan held-out Japanese and Spanish listings from their own lines, whole, checked, as long as asked', () => {
    for (const app of ['kotoba-ja', 'calma-es']) {
      const listing = corpus().find((e) => e.id === app)!.listing;
      const own = [listing.name, listing.subtitle ?? '', listing.description].join('\n').replace(/\s+/g, ' ').toLowerCase();
      for (const captionStyle of CAPTION_STYLE_IDS) {
        const request = { device: 'iphone-69' as const, captionStyle, captionLength: 'short' as const, count: 4 };
        let set;
        try {
          set = planScreenshotSet({ listings: [listing], extraContext: null, request });
        } catch (error) {
          expect((error as { code?: string }).code, app).toBe('cannot_fill_set');
          continue;
        }
        expect(set.slides.length, app).toBe(4);
        const findings = checkCaptions(set.slides, { listings: [listing], extraContext: null, ...request });
        expect(findings.flat(), app).toEqual([]);
        for (const s of set.slides.filter((s) => s.role !== 'call-to-action' && s.role !== 'social-proof')) {
          // The listing's own words: a headline is a run of its text (case, end punctuation and Spanish opening marks aside).
          const bare = s.headline
            .replace(/[.!?。！]+$/u, '')
            .replace(/^[¡¿]/u, '')
            .toLowerCase();
          if (app === 'kotoba-ja') expect(/\.$/.test(s.headline), s.headline).toBe(false);
          expect(own.includes(bare.replace(/^[^:]+:\s*/, '')), `${app}: ${s.headline}`).toBe(true);
        }
      }
    }
  });

  it('fill a long Japanese set with headlines alone where the listing has no subheadline left, and refuse one it has no headlines for', () => {
    const listing = corpus().find((e) => e.id === 'kotoba-ja')!.listing;
    const long = (count: number) =>
      planScreenshotSet({ listings: [listing], extraContext: null, request: { device: 'iphone-69', captionLength: 'long', count } });
    const four = long(4);
    expect(four.slides).toHaveLength(4);
    expect(four.slides[0].subheadline).not.toBeNull();
    const bare = four.slides.flatMap((s) => (s.subheadline === null ? [s.index] : []));
    expect(bare.length).toBeGreaterThan(0);
    expect(four.warnings.filter((w) => /no subheadline/.test(w))).toHaveLength(1);
    expect(() => long(8)).toThrow(/supports \d slides?.*extraContext/);
  });
});
