/**
 * The "Done when" for the rule writer (no model), measured with a judge that is not the
 * writer's own: the independent oracle of ./corpus/independent.ts shares no code with the checker.
 * And the held-out split is checked to be a real one: ids the corpus has, no app in both parts,
 * no held-out sentence quoted in the planner's source (a one-example rule tuned on it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { screensFor } from '../../src/planning/screens.ts';
import { checkSet, softFinding } from '../../src/captions/checker/check.ts';
import type { PlanInput, ScreenshotSetResult } from '../../src/core/set.ts';
import { isProblem } from '../../src/core/problem.ts';
import { scaled } from '../support/timing.ts';
import { corpus } from './corpus/index.ts';
import { oracle } from './corpus/independent.ts';
import { devicesFor } from './corpus/measure.ts';
import { everyVoice } from './support/every-voice.ts';

const split = JSON.parse(readFileSync(new URL('./corpus/split.json', import.meta.url), 'utf8')) as { heldOut: string[] };
const heldOut = corpus().filter((e) => split.heldOut.includes(e.id));
const tuned = corpus().filter((e) => !split.heldOut.includes(e.id));

/** The set, or the refusal's `supported` figure; any other error is a bug. */
function plan(input: PlanInput): ScreenshotSetResult | { refused: number } {
  try {
    return planScreenshotSet(input);
  } catch (error) {
    if (isProblem(error) && error.code === 'cannot_fill_set') {
      // Either form of the refusal: a count the listing supports, or none that would help (its only
      // captions say nothing about this app); both point at extraContext and own slides.
      expect(error.detail).toMatch(/(supports \d+ slides? |fewer would not help).*extraContext.*"slides"/);
      return { refused: (error.extensions as { supported: number }).supported };
    }
    throw error;
  }
}

describe('the held-out split', () => {
  it('names corpus listings only, and no app sits in both parts', () => {
    expect(heldOut.map((e) => e.id).sort()).toEqual([...split.heldOut].sort());
    expect(heldOut.length).toBeGreaterThanOrEqual(6);
    const name = (n: string) => n.toLowerCase().split(/[\s:–-]/)[0];
    const tunedNames = new Set(tuned.map((e) => name(e.listing.name)));
    expect(heldOut.filter((e) => tunedNames.has(name(e.listing.name))).map((e) => e.id)).toEqual([]);
  });

  // All of src/, not one folder: since the house's move the rules live in src/captions, and a
  // guard on src/planning alone let held-out examples into comments there unseen.
  it('is quoted nowhere in src/: no rule was written from a held-out sentence', () => {
    const source = (readdirSync(path.resolve('src'), { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts'))
      .map((f) => readFileSync(path.resolve('src', f), 'utf8'))
      .join('\n')
      .toLowerCase()
      .replace(/\s+/g, ' ');
    const quoted: string[] = [];
    for (const e of heldOut)
      for (const sentence of `${e.listing.subtitle ?? ''}\n${e.listing.description}`.split(/\n+|(?<=[.!?])\s+/)) {
        // Any five words in a row of a held-out sentence, as the source would quote them.
        const w = sentence.toLowerCase().match(/[\p{L}\p{N}'’-]+/gu) ?? [];
        for (let i = 0; i + 5 <= w.length; i++)
          if (source.includes(w.slice(i, i + 5).join(' '))) quoted.push(`${e.id}: ${w.slice(i, i + 5).join(' ')}`);
      }
    expect(quoted).toEqual([]);
  });
});

describe('with no model, judged by the independent oracle', () => {
  it('the oracle itself finds what a copywriter sends back', () => {
    const e = tuned.find((x) => x.id === 'streakly')!;
    const input: PlanInput = {
      listings: [e.listing],
      extraContext: null,
      request: { device: 'iphone-69', captionLength: 'long', count: 5 },
    };
    const good = planScreenshotSet(input);
    expect(oracle(input, good)).toEqual([]);
    const patched = (i: number, patch: object) => ({ ...good, slides: good.slides.map((s, k) => (k === i ? { ...s, ...patch } : s)) });
    const rules = (r: ScreenshotSetResult) => oracle(input, r).map((f) => f.rule);
    expect(rules(patched(1, { headline: 'Streakly: An App' }))).toContain('filler');
    expect(rules(patched(1, { headline: 'Use This Free App.' }))).toContain('filler');
    expect(rules(patched(1, { headline: 'Smart reminders that adapt to' }))).toContain('cut');
    expect(rules(patched(1, { subheadline: 'Track your habits and…' }))).toContain('cut');
    expect(rules(patched(1, { headline: 'Rated 4.9 by 2M Users' }))).toContain('number');
    expect(rules(patched(2, { headline: good.slides[1].headline }))).toContain('repeat');
    expect(rules(patched(1, { subheadline: `${good.slides[1].headline} every day.` }))).toContain('echo');
    expect(rules({ ...good, slides: good.slides.slice(0, 4) })).toContain('length');
  });

  // `npm test` plans each held-out listing in two voice × length pairs, rotated so that the eight
  // listings reach all ten pairs (./support/every-voice.ts): 16 sets of the 80; `npm run plan:full`
  // plans every listing in every voice and length.
  it(
    'every held-out set at count 6, in every voice and length, is exactly 6 slides or refused, and passes both judges',
    { timeout: scaled(60_000) },
    () => {
      const found: string[] = [];
      let made = 0;
      for (const { item: e, captionStyle, captionLength } of everyVoice(heldOut)) {
        const input: PlanInput = {
          listings: [e.listing],
          extraContext: null,
          request: { device: devicesFor(e.listing)[0], captionStyle, captionLength, count: 6 },
        };
        const r = plan(input);
        if ('refused' in r) {
          expect(r.refused).toBeLessThan(6);
          continue;
        }
        made++;
        found.push(...oracle(input, r).map((f) => `${e.id} ${captionStyle}/${captionLength}: ${f.rule} ${f.message}`));
        // A near miss ships only with its weakness named in the warnings, and only soft findings
        // (checker/check.ts softFinding): the product's own rule, so not a finding here.
        const named = (i: number) => r.warnings.some((w) => w.startsWith(`Slide ${i + 1} has a weaker caption than the rest`));
        found.push(
          ...checkSet(input, r).flatMap((fs, i) =>
            named(i) && fs.every((f) => softFinding(f, r.slides[i]))
              ? []
              : fs.map((f) => `${e.id} ${captionStyle}/${captionLength} #${i + 1}: ${f.id}`),
          ),
        );
      }
      expect(found).toEqual([]);
      expect(made).toBeGreaterThan(0);
    },
  );

  // 7 of 35 until the fourth held-out round; cartwheel's sixth slide was "Get Alerts", cut from "Get alerts
  // when items on your wish list drop in price" (a notice without when it comes, checker/cut.ts): 8 of 35.
  it('refuses at most 8 listings of 35 of the corpus at count 6 with the default voice and length, when it has screens', () => {
    const asked = corpus().filter((e) => screensFor([e.listing], devicesFor(e.listing)[0]).urls.length > 0);
    const refused = asked.filter(
      (e) => 'refused' in plan({ listings: [e.listing], extraContext: null, request: { device: devicesFor(e.listing)[0], count: 6 } }),
    );
    expect(refused.length / asked.length, refused.map((e) => e.id).join(', ')).toBeLessThanOrEqual(8 / 35);
  });
});
