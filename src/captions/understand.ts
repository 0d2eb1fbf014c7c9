/**
 * Listing understanding: the listing's own words sorted by the part they can play. The promise
 * (subtitle or opening line) leads; each feature is one phrase with the shorter whole forms it can
 * be said in; steps and problems only where the listing states them. Nothing is paraphrased.
 */
import { nlp } from './nlp.ts';
import type { Listing } from '../core/listing.ts';
import { cleanText, looksBroken, NEGATIVE, NON_FEATURE_SECTION, notAFeature, unshoutLine } from './clean.ts';
import { analysePhrases } from './rules/phrases.ts';
import { ELISION, MANNER, mentionsFree, SPACES, words } from './text.ts';
import { endWords } from './end-words.ts';
import { moreIdeas } from './rules/forms.ts';
import { offRole } from './checker/selling.ts';
import { sentenceWords, type Sentence } from './checker/sentences.ts';
import { MIN_PROOF_RATING, MIN_RATINGS } from './checker/proof.ts';

export type PhraseKind = 'context' | 'subtitle' | 'promise' | 'bullet' | 'action' | 'step' | 'heading' | 'sentence';
/** What the sentence is, grammatically: it decides how a voice may say it. */
export type Shape = 'imperative' | 'noun' | 'clause';

export interface Phrase {
  /** The phrase as the listing says it, cleaned, without list markers or end punctuation. */
  text: string;
  /** Shorter forms that are still whole (a verb and its object, a noun before its clause), longest first. */
  cores: string[];
  /** The whole sentence it came from, for subheadlines. */
  sentence: string;
  keywords: string[];
  kind: PhraseKind;
  shape: Shape;
  score: number;
  /**
   * The action this phrase is the purpose of ("Add a note to each entry" for "Remember the
   * day"): not a feature, so never a headline alone (rules/writer.ts).
   */
  purposeOf?: string;
}

export interface Understanding {
  language: string;
  english: boolean;
  name: string;
  /** The name before any ":" or " - " tagline, for templates. */
  shortName: string;
  category: string;
  subtitle: string | null;
  /** What the app promises: the extra context's or subtitle's line, else the description's opening. */
  promise: Phrase | null;
  /** One feature each, in the listing's order. */
  phrases: Phrase[];
  /** Numbered steps the listing states ("1. Connect your accounts"), in order. */
  steps: Phrase[];
  /** Questions and pain points ("Tired of …?") for problem slides. */
  problems: Phrase[];
  keywords: string[];
  rating: { value: string; count: string } | null;
  ratingTooLow: boolean;
  /** The store's rating is under MIN_PROOF_RATING: weak proof, a warned last resort at most (planning/plan.ts). */
  ratingWeak: boolean;
  /** The store shows a rating from fewer than MIN_RATINGS ratings: too few to quote as proof. */
  ratingTooFew: boolean;
  free: boolean;
  descriptionEmpty: boolean;
  /** Lower-cased words that keep their capital in sentence case (names, acronyms). */
  proper: Set<string>;
  /** Brand spellings with inner capitals (iCloud, EasyPlanner), by their lower-case form. */
  brands: Map<string, string>;
  /** Every word of the listing texts, for grounding checks. */
  sourceWords: Set<string>;
  /** The listings' sentences as words: a caption cut from one must stop where its phrase does (checker/cut.ts). */
  sentences: Sentence[];
  /** Nouns and adjectives of the listing: the words worth listing as a slide's keywords. */
  keywordish: Set<string> | null;
}

interface Term {
  text: string;
  post: string;
  tags: string[];
}

// Verbs app copy opens its imperatives with; compromise reads some of them ("Sync", "Log") as nouns.
const COPY_VERBS = new Set(
  'sync share scan track edit plan save export record download discover find search browse create build organise organize log compare measure play solve learn analyse analyze trim add send open collect get set watch race raise recruit join command avoid queue drop clear beat cook translate write capture connect point sign fill round adjust design draw chat meet listen read practise practice train keep stay earn celebrate book split pay check see block run review import print convert customise customize manage schedule turn forward store protect lock hide back follow explore master bring make take start type talk speak call stream shop order compose mix sleep relax breathe meditate'.split(
    ' ',
  ),
);
const PROBLEM = /^(tired of|sick of|struggling|struggle|no more|never again|stop |forget about|hate |don't let|fed up|can't)|\?$/i;
// Questions that sell rather than name a pain ("Why choose X?") are not problems.
const SALES_QUESTION =
  /^(why (choose|use|download|pick|try)|what('s| is| are| makes| does| do| can)|how (does|do|to|it)|who('s| is| are))\b/i;
