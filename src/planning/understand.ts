/**
 * Listing understanding: turns a listing's free text into ranked caption material. Everything here is
 * taken from the listing's own words so that captions stay grounded; nothing is paraphrased.
 */
import nlp from 'compromise';
import type { Listing } from '../stores/listing.ts';
import { contentWords, danglingWords, functionWordCuts, headlineKey, mentionsFree, tidyEnd, words } from './text.ts';

export type PhraseKind = 'context' | 'subtitle' | 'bullet' | 'action' | 'heading' | 'sentence';

export interface Phrase {
  /** The phrase as the listing says it, without list markers or end punctuation. */
  text: string;
  /** Its first clause, for voices that want few words. */
  clause: string;
  /** The whole sentence it came from, for subheadlines. */
  sentence: string;
  keywords: string[];
  kind: PhraseKind;
  /** Starts with a verb ("Track your habits"), so it can be a step or an imperative. */
  imperative: boolean;
  /** Word counts after which `text` may be cut and still read whole (after a noun, at a clause end); null: anywhere. */
  cuts: number[] | null;
  score: number;
}

export interface Understanding {
  language: string;
  english: boolean;
  name: string;
  /** The name before any ":" or " - " tagline, for templates. */
  shortName: string;
  category: string;
  subtitle: string | null;
  phrases: Phrase[];
  /** Questions and pain points ("Tired of …?") for problem slides. */
  problems: Phrase[];
  keywords: string[];
  rating: { value: string; count: string } | null;
  ratingTooLow: boolean;
  free: boolean;
  descriptionEmpty: boolean;
  /** Lower-cased words that keep their capital in sentence case (names, acronyms). */
  proper: Set<string>;
  /** Every word of the listing texts, for grounding checks. */
  sourceWords: Set<string>;
  /** Nouns and adjectives of the listing: the words worth listing as a slide's keywords. */
  keywordish: Set<string> | null;
}

interface Term {
  text: string;
  post: string;
  tags: string[];
}

const NOUNISH = /^(Noun|Singular|Plural|Acronym|ProperNoun|Value|Uncountable)$/;
const isNoun = (tags: string[]) => tags.some((t) => NOUNISH.test(t)) && !tags.some((t) => t === 'Pronoun' || t === 'Determiner' || t === 'Possessive' || t === 'Preposition' || t === 'Conjunction');

/**
 * One parse per phrase gives where it can be cut without leaving half a noun phrase or an open
 * clause, whether it opens with a verb, and its names (which keep their capitals in sentence case).
 */
function tagPhrase(text: string, terms: Term[], keywordish: Set<string>, proper: Set<string>): { cuts: number[] | null; imperative: boolean } {
  for (const t of terms) if (t.tags.includes('ProperNoun') || t.tags.includes('Acronym')) proper.add(t.text.toLowerCase());
  const imperative = terms[0]?.tags.includes('Verb') ?? false;
  const tokens: { first: Term; last: Term }[] = [];
  let first: Term | null = null;
  terms.forEach((t, i) => {
    first ??= t;
    if (/\s/.test(t.post) || i === terms.length - 1) {
      tokens.push({ first, last: t });
      first = null;
    }
    if (t.tags.some((g) => g === 'Noun' || g === 'Adjective') && !t.tags.includes('Pronoun')) keywordish.add(t.text.toLowerCase());
  });
  if (tokens.length !== text.split(/\s+/).length) return { cuts: null, imperative };
  const cuts: number[] = [];
  tokens.forEach((tok, j) => {
    const next = tokens[j + 1];
    // After a noun and before a preposition, conjunction or relative clause: "Smart reminders | that adapt…".
    const opensClause = next && (next.first.tags.some((g) => g === 'Preposition' || g === 'Conjunction') || /^(that|which|who|so)$/i.test(next.first.text));
    if (!next || /[,;:–—]/.test(tok.last.post) || (isNoun(tok.last.tags) && opensClause)) cuts.push(j + 1);
  });
  return { cuts, imperative };
}

