/**
 * Refuse less, and honestly (issue 33, item 4): where the rules refuse a cut form of a listing
 * sentence ("Bedtime tales told" of "Bedtime tales told by calm narrators guide…"), the rule writer
 * says the whole phrase a copywriter would write instead: the constituent carried to its end (the
 * participle's agent, up to the sentence's verb), or the noun phrase it told of. docs/captions.md,
 * "Refuse less: whole phrases for refused cuts".
 */
import { describe, expect, it } from 'vitest';
import { checkCaptions } from '../../src/captions/checker/check.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { parseAppStoreLookupBody } from '../../src/stores/app-store.ts';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS, type PlanRequest } from '../../src/core/set.ts';
import type { Listing } from '../../src/core/listing.ts';
import { isProblem } from '../../src/core/problem.ts';
import { lookupBody, lookupResult } from '../support/store-fixtures.ts';

/** A sleep app (in the lookup API's own fields) whose sentences name features in participle and noun-subject clauses. */
const lullo: Listing = parseAppStoreLookupBody(
  lookupBody(
    [
      lookupResult({
        trackId: 1690000001,
        trackName: 'Lullo: Sleep Timer',
        trackViewUrl: 'https://apps.apple.com/us/app/id1690000001?uo=4',
        primaryGenreName: 'Health & Fitness',
        primaryGenreId: 6013,
        subtitle: 'Rest easy every night',
        averageUserRating: 4.7,
        userRatingCount: 5300,
        price: 0,
        currency: 'USD',
        description: [
          'Lullo plays soft rain sounds all night long.',
          'A soft alarm wakes you at the right moment of your cycle.',
          'Sleep tales read by calm voices help you unwind.',
          'Breathing drills slow your heart rate before bed.',
        ].join('\n'),
        screenshotUrls: Array.from(
          { length: 5 },
          (_, i) => `https://is1-ssl.mzstatic.com/image/thumb/lullo/s${i + 1}/source/1290x2796bb.png`,
        ),
        ipadScreenshotUrls: [],
      }),
    ],
    { raw: true },
  ),
  { id: '1690000001', country: 'us' },
);

const plan = (request: Partial<PlanRequest>) =>
  planScreenshotSet({ listings: [lullo], extraContext: null, uploadedScreens: 5, request: { device: 'iphone-69', ...request } });

const said = (r: { slides: { headline: string; subheadline: string | null }[] }) =>
  r.slides.map((x) => `${x.headline}${x.subheadline ? ` // ${x.subheadline}` : ''}`);

describe('whole phrases where a cut is refused', () => {
  it('carries a participle cut from its agent on to the noun phrase’s end, never its predicate alone under it', () => {
    for (const captionStyle of CAPTION_STYLE_IDS) {
      const slides = said(plan({ captionStyle, captionLength: 'long' }));
      expect(slides.some((x) => /^sleep tales( read by calm voices)?[.!]?$/i.test(x))).toBe(true);
      // Never the cut itself, nor the agent and the verb under the bare noun, nor the verb split
      // from its subject ("// Help you unwind.", an order to the reader: third held-out read, G).
      expect(
        slides.some((x) => /^sleep tales read[.!]?( \/\/|$)/i.test(x) || /\/\/ (read by calm voices help|help you unwind)/i.test(x)),
      ).toBe(false);
    }
  });

  it('says the noun phrase the participle told of where the whole constituent does not fit', () => {
    for (const captionStyle of CAPTION_STYLE_IDS) {
      const slides = said(plan({ captionStyle, captionLength: 'short' }));
      expect(slides.some((x) => /^sleep tales[.!]?$/i.test(x))).toBe(true);
    }
  });

  it('passes a noun phrase holding a word of the app’s name, and still refuses the brand and its verb', () => {
    const ctx = {
      listings: [lullo],
      extraContext: null,
      device: 'iphone-69' as const,
      captionLength: 'short' as const,
      captionStyle: 'minimal' as const,
    };
    const [, tales, brand] = checkCaptions(
      [
        { headline: 'Rest easy every night', subheadline: null, role: 'hero' },
        { headline: 'Sleep tales', subheadline: null, role: 'feature' },
        { headline: 'Lullo plays', subheadline: null, role: 'feature' },
      ],
      ctx,
    );
    expect(tales).toEqual([]);
    expect(brand.map((f) => f.id)).toContain('cut');
  });

  it('makes every voice’s default set, and nothing it writes is cut, framed badly or echoed', () => {
    for (const captionStyle of CAPTION_STYLE_IDS)
      for (const captionLength of CAPTION_LENGTH_IDS) {
        const input = {
          listings: [lullo],
          extraContext: null,
          uploadedScreens: 5,
          request: { device: 'iphone-69' as const, captionStyle, captionLength },
        };
        let result;
        try {
          result = planScreenshotSet(input);
        } catch (error) {
          if (isProblem(error)) throw new Error(`${captionStyle}/${captionLength} refused: ${(error as { detail?: string }).detail}`);
          throw error;
        }
        const findings = checkCaptions(
          result.slides.map((x) => ({ headline: x.headline, subheadline: x.subheadline, role: x.role })),
          { listings: [lullo], extraContext: null, device: 'iphone-69', captionLength, captionStyle },
        );
        const hard = findings.flat().filter((f) => ['cut', 'complete', 'frame', 'echo', 'echo-pair'].includes(f.id));
        expect(hard, `${captionStyle}/${captionLength}`).toEqual([]);
      }
  });
});
