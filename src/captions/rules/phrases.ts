/**
 * From collected listing lines to phrases: one tagging pass gives each phrase its shape
 * (imperative, noun phrase, clause), the shorter forms it can be said in without losing its sense,
 * and its keywords; then the promise is chosen and duplicates of an idea are dropped.
 */
import { nlp } from '../nlp.ts';
import { contentWords, END_PUNCT, MANNER, QUANTITY_WORDS, SPACES, textKey, UNSPACED, words } from '../text.ts';
import { endWords, functionWordCuts, strandedPreposition, tidyEnd } from '../end-words.ts';
import { headlineForms, participleForms } from './forms.ts';
import { cutPhrase } from '../checker/cut.ts';
import { asideAt } from '../checker/whole-phrase.ts';
import { sentenceWords, subjectThenVerb } from '../checker/sentences.ts';
import type { Phrase, PhraseKind, Raw, Shape, Term } from '../understand.ts';

export interface PhraseInput {
  raws: Raw[];
  steps: Raw[];
  problems: Raw[];
  usable: (t: string) => boolean;
  english: boolean;
  language: string;
  dangling: Set<string>;
  name: string;
  maxPhrases: number;
  kindRank: Record<PhraseKind, number>;
  copyVerbs: Set<string>;
}

export interface Phrases {
  promise: Phrase | null;
  phrases: Phrase[];
  steps: Phrase[];
  problems: Phrase[];
  keywords: string[];
  proper: Set<string>;
  keywordish: Set<string>;
}

const PREPOSITION = /^(against|across|with|without|for|from|in|on|to|through|over|around|under|into|via|at|by)$/i;
const NOUNISH = /^(Noun|Singular|Plural|Acronym|ProperNoun|Uncountable)$/;
const isNoun = (tags: string[]) =>
  tags.some((t) => NOUNISH.test(t)) &&
  !tags.some((t) => ['Pronoun', 'Determiner', 'Possessive', 'Preposition', 'Conjunction', 'Value'].includes(t));
// A cut after these leaves what they need behind: "Browse recipes from thousands", "The fastest way | to capture ideas".
const QUANTITY = new RegExp(`^(${QUANTITY_WORDS}|more|most|way|ways)$`, 'i');

const NO_FRAME = new Set<string>();

/** Tags all phrases in one parse (much cheaper than one each), falling back when sentences do not line up. */
function termsOf(texts: string[]): Term[][] {
  const json = nlp(texts.map((t) => (/[.!?]$/.test(t) ? t : `${t}.`)).join('\n')).json() as { terms: Term[] }[];
  if (json.length === texts.length) return json.map((s) => s.terms);
  return texts.map((t) => (nlp(t).json() as { terms: Term[] }[]).flatMap((s) => s.terms));
}

interface Tagged {
  shape: Shape;
  cuts: number[] | null;
  /** Where a clause's subject ends before its verb, at any depth: the ends a refused form may be carried to (`extended`). */
  subjectEnds: number[];
  /** Those of them after a bare noun phrase ("Sleep stories | read by…"): the thing a refused form may fall back to. */
  heads: number[];
}