const BULLET = /^\s*(?:(?:[-*•·‣◦▪■□●○✓✔✅☑★☆►▶→➤⁃–—+]|\p{Extended_Pictographic}\uFE0F?)\s*|\d{1,2}[.)]\s+)/u;
const PICTOGRAPHS = /[\p{Extended_Pictographic}\uFE0F\u200D]/gu;
// Store boilerplate: legal, billing and contact text makes poor captions.
const JUNK = /https?:|www\.|@|\b(privacy|terms|subscriptions?|auto-?renew\w*|itunes|payment|billing|charged|cancel\w*|contact|e-?mail|support|copyright|eula|trial|refund|download now|permissions?)\b|©/i;
const GENERIC_HEADING = /^(key |main |top |new |more |other |app |our )?(features?|highlights|what'?s new|about( us)?|how it works|faq|notes?|premium|pro|why .+|follow us|questions)\b/i;
const PROBLEM = /\?$|^(tired of|sick of|struggling|struggle|no more|never again|stop |forget about|hate |don't let|fed up)/i;
// Questions that sell rather than name a pain ("Why choose X?") are not problems.
const SALES_QUESTION = /^(why (choose|use|download|pick|try)|what('s| is| are| makes)|how (does|do|to|it)|who('s| is| are))\b/i;
const ACTION = /\b(?:lets|helps|allows|enables|empowers)\s+(?:you|users|people)\s+(?:to\s+)?(.+)$|\byou can\s+(.+)$/i;
// A listing for one store may not name the other store or its devices (App Review guideline 2.3.10).
const OTHER_PLATFORM: Record<string, RegExp> = {
  'app-store': /\b(android|google play|play store|chromebook|wear os)\b/i,
  'google-play': /\b(iphone|ipad|ios|app store|apple watch|ipados|macos|siri)\b/i,
};
/** A ten-slide set needs far fewer; the cap bounds the tagging work on very long descriptions. */
const MAX_PHRASES = 24;
const KIND_RANK: Record<PhraseKind, number> = { context: 60, subtitle: 50, bullet: 40, action: 35, heading: 30, sentence: 10 };

export function shortNameOf(name: string): string {
  const cut = name.split(/\s*[:|–—]\s*|\s+-\s+/)[0].trim() || name.trim();
  // "Buy Me a Pie!" would end every template that follows the name with its own "!".
  return cut.replace(/[!?.]+$/, '') || cut;
}

/** "Time: a well-planned list…" and "MULTI-PLATFORM. Use it on…": the label is not the feature. */
function dropLabel(body: string): string {
  const m = /^([^:.!?]{1,30})(?::|\.)\s+(\S.*)$/u.exec(body);
  if (!m) return body;
  const label = m[1].trim();
  const isLabel = label.split(/\s+/).length <= 3 && (body[m[1].length] === ':' || (label === label.toUpperCase() && /\p{Lu}{3}/u.test(label)));
  return isLabel ? m[2] : body;
}

/** All-capitals text is shouting from the listing's layout, not a name; the voice sets the case. */
const unshout = (t: string) => (/\p{Lu}{3}/u.test(t) && t === t.toUpperCase() ? t.toLowerCase() : t);

function firstClause(text: string): string {
  return text.split(/,\s+|\s*[;:–—]\s*|\s+-\s+|\s\(/)[0].trim();
}

interface Raw {
  text: string;
  sentence: string;
  kind: PhraseKind;
}

function linesToRaw(text: string, english: boolean, asKind: PhraseKind | null, problems: Raw[], proper: Set<string>): Raw[] {
  const out: Raw[] = [];
  const prose: string[] = [];
  const lines = text.replace(PICTOGRAPHS, (m) => (m === '\uFE0F' || m === '\u200D' ? '' : '• ')).split(/\r?\n/);
  for (const rawLine of lines) {
    const line = rawLine.trim();
    if (!line) continue;
    if (BULLET.test(line)) {
      const body = line.replace(BULLET, '').trim();
      // A list item is one feature; its first sentence is the caption material.
      const item = unshout(dropLabel(body));
      const first = item.split(/(?<=[.!?])\s+/)[0];
      if (PROBLEM.test(first) && !SALES_QUESTION.test(first)) problems.push({ text: first, sentence: first, kind: 'sentence' });
      else if (first && !SALES_QUESTION.test(first)) out.push({ text: first, sentence: item, kind: asKind ?? 'bullet' });
      continue;
    }
    const nWords = line.split(/\s+/).length;
    if (nWords <= 7 && !/[.!?]$/.test(line) && !asKind) {
      const heading = line.replace(/:$/, '').trim();
      if (!line.endsWith(':') && !GENERIC_HEADING.test(heading)) {
        const text = unshout(heading);
        out.push({ text, sentence: text, kind: 'heading' });
      }
      continue;
    }
    prose.push(line);
  }
  if (prose.length) out.push(...sentencesOf(prose.join('\n'), english, asKind, problems, proper));
  return out;
}

function sentencesOf(text: string, english: boolean, asKind: PhraseKind | null, problems: Raw[], proper: Set<string>): Raw[] {
  const out: Raw[] = [];
  // Splitting needs no tagging; the phrases kept are tagged later, all in one parse.
  for (const s of nlp.tokenize(text).sentences().out('array') as string[]) {
    const sentence = s.replace(/\s+/g, ' ').trim();
    for (const w of sentence.split(' ').slice(1)) if (/^\p{Lu}/u.test(w) && !/^\p{Lu}+$/u.test(w)) proper.add(w.toLowerCase().replace(/[^\p{L}\p{N}'’]/gu, ''));
    if (SALES_QUESTION.test(sentence)) continue;
    if (PROBLEM.test(sentence)) {
      problems.push({ text: sentence, sentence, kind: 'sentence' });
      continue;
    }
    const action = english ? ACTION.exec(sentence) : null;
    const actionText = action ? (action[1] ?? action[2]).trim() : null;
    if (actionText && nlp(actionText).has('^#Verb')) {
      out.push({ text: actionText, sentence, kind: asKind ?? 'action' });
      continue;
    }
    out.push({ text: sentence, sentence, kind: asKind ?? 'sentence' });
  }
  return out;
}

function formatCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${Math.floor(n / 1000)}K+`;
  return `${Math.floor(n / 100_000) / 10}M+`;
}

/** Tags all phrases in one parse (much cheaper than one each), falling back when sentences do not line up. */
function termsOf(texts: string[]): Term[][] {
  const json = nlp(texts.map((t) => (/[.!?]$/.test(t) ? t : `${t}.`)).join('\n')).json() as { terms: Term[] }[];
  if (json.length === texts.length) return json.map((s) => s.terms);
  return texts.map((t) => (nlp(t).json() as { terms: Term[] }[]).flatMap((s) => s.terms));
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

function analyse(listings: Listing[], primary: Listing, extraContext: string | null): Understanding {
  const language = (primary.language || 'en').toLowerCase().split(/[-_]/)[0];
  const english = language === 'en';
  const free = listings.every((l) => l.price === 0);
  const dangling = danglingWords(language);
  const proper = new Set<string>();
  const problems: Raw[] = [];
  const raws: Raw[] = [];
  if (extraContext?.trim()) raws.push(...linesToRaw(extraContext, english, 'context', problems, proper));
  if (primary.subtitle?.trim()) raws.push({ text: primary.subtitle.trim(), sentence: primary.subtitle.trim(), kind: 'subtitle' });
  raws.push(...linesToRaw(primary.description, english, null, problems, proper));
  for (const other of listings) {
    if (other === primary || other.language.split(/[-_]/)[0] !== language) continue;
    raws.push(...linesToRaw(other.description, english, null, problems, proper).map((r) => ({ ...r, kind: 'sentence' as const })));
  }
  for (const w of words(primary.name)) proper.add(w);
  for (const w of primary.name.match(/\S*\p{Lu}\S*/gu) ?? []) proper.add(w.toLowerCase());

  const banned = OTHER_PLATFORM[primary.store];
  const usable = (t: string) => t.length > 2 && !JUNK.test(t) && !banned.test(t) && (free || !mentionsFree(t)) && !(t.split(' ').length <= 6 && GENERIC_HEADING.test(t));
  const freq = new Map<string, number>();
  const seen = new Set<string>();
  const kept: { r: Raw; text: string; position: number }[] = [];
  const keywordish = new Set<string>();
  raws.forEach((r, position) => {
    const text = tidyEnd(r.text, dangling);
    const key = headlineKey(text);
    const n = text.split(' ').length;
    // One word from the description ("Yes.", "Time") is a fragment, not a feature.
    const tooShort = n < 2 && r.kind !== 'subtitle' && r.kind !== 'context';
    if (!usable(text) || !key || seen.has(key) || tooShort || n > 40 || kept.length >= MAX_PHRASES) return;
    seen.add(key);
    kept.push({ r, text, position });
  });
  const terms = english && kept.length ? termsOf(kept.map((k) => k.text)) : [];
  const phrases: Phrase[] = kept.map(({ r, text, position }, i) => {
    const keywords = [...new Set(contentWords(text, language))];
    for (const k of keywords) freq.set(k, (freq.get(k) ?? 0) + 1);
    const clause = tidyEnd(firstClause(text), dangling) || text;
    const sentence = usable(r.sentence) ? r.sentence.replace(/\s+/g, ' ').trim() : text;
    const tags = english ? tagPhrase(text, terms[i], keywordish, proper) : { cuts: null, imperative: false };
    const cuts = tags.cuts ?? functionWordCuts(text, dangling);
    return { text, clause, sentence, keywords, kind: r.kind, imperative: tags.imperative, cuts, score: KIND_RANK[r.kind] - position / 100 };
  });
  for (const w of contentWords(`${primary.category} ${primary.subtitle ?? ''}`, language)) freq.set(w, (freq.get(w) ?? 0) + 3);
  const nameWords = new Set(words(primary.name));
  for (const w of contentWords(primary.category, language)) keywordish.add(w);
  const keywords = [...freq.entries()]
    .filter(([w]) => !nameWords.has(w) && (!english || keywordish.has(w)))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 8)
    .map(([w]) => w);
  // Short, keyword-rich phrases rank higher: they make headlines without cutting.
  for (const p of phrases) {
    p.score += p.keywords.filter((k) => keywords.includes(k)).length * 3 - Math.max(0, p.text.split(' ').length - 8);
    p.keywords = [...p.keywords].sort((a, b) => (keywords.indexOf(b) >= 0 ? 1 : 0) - (keywords.indexOf(a) >= 0 ? 1 : 0)).slice(0, 4);
  }

  const hasRating = primary.rating !== null && primary.ratingCount !== null && primary.rating > 0 && primary.ratingCount > 0;
  const ratingTooLow = hasRating && (primary.rating as number) < 3.5;
  const sourceWords = new Set<string>();
  for (const l of listings) for (const t of [l.name, l.category, l.subtitle ?? '', l.description, l.developer ?? '']) for (const w of words(t)) sourceWords.add(w);
  for (const w of words(extraContext ?? '')) sourceWords.add(w);
  for (const w of [...sourceWords]) sourceWords.add(w.replace(/^(l|d|qu|j|n|s|c|m|t|dell|all|un)['’]/, ''));

  return {
    language,
    english,
    name: primary.name.trim(),
    shortName: shortNameOf(primary.name),
    category: primary.category.trim(),
    subtitle: primary.subtitle?.trim() || null,
    phrases,
    problems: problems
      .map((p) => ({ text: tidyEnd(p.text, dangling), clause: tidyEnd(firstClause(p.text), dangling), sentence: p.sentence, keywords: contentWords(p.text, language).slice(0, 4), kind: p.kind, imperative: false, cuts: null, score: 0 }))
      .filter((p) => usable(p.text)),
    keywords,
    rating: hasRating && !ratingTooLow ? { value: (Math.floor((primary.rating as number) * 10) / 10).toFixed(1), count: formatCount(primary.ratingCount as number) } : null,
    ratingTooLow,
    free,
    descriptionEmpty: primary.description.trim() === '',
    proper,
    sourceWords,
    keywordish: english ? keywordish : null,
  };
}
