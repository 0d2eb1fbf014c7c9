/**
 * The refusal a draft the rule writer cannot fill gets, with the `supported` a client may follow.
 * Following it must never give a set worse than the one refused (issue 33): a named narrative is
 * counted on its own slides, and a smaller count whose captions would only say what any app says
 * ("Use This Free App") is not offered at all.
 */
import { cannotFillAtLength, cannotFillButGenerically, cannotFillNarrative, cannotFillSet, type WhyEmpty } from '../core/refusal.ts';
import type { Problem } from '../core/problem.ts';
import { MAX_COUNT, type Narrative } from '../core/set.ts';
import type { Listing } from '../core/listing.ts';
import type { Role } from '../core/narratives.ts';
import type { Caption } from '../captions/rules/writer.ts';
import { sameTopic, STOCK, substance } from '../captions/checker/complete.ts';
import { leansOnPronoun } from '../captions/checker/cut.ts';
import { fillerOnly } from '../captions/checker/filler.ts';
import { askOf } from '../captions/checker/selling.ts';
import { contentWords, textKey } from '../captions/text.ts';
import type { Phrase, Understanding } from '../captions/understand.ts';
import { CaptionWriter, FEATURE_ROLES } from '../captions/rules/writer.ts';
import { CAPTION_LENGTH_IDS, CAPTION_LENGTHS, type CaptionLength, type CaptionStyle } from '../core/set.ts';
import { checkCaptions, type CheckContext } from '../captions/checker/check.ts';

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

/**
 * The listing's features no caption of the set says, in the listing's words: neither spent as a
 * slide's phrase nor said by any headline or subheadline (the checker's topic measure). Not
 * features: the promise, a sentence about the app as a whole ("Scanly turns your phone into…"), a
 * line leaning on one before it ("Practise them later"), the rest of a sentence a slide already
 * says ("HEIC or TIFF" after "Export to full-size JPEG"), a line of stock words only.
 */
export function unsaidFeatures(u: Understanding, rules: (Pick<Caption, 'headline' | 'subheadline' | 'phrase'> | null)[]): string[] {
  const nameWords = new Set(contentWords(`${u.name} ${u.category}`, u.language));
  const said = rules.filter((c) => c !== null);
  const spent = new Set(said.map((c) => c.phrase));
  const spentSentences = new Set(u.phrases.filter((p) => spent.has(p.text)).map((p) => p.sentence));
  const restOfSpent = inSpentLine(u, spent);
  // A slide's two lines together too: "On iPhone and iPad." under "Capture ideas" says "Capture ideas on iPhone and iPad".
  const topics = said.flatMap((c) =>
    [c.headline, c.subheadline ?? '', `${c.headline} ${c.subheadline ?? ''}`].map((t) => substance(t, u.language, nameWords)),
  );
  const aboutApp = (sentence: string) => {
    const opening = contentWords(sentence, u.language)[0];
    return opening !== undefined && contentWords(u.shortName, u.language).includes(opening);
  };
  return (
    u.phrases
      .filter((p) => p !== u.promise && !spent.has(p.text) && !spentSentences.has(p.sentence) && !restOfSpent(p))
      .filter((p) => !aboutApp(p.sentence) && leansOnPronoun(p.text) === null)
      // Filler and a bare ask ("Fun for all ages", "Download the app") are no feature left unsaid:
      // the checker refuses them on any slide, so a refusal naming one as "more" would not be true.
      .filter((p) => u.language !== 'en' || (!fillerOnly(substance(p.text, u.language, new Set())) && askOf(p.text) === null))
      .filter((p) => {
        const topic = substance(p.text, u.language, nameWords);
        return topic.size > 0 && !topics.some((t) => sameTopic(topic, t));
      })
      .map((p) => p.text)
  );
}

/**
 * Whether a phrase is the rest of a listing line a slide spent an action of (`spent`: the slides'
 * phrases), not a feature of its own, even where the reading split the line into pieces with no
 * sentence in common: a thing with no verb ("Blurry photos") inside the line of a spent action
 * ("Clear space by removing old | and blurry photos") is that action's object (the ninth
 * read's untrue "another feature" warning). Another action of the line ("Check the wind" beside
 * a spent "See tides hour by hour") stays a feature of its own.
 */