/** A sentence after a review request that only points back at it ("It helps…", "Every review counts", "Thank you!"). */
const PLEA_GOES_ON = /^(it|this|that|these|they|each|every|your|thanks|thank you|we|it's|it’s)\b/i;
const ACTION = /\b(?:lets|helps|allows|enables|empowers)\s+(?:you|users|people)\s+(?:to\s+)?(.+)$|\byou can\s+(.+)$/i;
// "2- Full support for parents": a number and a dash mark a list item, not a step (steps end in "." or ")").
const BULLET = /^\s*(?:(?:[-*•·・･‣◦▪■□●○✓✔✅☑★☆►▶→➤⁃–—+]|\d{1,2}\s*[-–—](?=\s*\p{L})|(?![®©™])\p{Extended_Pictographic}\uFE0F?)\s*)/u;
const STEP = /^\s*(?:step\s*)?(\d{1,2})\s*[.):]\s+(\S.*)$/i;
const GENERIC_HEADING =
  /^(key |main |top |new |more |other |app |our |game )?(features?|highlights|what'?s new|about( us)?|how it works|faq|notes?|premium|pro|why .+|follow us|questions|use \S+ to|with \S+ you can)\b/i;
const HOW_HEADING = /^(how it works|how to use|getting started|get started|in \w+ (easy )?steps)/i;
const OTHER_PLATFORM: Record<string, RegExp> = {
  'app-store': /\b(android|google play|play store|chromebook|wear os)\b/i,
  'google-play': /\b(iphone|ipad|ios|app store|apple watch|ipados|macos|siri|apple pencil)\b/i,
};
/** A ten-slide set needs far fewer; the cap bounds the tagging work on very long descriptions. */
const MAX_PHRASES = 24;
const KIND_RANK: Record<PhraseKind, number> = {
  context: 60,
  subtitle: 50,
  promise: 45,
  bullet: 40,
  action: 35,
  step: 32,
  heading: 30,
  sentence: 10,
};

export function shortNameOf(name: string): string {
  const cut = name.split(/\s*[:|–—]\s*|\s+-\s+/)[0].trim() || name.trim();
  return cut.replace(/[!?.]+$/, '') || cut;
}

/**
 * "Time: a well-planned list…" and "MULTI-PLATFORM. Use it on…": the label is not the feature; the
 * sentence after it is said by its first whole action ("Sort your groceries by shelf", not "Shelf
 * sorting": second recordings read, pattern 2b, M). `shouted` is the line as the listing wrote it:
 * `unshoutLine` has lowered a label in capitals by now, and its capitals are what mark it. A label in
 * title case ("Shelf Sorting. Sort…") is one too. Null when the body has no label.
 */
function labelOf(body: string, shouted: string): { label: string; rest: string; colon: boolean } | null {
  const m = /^([^:.!?]{1,30})(?::|\.)\s+(\S.*)$/u.exec(body);
  if (!m) return null;
  const raw = shouted.slice(0, m[1].length);
  const said = raw.trim().split(SPACES);
  const capitals = raw === raw.toUpperCase() && /\p{Lu}{3}/u.test(raw);
  const titled = said.length >= 2 && said.every((w) => /^\p{Lu}/u.test(w));
  const colon = body[m[1].length] === ':';
  return said.length <= 3 && (colon || capitals || titled) ? { label: m[1].trim(), rest: m[2], colon } : null;
}

interface Raw {
  text: string;
  sentence: string;
  kind: PhraseKind;
  /** A purpose ("Remember the moment"): the action it is the purpose of, said with it or not at all. */
  purposeOf?: string;
}

interface Collected {
  raws: Raw[];
  steps: Raw[];
  problems: Raw[];
}

const firstSentence = (t: string) => t.split(/(?<=[.!?])\s+/)[0];

function collect(text: string, english: boolean, asKind: PhraseKind | null, acronyms: Set<string>, out: Collected): void {
  let skipping = false;
  let stepsSection = false;
  const prose: string[] = [];
  const flush = () => {
    if (prose.length) out.raws.push(...sentencesOf(prose.join(' '), english, asKind, out));
    prose.length = 0;
  };
  for (const rawLine of cleanText(text).split('\n')) {
    const line = unshoutLine(rawLine.trim(), acronyms);
    if (!line) {
      flush();
      skipping = false;
      continue;
    }
    // 'The Daily Ledger: "A must-have…"': an outlet's quote says what others think of the app, in
    // their words, and its parts read as cut captions ("The Daily Ledger", "Is a must-have").
    if (offRole(line) === 'a press quote') {
      flush();
      continue;
    }
    const step = STEP.exec(line);
    const bullet = BULLET.test(line);
    const body = step ? step[2] : bullet ? line.replace(BULLET, '').trim() : line;
    const shoutedBody = step ? (STEP.exec(rawLine.trim())?.[2] ?? body) : bullet ? rawLine.trim().replace(BULLET, '').trim() : body;
    const nWords = body.split(SPACES).length;
    // "¿Te cuesta concentrarte en el trabajo?", "Can't sleep?": a short line that asks about a pain names a
    // problem, not a heading (the Spanish opening mark aside; a held-out read found one called "no problem").
    const asked = line.replace(/^[¿¡]\s*/u, '');
    if (!step && !bullet && nWords <= 7 && line.endsWith('?') && PROBLEM.test(asked) && !SALES_QUESTION.test(asked)) {
      flush();
      skipping = false;
      out.problems.push({ text: line, sentence: line, kind: 'sentence' });
      continue;
    }
    if (!step && !bullet && nWords <= 7 && !/[.!]$/.test(line) && !asKind) {
      flush();
      const heading = line.replace(/[:?]$/, '').trim();
      skipping = NON_FEATURE_SECTION.test(heading) || notAFeature(heading) !== null;
      stepsSection = HOW_HEADING.test(heading);
      if (!skipping && !stepsSection && !line.endsWith(':') && !line.endsWith('?') && !GENERIC_HEADING.test(heading) && nWords >= 2)
        out.raws.push({ text: heading, sentence: heading, kind: 'heading' });
      continue;
    }
    if (skipping) continue;
    if (step || bullet) {
      flush();
      const labelled = labelOf(body, shoutedBody);
      // looksBroken reads English with the English tagger: "Workouts von 10 bis 45 Minuten" is whole German.
      const unusable = (t: string) => notAFeature(firstSentence(t)) !== null || (english && looksBroken(t));
      // A label in capitals is said by its sentence's action ("Sort your groceries…"), and only where
      // the sentence gives none by the label ("Pantry memory" over "The items you enter are
      // kept…"); a label before a colon always gave way to its sentence ("Time: a well-planned list…").
      const acts = (t: string) => {
        const [first = '', second = ''] = words(t);
        // "Sort your groceries…": a word before "your" or "the" is its verb, whatever the tagger reads.
        const object =
          /^(?:your|the|a|an|any|every|each|all|their|its)$/.test(second) && !/^(?:the|a|an|any|every|each|all|your|our|this)$/.test(first);
        return (
          COPY_VERBS.has(first) ||
          object ||
          (english && nlp(firstSentence(t).toLowerCase()).has('^#Verb') && !nlp(t.toLowerCase()).has('^#Gerund'))
        );
      };
      const byRest = labelled !== null && !unusable(labelled.rest) && (labelled.colon || acts(labelled.rest) || unusable(labelled.label));
      const item = labelled ? (byRest ? labelled.rest : labelled.label) : body;
      const first = firstSentence(item);
      if (unusable(item)) continue;
      if (PROBLEM.test(first) && !SALES_QUESTION.test(first)) out.problems.push({ text: first, sentence: first, kind: 'sentence' });
      else if (step || stepsSection) out.steps.push({ text: first, sentence: item, kind: 'step' });
      else if (!SALES_QUESTION.test(first)) out.raws.push({ text: first, sentence: item, kind: asKind ?? 'bullet' });
      continue;
    }
    prose.push(line);
  }
  flush();
}

function sentencesOf(text: string, english: boolean, asKind: PhraseKind | null, out: Collected): Raw[] {
  const raws: Raw[] = [];
  let plea = false;
  for (const s of nlp.tokenize(text).sentences().out('array') as string[]) {
    const sentence = s.replace(SPACES, ' ').trim();
    // "… we would appreciate a review. It helps a small team a lot!": a sentence that points back at
    // a review request goes on asking; said alone, its "It" names nothing (seventh read, O).
    const why = notAFeature(sentence) ?? offRole(sentence);
    plea = why === 'review request' || why === 'a review plea' || (plea && PLEA_GOES_ON.test(sentence));
    if (plea) continue;
    if (SALES_QUESTION.test(sentence) || notAFeature(sentence) || (english && looksBroken(sentence))) continue;
    if (PROBLEM.test(sentence) || NEGATIVE.test(sentence)) {
      out.problems.push({ text: sentence, sentence, kind: 'sentence' });
      continue;
    }
    const action = english ? ACTION.exec(sentence) : null;
    const actionText = action ? (action[1] ?? action[2]).trim() : null;
    // "…so you can easily schedule meetings": a manner adverb before the verb and its object is the action's own.
    const said = words(actionText ?? '');
    const verb = MANNER.test(said[0] ?? '') && said.length >= 3 ? said[1] : said[0];
    if (actionText && COPY_VERBS.has(verb ?? '')) raws.push({ text: actionText, sentence, kind: asKind ?? 'action' });
    else raws.push({ text: sentence, sentence, kind: asKind ?? 'sentence' });
  }
  return raws;
}

// Rounded down, so that "12K+" never claims more than there is: whole thousands, tenths of millions.
// (roundingMode is ES2023, in node 20's ICU; the ES2022 lib does not declare it.)
const compact = (maximumFractionDigits: number) =>
  new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits, roundingMode: 'floor' } as Intl.NumberFormatOptions);
