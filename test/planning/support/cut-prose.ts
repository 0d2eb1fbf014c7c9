/**
 * What the tests of cut phrases share (whole-phrase-cuts, verb-left-behind): a listing written as
 * prose from look-alike sentences, the checker's cut reading against those sentences, and the rule
 * writer's slides for that listing in every voice and length.
 */
import { cutPhrase } from '../../../src/captions/checker/cut.ts';
import { sentenceWords } from '../../../src/captions/checker/sentences.ts';
import { isProblem } from '../../../src/core/problem.ts';
import { CAPTION_LENGTH_IDS, CAPTION_STYLE_IDS, type Slide } from '../../../src/core/set.ts';
import { planScreenshotSet } from '../../../src/planning/plan.ts';
import { habitly } from '../listings.ts';

/** checker/cut.ts's finding for a caption (under `headline`, if a subheadline), read against `prose`. */
export function cutAgainst(prose: string[]): (text: string, headline?: string) => string | null {
  const sentences = sentenceWords(prose);
  return (text, headline) => cutPhrase(text, sentences, new Set(), headline);
}

/** A listing whose description is `prose`, run on as one paragraph, and no subtitle. */
export const proseListing = (name: string, prose: string[]) => ({ ...habitly, name, subtitle: null, description: prose.join(' ') });

/** The slides the rule writer plans for `listing` (four a set) in every voice and length; refusals plan none. */
export function slidesInEveryVoice(listing: typeof habitly): Slide[] {
  const slides: Slide[] = [];
  for (const captionStyle of CAPTION_STYLE_IDS)
    for (const captionLength of CAPTION_LENGTH_IDS) {
      const r = planScreenshotSet({
        listings: [listing],
        extraContext: null,
        request: { device: 'iphone-69', captionStyle, captionLength, count: 4 },
      });
      if (!isProblem(r)) slides.push(...r.slides);
    }
  return slides;
}