export function inSpentLine(u: Pick<Understanding, 'phrases'>, spent: ReadonlySet<string | undefined>): (p: Phrase) => boolean {
  const actions = u.phrases.filter((p) => spent.has(p.text) && p.shape === 'imperative').map((p) => ` ${textKey(p.text)} `);
  const lines = [...new Set(u.phrases.map((p) => ` ${textKey(p.sentence)} `))].filter((line) => actions.some((t) => line.includes(t)));
  return (p) => p.shape === 'noun' && lines.some((line) => line.includes(` ${textKey(p.text)} `));
}

interface Refusable {
  roles: Role[];
  rules: (Caption | null)[];
  praiseOnly?: string | null;
  echoed?: string[];
  u: Understanding;
  input: { listings: Listing[] };
  check: { captionStyle: CaptionStyle; captionLength: CaptionLength } & Partial<CheckContext>;
}

/**
 * What the checker says of a listing line's plain forms (the line and its shorter whole forms, as
 * the listing says them) as a feature headline in this voice and length: `passes`, `over` (every
 * finding on its best form is the length's characters: the shortest such form's length), or
 * `fails`. A refusal says "could not be said … that passes the checks" only on `fails` (second
 * recordings read, pattern 4c: three refusals and two warnings said so of lines that pass).
 */
export function plainVerdict(draft: Refusable, text: string): 'passes' | 'fails' | { over: number } {
  const p = draft.u.phrases.find((x) => x.text === text);
  const { check } = draft;
  if (!p || !check.device) return 'fails';
  const ctx: CheckContext = { listings: draft.input.listings, extraContext: null, device: check.device, ...check };
  let over: number | null = null;
  for (const form of [...new Set([p.text, ...p.cores])]) {
    const ids = checkCaptions([{ headline: form, subheadline: null, role: 'feature', index: 2 }], ctx)[0]
      .filter((f) => !f.soft)
      .map((f) => f.id);
    if (ids.length === 0) return 'passes';
    if (ids.every((id) => id === 'fits')) over = Math.min(over ?? Infinity, form.length);
  }
  return over === null ? 'fails' : { over };
}

/**
 * The listing's unsaid lines that pass every check but this length's characters, and the longer
 * length whose headlines hold them all; null when there are none, or no length holds them.
 */
function overLength(draft: Refusable): { min: number; max: number; holds: CaptionLength } | null {
  const over = unsaidFeatures(draft.u, draft.rules)
    .map((t) => plainVerdict(draft, t))
    .flatMap((v) => (typeof v === 'object' ? [v.over] : []))
    // Only the lines another length's headline holds: a 119-character paragraph is no headline at any length.
    .filter((n) => n <= Math.max(...CAPTION_LENGTH_IDS.map((l) => CAPTION_LENGTHS[l].headline)));
  if (over.length === 0) return null;
  const [min, max] = [Math.min(...over), Math.max(...over)];
  const holds = CAPTION_LENGTH_IDS.find((l) => CAPTION_LENGTHS[l].headline >= min && l !== draft.check.captionLength);
  return holds && CAPTION_LENGTHS[holds].headline > CAPTION_LENGTHS[draft.check.captionLength].headline ? { min, max, holds } : null;
}

/**
 * Why a narrative's feature slides are left empty, when the listing does name more (third held-out
 * read: "it says nothing that fits" was false): a long hero said the feature as its subheadline
 * ("Mais de 5.000 receitas com fotos"), or the voice could say none of what is left whole.
 */