const THOUSANDS = compact(0);
const MILLIONS = compact(1);

function formatCount(n: number): string {
  if (n < 1000) return String(n);
  return `${(n < 1_000_000 ? THOUSANDS : MILLIONS).format(n)}+`;
}

const cache = new Map<string, Understanding>();

/** Analyses the listing (the one of the device's store first) and the user's extra context. */
export function understand(listings: Listing[], primary: Listing, extraContext: string | null): Understanding {
  const key = JSON.stringify([primary, listings.length > 1 ? listings : null, extraContext]);
  const hit = cache.get(key);
  if (hit) return hit;
  const result = analyse(listings, primary, extraContext);
  // A small bound keeps a long-running worker's memory flat; the analysis is the slow part of planning.
  if (cache.size >= 64) cache.delete(cache.keys().next().value as string);
  cache.set(key, result);
  return result;
}

export function clearUnderstandingCache(): void {
  cache.clear();
}

/**
 * A memo of what is derived from an understanding and the rest of its inputs (`key`): understand()
 * hands the same object to every call for the same listings and extra context, so it stands for
 * their text. Kept per understanding (gone with it from the cache above), at most `max` keys each,
 * oldest out first, so a long-running planning thread's memory stays bounded.
 */
export function memoPerUnderstanding<T>(max: number): (u: Understanding, key: string, make: () => T) => T {
  const kept = new WeakMap<Understanding, Map<string, T>>();
  return (u, key, make) => {
    let known = kept.get(u);
    if (!known) kept.set(u, (known = new Map()));
    let value = known.get(key);
    if (value === undefined) {
      if (known.size >= max) known.delete(known.keys().next().value as string);
      value = make();
      known.set(key, value);
    }
    return value;
  };
}