function tag(text: string, terms: Term[], copyVerbs: Set<string>, keywordish: Set<string>, proper: Set<string>): Tagged {
  for (const [i, t] of terms.entries()) {
    if (i > 0 && (t.tags.includes('ProperNoun') || t.tags.includes('Acronym'))) proper.add(t.text.toLowerCase());
    if (t.tags.some((g) => g === 'Noun' || g === 'Adjective') && !t.tags.includes('Pronoun'))
      keywordish.add(t.text.toLowerCase().replace(/[^\p{L}\p{N}'’-]/gu, ''));
  }
  const first = words(text)[0] ?? '';
  // Not a "verb" that does not agree with the noun before it: "block | puzzle" is one noun.
  const verbAt = terms.findIndex(
    (t, i) =>
      t.tags.includes('Verb') &&
      !t.tags.includes('Gerund') &&
      !t.tags.includes('Participle') &&
      (i === 0 || !isNoun(terms[i - 1].tags) || subjectThenVerb(terms, i)),
  );
  const relative = terms.findIndex((t) => /^(that|which|who)$/i.test(t.text));
  let shape: Shape = 'noun';
  if (copyVerbs.has(first) || (verbAt === 0 && terms[0].tags.includes('Infinitive'))) shape = 'imperative';
  else if (
    verbAt > 0 &&
    (relative < 0 || relative > verbAt) &&
    terms.slice(0, verbAt).some((t) => isNoun(t.tags) || t.tags.includes('Pronoun'))
  )
    shape = 'clause';
  const tokens: { first: Term; last: Term }[] = [];
  let start: Term | null = null;
  terms.forEach((t, i) => {
    start ??= t;
    if (/\s/.test(t.post) || i === terms.length - 1) {
      tokens.push({ first: start, last: t });
      start = null;
    }
  });
  if (tokens.length !== text.split(SPACES).length) return { shape, cuts: null, subjectEnds: [], heads: [] };
  const subjectEnd = shape === 'clause' ? tokens.findIndex((tok) => tok.first.tags.includes('Verb')) : -1;
  const cuts: number[] = [];
  // A word joined by "and" to a noun and followed by a preposition is a noun too, whatever the
  // tagger says ("colour and detail | with curves"; but "budgets and see | where…" is an action).
  const nounAt = (j: number) =>
    isNoun(tokens[j].last.tags) ||
    // "Drag and drop tasks | between days": an "-s" word after two joined words is their object,
    // however the tagger reads it (the checker's subjectThenVerb says the same).
    (j >= 3 &&
      /^(and|or|&)$/i.test(tokens[j - 2].first.text) &&
      /[^s]s$/i.test(tokens[j].last.text) &&
      tokens[j].last.tags.includes('Verb')) ||
    (j >= 2 &&
      /^(and|or|&)$/i.test(tokens[j - 1].first.text) &&
      isNoun(tokens[j - 2].last.tags) &&
      PREPOSITION.test(tokens[j + 1]?.first.text ?? ''));
  tokens.forEach((tok, j) => {
    const next = tokens[j + 1];
    // "week | by week", "step | by step": an idiom, not a clause.
    if (!next || QUANTITY.test(tok.last.text) || tokens[j + 2]?.last.text.toLowerCase().replace(/\W/g, '') === tok.last.text.toLowerCase())
      return;
    // After a noun and before a preposition, conjunction or relative clause: "Smart reminders | that adapt…".
    // The tagger reads some prepositions as adjectives ("races against players"): the word decides too.
    const opensClause =
      next.first.tags.some((g) => g === 'Preposition' || g === 'Conjunction') ||
      /^(that|which|who|so)$/i.test(next.first.text) ||
      PREPOSITION.test(next.first.text);
    // At a comma only when a new action follows ("Earn streaks, | celebrate…"), not inside a list ("iPhone, | iPad and…").
    const atComma = /[,;:–—]/.test(tok.last.post);
    // Before "and" only when an action or a clause follows ("emails | and Wayfarer builds…"), not a
    // second object ("curves and selective masks").
    const joinsAction = !/^(and|or|&)$/i.test(next.first.text) || tokens.slice(j + 2, j + 5).some((t) => t.first.tags.includes('Verb'));
    if (atComma ? isNoun(tok.last.tags) && next.first.tags.includes('Verb') : nounAt(j) && opensClause && joinsAction) cuts.push(j + 1);
  });
  // A clause's subject names its feature: "CarPlay and AirPlay support | built in".
  if (
    subjectEnd >= 2 &&
    isNoun(tokens[subjectEnd - 1].last.tags) &&
    tokens.slice(0, subjectEnd).filter((t) => isNoun(t.first.tags) || t.first.tags.includes('Adjective')).length >= 2
  )
    cuts.push(subjectEnd);
  // Before an aside of addition or example the phrase is whole: "Find rafter and beam sizes | , as
  // well as post spacing", "Earn badges | such as…", "… | , including…" (second recordings read, 4b).
  tokens.forEach((tok, j) => {
    if (j >= 2 && asideAt(tokens.slice(j, j + 3).map((t) => t.first.text.toLowerCase().replace(/[^\p{L}]/gu, '')))) cuts.push(j);
  });
  // Before a relative clause the head stands whole: "Make new friends nearby | who share…".
  tokens.forEach((tok, j) => {
    if (j >= 2 && /^(who|that|which)$/i.test(tok.first.text)) cuts.push(j);
  });
  // A verb that agrees with the noun before it ends that noun's phrase: "Bedtime tales told by
  // gentle narrators | help your thoughts…", past the participle and its agent.
  const subjectEnds = tokens.flatMap((tok, j) => {
    const at = terms.indexOf(tok.first);
    return j >= 2 && !/[,;:–—]/.test(tokens[j - 1].last.post) && subjectThenVerb(terms, at) ? [j] : [];
  });
  const thing = (tok: { first: Term; last: Term }) => isNoun(tok.first.tags) || tok.first.tags.includes('Adjective');
  const heads = subjectEnds.filter((j) => tokens.slice(0, j).every(thing));
  return { shape, cuts: [...new Set(cuts)], subjectEnds, heads };
}

/** The longest form a refused one is carried to: a headline, not the sentence again. */
const MAX_FORM_WORDS = 7;

/**
 * A form the checker refuses because it stops inside a constituent ("Bedtime tales told | by
 * gentle narrators", before the participle's agent), said whole as a copywriter would: carried on to
 * where that constituent ends, the next subject's end after it ("Bedtime tales told by gentle
 * narrators"), and, shorter, the bare noun phrase the participle told of ("Bedtime tales"). Only forms
 * whole by the checker's own rule; the length is the writer's to judge (it fits or is not said).
 */
function extended(text: string, refused: string[], t: Pick<Tagged, 'subjectEnds' | 'heads'>, whole: (f: string) => boolean): string[] {
  const tokens = text.split(SPACES);
  const said = (j: number) => tokens.slice(0, j).join(' ');
  return refused.flatMap((form) => {
    const n = form.split(SPACES).length;
    const on = t.subjectEnds.find((j) => j > n && j < tokens.length && j <= MAX_FORM_WORDS && whole(said(j)));
    const back = [...t.heads].reverse().find((j) => j < n && whole(said(j)));
    return [...(on ? [said(on)] : []), ...(back ? [said(back)] : [])];
  });
}

function coresOf(text: string, cuts: number[], dangling: Set<string>): string[] {
  const tokens = text.split(SPACES);
  const out: string[] = [];
  for (const k of [...cuts].sort((a, b) => b - a)) {
    if (k < 2 || k >= tokens.length) continue;
    const part = tidyEnd(tokens.slice(0, k).join(' '), dangling);
    // "Sync across iPhone" is not "Sync across iPhone, iPad and Apple Watch": never cut inside a
    // list, but after one its "and" closed ("Adjust light, colour and detail | with curves").
    const openList = part.includes(',') && !/,[^,]*\b(and|or|&)\s+[^,]+$/i.test(part);
    if (part.split(' ').length >= 2 && !openList && !/\b(and|or|&)$/i.test(part)) out.push(part);
  }
  return [...new Set(out)];
}

const longestFirst = (forms: string[]) => [...new Set(forms)].sort((a, b) => b.length - a.length);

/** "Podnest is the podcast player that…" → "The podcast player that…": the promise without the name. */
function promiseOf(sentence: string, name: string): string | null {
  const nameWords = words(name).slice(0, 2).join(' ');
  const m = /^(.+?)\s+(?:is|are)\s+((?:the|a|an|your)\s+.+)$/i.exec(sentence.replace(/[.!]+$/, ''));
  if (
    m &&
    words(m[1])
      .join(' ')
      .startsWith(words(nameWords)[0] ?? '\u0000')
  )
    return m[2].charAt(0).toUpperCase() + m[2].slice(1);
  return null;
}

export function analysePhrases(p: PhraseInput): Phrases {
  const seen = new Set<string>();
  // English phrases keep their last word ("support built in"); the tagger judges the ending later.
  const ends = p.english ? endWords('en', { particles: false }) : p.dangling;
  const keep = (r: Raw) => {
    const text = p.english && strandedPreposition(r.text) ? r.text.replace(END_PUNCT, '').trim() : tidyEnd(r.text, ends);
    const key = textKey(text);
    // Scripts written without spaces count about one word per three characters.
    const n = UNSPACED.test(text) ? Math.ceil(text.length / 3) : text.split(' ').length;
    if (!p.usable(text) || !key || seen.has(key) || n > 40 || (n < 2 && r.kind !== 'subtitle' && r.kind !== 'context')) return null;
    seen.add(key);
    return { ...r, text };
  };
  // The description's opening sentence is the promise when nothing the user or store wrote says it.
  const opening = p.raws.find((r) => r.kind === 'action' || r.kind === 'sentence' || r.kind === 'bullet');
  const promiseRaw = p.raws.find((r) => r.kind === 'context' || r.kind === 'subtitle');
  let promise: Raw | null = promiseRaw ?? null;
  if (!promise && opening) {
    const np = p.english ? promiseOf(opening.sentence, p.name) : null;
    promise = { text: np ?? opening.text, sentence: opening.sentence, kind: 'promise' };
  }
  const promiseKept = promise ? keep(promise) : null;
  const rest = p.raws
    .filter((r) => r !== promiseRaw && !(promise?.kind === 'promise' && r === opening))
    .map(keep)
    .filter((r): r is Raw => r !== null);
  const kept = [...(promiseKept ? [promiseKept] : []), ...rest].slice(0, p.maxPhrases);
  const steps = p.steps.map(keep).filter((r): r is Raw => r !== null);
  // "Acme is the budgeting companion…": the feature is what follows the name. (Not a held-out corpus listing's sentence: see test/planning/corpus/split.json.)
  const all = [...kept, ...steps].map((r) =>
    p.english && r.kind === 'sentence' ? { ...r, text: promiseOf(r.text, p.name) ?? r.text } : r,
  );
  const keywordish = new Set<string>();
  const proper = new Set<string>();
  const terms = p.english && all.length ? termsOf(all.map((k) => k.text)) : [];
  const freq = new Map<string, number>();
  const phrases: Phrase[] = all.map((r, i) => {
    const keywords = [...new Set(contentWords(r.text, p.language))];
    for (const k of keywords) freq.set(k, (freq.get(k) ?? 0) + 1);
    const t = p.english
      ? tag(r.text, terms[i], p.copyVerbs, keywordish, proper)
      : { shape: 'noun' as Shape, cuts: null, subjectEnds: [] as number[], heads: [] as number[] };
    const cuts = t.cuts ?? functionWordCuts(r.text, p.dangling);
    const sentence = p.usable(r.sentence) ? r.sentence.replace(SPACES, ' ').trim() : r.text;
    // A core ends where the phrase does, by the checker's own rule (checker/cut.ts): never "The
    // most relaxing block" of "…block puzzle", "Point your camera" of "…at a page", "Le mode" of
    // "Le mode pas à pas".
    const own = sentenceWords([r.text]);
    const whole = (core: string) => cutPhrase(core, own, NO_FRAME, undefined, p.english ? 'en' : p.language) === null;
    const said = [...coresOf(r.text, cuts, p.dangling), ...(p.english ? headlineForms(r.text) : participleForms(r.text, p.language))];
    // "Precisely solve roof equations": the action stands without the manner adverb that opens it,
    // a shorter whole form where the line is over a short headline (second recordings read, 4a).
    const adverb = p.english ? /^(\S+)\s+(\S.*)$/u.exec(r.text) : null;
    const unmannered =
      adverb && MANNER.test(adverb[1].toLowerCase())
        ? [r.text, ...said].flatMap((f) => {
            const rest = f.slice(adverb[1].length).trim();
            return f.startsWith(adverb[1]) && rest.split(SPACES).length >= 2 ? [rest.charAt(0).toUpperCase() + rest.slice(1)] : [];
          })
        : [];
    const forms = longestFirst([...said, ...unmannered]);
    const refused = forms.filter((f) => !whole(f));
    return {
      text: r.text,
      cores: longestFirst([...forms.filter((f) => !refused.includes(f)), ...extended(r.text, refused, t, whole)]),
      sentence,
      keywords,
      kind: r.kind,
      shape: t.shape,
      score: p.kindRank[r.kind] - i / 100,
      ...(r.purposeOf ? { purposeOf: r.purposeOf } : {}),
    };
  });
  const ranked = [...freq.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
  const nameWords = new Set(words(p.name));
  const keywords = ranked.filter((w) => !nameWords.has(w) && (!p.english || keywordish.has(w))).slice(0, 8);
  for (const ph of phrases) {
    ph.score += ph.keywords.filter((k) => keywords.includes(k)).length * 3 - Math.max(0, ph.text.split(' ').length - 8);
    ph.keywords = [...ph.keywords].sort((a, b) => Number(keywords.includes(b)) - Number(keywords.includes(a))).slice(0, 4);
  }
  const stepSet = new Set(phrases.slice(kept.length));
  const features = phrases.slice(promiseKept ? 1 : 0, kept.length);
  const problems = p.problems
    .map((r) => ({ ...r, text: tidyEnd(r.text, p.dangling) }))
    .filter((r) => r.text && p.usable(r.text))
    .map((r): Phrase => ({
      text: /\?$/.test(r.sentence.trim()) ? r.sentence.trim().replace(/\?+$/, '') : r.text,
      cores: [],
      sentence: r.sentence,
      keywords: contentWords(r.text, p.language).slice(0, 4),
      kind: 'sentence',
      shape: 'clause',
      score: 0,
    }));
  return { promise: promiseKept ? phrases[0] : null, phrases: features, steps: [...stepSet], problems, keywords, proper, keywordish };
}