function whyEmpty(draft: Refusable): WhyEmpty | null {
  // What is left says the hero's words again, or only what another line is for (plan.ts drops it from six slides up).
  if (draft.echoed?.length) return { phrase: draft.echoed[0], under: 'again' };
  const sub = draft.roles[0] === 'hero' ? draft.rules[0]?.subheadline : null;
  const taken = sub ? draft.u.phrases.find((p) => p !== draft.u.promise && textKey(p.sentence) === textKey(sub)) : undefined;
  // Only a feature the voice could headline: "MoneyJar helps you save…" under the hero took no slide's line.
  if (taken && new CaptionWriter(draft.u, draft.check.captionStyle, draft.check.captionLength).sayable(taken))
    return { phrase: taken.sentence.replace(/[.!]$/, ''), under: 'hero' as const };
  const unsaid = unsaidFeatures(draft.u, draft.rules);
  if (unsaid.length === 0) return null;
  // Say "could not say it" only of a line the checker refuses in every plain form; of one it passes
  // but for the length, say that; of one it passes whole, only that no slide of the story took it.
  const verdict = plainVerdict(draft, unsaid[0]);
  const under = verdict === 'fails' ? 'voice' : verdict === 'passes' ? 'story' : 'length';
  return {
    phrase: unsaid[0],
    under,
    ...(typeof verdict === 'object' ? { chars: verdict.over, max: CAPTION_LENGTHS[draft.check.captionLength].headline } : {}),
  };
}

/**
 * The refusal of `draft` (some slide has no caption). `rulesAt(count)` is the rule writer's
 * captions for the default story of `count` slides (callers cache it).
 */
export function refusalOf(
  draft: Refusable,
  narrative: Narrative | null,
  rulesAt: (count: number, captionLength?: CaptionLength) => (Caption | null)[],
): Problem {
  const asked = draft.roles.length;
  const empty = draft.u.descriptionEmpty;
  if (narrative) {
    const missing = draft.rules.flatMap((c, i) => (c ? [] : [{ slide: i + 1, role: draft.roles[i] }]));
    const why = missing.some((m) => FEATURE_ROLES.has(m.role)) ? whyEmpty(draft) : null;
    // The story is the user's choice, not a requirement: when the default story fills as many
    // slides (or some), say so, as it needs no new words from the user.
    const plain = defaultStoryFills(draft, Math.min(asked, MAX_COUNT), rulesAt);
    return cannotFillNarrative(narrative, asked, missing, empty, why, plain && 'count' in plain ? plain.count : 0);
  }
  const plain = defaultStoryFills(draft, Math.min(asked - 1, MAX_COUNT), rulesAt);
  // "Says too little" only where the listing has no line: where its lines pass every check but the
  // length's characters, say so and name the length that holds them (second recordings read, 4c).
  // Offered only where that length's set is made and fills more: asking for it must not lead to a
  // smaller set or another refusal (tenth read: a short set of 5 "asked" to go long, which fills 4).
  const supported = plain && 'count' in plain ? plain.count : 0;
  const long = overLength(draft);
  const fills = long && defaultStoryFills(draft, Math.min(asked, MAX_COUNT), (count) => rulesAt(count, long.holds));
  if (long && fills && 'count' in fills && fills.count > supported)
    return cannotFillAtLength(asked, supported, draft.check.captionLength, { ...long, fills: fills.count }, empty);
  if (plain && 'generic' in plain) return cannotFillButGenerically(asked, plain.generic, empty);
  if (plain) return cannotFillSet(asked, plain.count, empty);
  // Nothing fills, and what the draft did fill only praises or names the app: say so, offer no count.
  if (draft.praiseOnly) return cannotFillButGenerically(asked, draft.praiseOnly, empty);
  return cannotFillSet(asked, 0, empty);
}

/**
 * The largest count up to `from` whose default story the rule writer fills, or the headline that
 * shows its captions would only praise the app (a count not worth offering), or null when none fills.
 */
function defaultStoryFills(
  draft: Refusable,
  from: number,
  rulesAt: (count: number) => (Caption | null)[],
): { count: number } | { generic: string } | null {
  for (let count = from; count >= 1; count--) {
    const rules = rulesAt(count);
    if (!rules.every((c) => c !== null)) continue;
    const captions = rules as Caption[];
    return saysNothing(captions, draft.input.listings, draft.u.language) ? { generic: captions[0].headline } : { count };
  }
  return null;
}
