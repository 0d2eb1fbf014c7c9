/**
 * The refusal a draft the rule writer cannot fill gets, with the `supported` a client may follow.
 * Following it must never give a set worse than the one refused (issue 33): a named narrative is
 * counted on its own slides, and a smaller count whose captions would only say what any app says
 * ("Use This Free App") is not offered at all.
 */
import { cannotFillButGenerically, cannotFillNarrative, cannotFillSet } from '../core/refusal.ts';
import type { Problem } from '../core/problem.ts';
import { MAX_COUNT, type Narrative } from '../core/set.ts';
import type { Listing } from '../core/listing.ts';
import type { Role } from '../core/narratives.ts';
import type { Caption } from '../captions/rules/writer.ts';
import { STOCK } from '../captions/checker/complete.ts';
import { contentWords } from '../captions/text.ts';

/**
 * Praise and packaging: words that fit any app in a store. With the checker's stock words and the
 * app's name and category, a caption made only of these tells a visitor nothing about the app.
 */
const HYPE = new Set(
  (
    'best free great amazing awesome ultimate perfect easy easiest simple simplest powerful top number official favorite favourite ' +
    'good better cool fun nice smart beautiful install installed application version welcome thank thanks available premium pro plus lite ' +
    'world worlds love enjoy right way experience need needs ever life'
  ).split(' '),
);

/** Whether none of these captions says anything of the app beyond its name, category and praise. */
export function saysNothing(captions: Caption[], listings: Listing[], language: string): boolean {
  const own = new Set(listings.flatMap((l) => contentWords(`${l.name} ${l.category}`, language)));
  return captions.every((c) =>
    contentWords(`${c.headline} ${c.subheadline ?? ''}`, language).every((w) => own.has(w) || STOCK.has(w) || HYPE.has(w)),
  );
}

interface Refusable {
  roles: Role[];
  rules: (Caption | null)[];
  praiseOnly?: string | null;
  u: { descriptionEmpty: boolean; language: string };
  input: { listings: Listing[] };
}

/**
 * The refusal of `draft` (some slide has no caption). `rulesAt(count)` is the rule writer's
 * captions for the default story of `count` slides (callers cache it).
 */
export function refusalOf(draft: Refusable, narrative: Narrative | null, rulesAt: (count: number) => (Caption | null)[]): Problem {
  const asked = draft.roles.length;
  const empty = draft.u.descriptionEmpty;
  if (narrative) {
    const missing = draft.rules.flatMap((c, i) => (c ? [] : [{ slide: i + 1, role: draft.roles[i] }]));
    return cannotFillNarrative(narrative, asked, missing, empty);
  }
  for (let count = Math.min(asked - 1, MAX_COUNT); count >= 1; count--) {
    const rules = rulesAt(count);
    if (!rules.every((c) => c !== null)) continue;
    const captions = rules as Caption[];
    if (saysNothing(captions, draft.input.listings, draft.u.language)) return cannotFillButGenerically(asked, captions[0].headline, empty);
    return cannotFillSet(asked, count, empty);
  }
  // Nothing fills, and what the draft did fill only praises or names the app: say so, offer no count.
  if (draft.praiseOnly) return cannotFillButGenerically(asked, draft.praiseOnly, empty);
  return cannotFillSet(asked, 0, empty);
}