function analyse(listings: Listing[], primary: Listing, extraContext: string | null): Understanding {
  const language = (primary.language || 'en').toLowerCase().split(/[-_]/)[0];
  const english = language === 'en';
  const free = listings.every((l) => l.price === 0);
  const dangling = endWords(language, { withEnglish: true });
  const name = cleanText(primary.name);
  const everything = cleanText([name, primary.subtitle ?? '', primary.description, extraContext ?? ''].join('\n'));
  // Brand spellings and acronyms as the listing writes them where it does not shout.
  const brands = new Map<string, string>();
  const acronyms = new Set<string>();
  const proper = new Set<string>();
  for (const line of everything.split('\n')) {
    // A line in capitals says nothing about which of its words are acronyms or names.
    if (unshoutLine(line, new Set()) !== line) continue;
    for (const sentence of line.split(/(?<=[.!?:])\s+|^\W+/)) {
      (sentence.match(/[\p{L}][\p{L}\p{N}'’-]*/gu) ?? []).forEach((w, i) => {
        if (/\p{Ll}\p{Lu}/u.test(w)) brands.set(w.toLowerCase(), w);
        if (/^\p{Lu}{2,6}$/u.test(w)) acronyms.add(w);
        // Capitals inside a sentence mark a name ("Apple Watch"); the first word's capital says nothing.
        if (i > 0 && /^\p{Lu}/u.test(w)) proper.add(w.toLowerCase());
      });
    }
  }
  const got: Collected = { raws: [], steps: [], problems: [] };
  if (extraContext?.trim()) collect(extraContext, english, 'context', acronyms, got);
  const subtitle = primary.subtitle ? unshoutLine(cleanText(primary.subtitle), acronyms) : null;
  if (subtitle) got.raws.push({ text: subtitle, sentence: subtitle, kind: 'subtitle' });
  collect(primary.description, english, null, acronyms, got);
  for (const other of listings) {
    if (other === primary || other.language.split(/[-_]/)[0] !== language) continue;
    const more: Collected = { raws: [], steps: [], problems: [] };
    collect(other.description, english, null, acronyms, more);
    got.raws.push(...more.raws.map((r) => ({ ...r, kind: 'sentence' as const })));
  }

  if (english) got.raws.push(...got.raws.flatMap(splitActions));
  if (english) got.raws.push(...got.raws.flatMap((r) => moreIdeas(r, name)));
  const banned = OTHER_PLATFORM[primary.store];
  const usable = (t: string) =>
    t.length > 2 && !banned.test(t) && (free || !mentionsFree(t)) && notAFeature(t) === null && offRole(t) === null;
  const a = analysePhrases({
    raws: got.raws,
    steps: got.steps,
    problems: got.problems,
    usable,
    english,
    language,
    dangling,
    name,
    maxPhrases: MAX_PHRASES,
    kindRank: KIND_RANK,
    copyVerbs: COPY_VERBS,
  });

  for (const w of a.proper) proper.add(w);
  for (const w of words(name)) proper.add(w);

  const hasRating = primary.rating !== null && primary.ratingCount !== null && primary.rating > 0 && primary.ratingCount > 0;
  const ratingTooLow = hasRating && (primary.rating as number) < 3.5;
  const ratingTooFew = hasRating && (primary.ratingCount as number) < MIN_RATINGS;
  const sourceWords = new Set<string>();
  for (const l of listings)
    for (const t of [l.name, l.category, l.subtitle ?? '', l.description, l.developer ?? ''])
      for (const w of words(cleanText(t))) sourceWords.add(w);
  for (const w of words(extraContext ?? '')) sourceWords.add(w);
  for (const w of [...sourceWords]) sourceWords.add(w.replace(ELISION, ''));

  return {
    language,
    english,
    name,
    shortName: shortNameOf(name),
    category: primary.category.trim(),
    subtitle,
    promise: a.promise,
    phrases: a.phrases,
    steps: a.steps,
    problems: a.problems,
    keywords: a.keywords,
    rating:
      hasRating && !ratingTooLow && !ratingTooFew
        ? { value: (Math.floor((primary.rating as number) * 10) / 10).toFixed(1), count: formatCount(primary.ratingCount as number) }
        : null,
    ratingTooLow,
    ratingWeak: hasRating && (primary.rating as number) < MIN_PROOF_RATING,
    ratingTooFew,
    free,
    descriptionEmpty: primary.description.trim() === '',
    proper,
    brands,
    sourceWords,
    sentences: sentenceWords(listings.flatMap((l) => [l.subtitle ?? '', l.description])),
    keywordish: english ? a.keywordish : null,
  };
}

/**
 * "See rain minute by minute, get severe weather alerts and check the air quality": a list of
 * actions, each with its own object, is several features the listing states; each is a headline as
 * written. The whole sentence stays too (a hero may sum the app up with it).
 */
function splitActions(r: Raw): Raw[] {
  const parts = r.text
    .replace(/[.!]+$/, '')
    .split(/,\s*(?:and\s+|or\s+)?|\s+and\s+/i)
    .map((p) => p.trim());
  if (parts.length < 2 || parts.length > 4) return [];
  // The tagger reads some copy verbs as nouns out of context ("add stickers in a tap"): the word decides too.
  const actions = parts.filter(
    (p) =>
      p.split(SPACES).length >= 2 &&
      (COPY_VERBS.has(words(p)[0] ?? '') || nlp(p.toLowerCase()).has('^#Verb')) &&
      !nlp(p.toLowerCase()).has('^#Gerund'),
  );
  if (actions.length !== parts.length) return [];
  return actions.map((p) => ({
    text: p.charAt(0).toUpperCase() + p.slice(1),
    sentence: p.charAt(0).toUpperCase() + p.slice(1),
    kind: 'action' as const,
  }));
}

export type { Raw, Term };
