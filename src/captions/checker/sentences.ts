/**
 * The listing's sentences as the cut checks read them: split once per listing, tagged once per
 * sentence, and where a caption's words sit in one of them (`locate`, the voice's framing words
 * aside). Split from ./cut.ts (issue 29): finding the words apart from judging where they stop.
 */
import { taggedSentences, type TaggedTerm } from '../nlp.ts';
import { looksParticiple, normalise, participleBases, words } from '../text.ts';

type Term = TaggedTerm;

/** How many framing words a voice adds before or after the listing's words ("Now you can…", "…with Planny"). */
export const FRAME_HEAD = 3;
export const FRAME_TAIL = 4;

export const termsOf = (text: string): Term[] => taggedSentences(text.toLowerCase()).flatMap((s) => s.terms);

/** A listing sentence: its words, which of them a comma or dash follows, and the tagger's reading in context. */
export interface Sentence {
  words: string[];
  pause: boolean[];
  text: string;
}

/** The listing's sentences, for cutPhrase: split once per listing. */
export function sentenceWords(texts: string[]): Sentence[] {
  return texts
    .flatMap((t) => t.split(/\n+|(?<=[.!?…])\s+/u))
    .map((s) => normalise(s.replace(/^\s*(?:[-*•·▪►✓✔]|\d{1,2}[.)]|\d{1,2}\s*[-–—](?=\s*\p{L}))\s*/u, ''), { fold: true }))
    .map((text) => {
      // "turn-by-turn" is three words, as a caption's words() reads it; a comma after a token pauses its last.
      const tokens = text.split(' ').map((t) => ({ ws: words(t), pause: /[,;:–—]$/u.test(t) }));
      return {
        words: tokens.flatMap((t) => t.ws),
        pause: tokens.flatMap((t) => t.ws.map((_, i) => t.pause && i === t.ws.length - 1)),
        text,
      };
    })
    .filter((s) => s.words.length >= 2);
}

const tagMemo = new Map<string, Term[] | null>();
/** The sentence's terms, one per word, or null when the tagger splits words differently. */
export function tagged(s: Sentence): Term[] | null {
  let t = tagMemo.get(s.text);
  if (t === undefined) {
    // One term per word as words() reads them: "step-by-step" is one term of the tagger's, three words here.
    const terms = termsOf(s.text).flatMap((x) => words(x.text).map((w) => ({ text: w, tags: x.tags })));
    t = terms.length === s.words.length ? terms : null;
    if (tagMemo.size > 5000) tagMemo.clear();
    tagMemo.set(s.text, t);
  }
  return t;
}

/** Where `run` occurs in `sentence`, or -1. */
export function indexOf(sentence: string[], run: string[]): number {
  outer: for (let i = 0; i + run.length <= sentence.length; i++) {
    for (let j = 0; j < run.length; j++) if (sentence[i + j] !== run[j]) continue outer;
    return i;
  }
  return -1;
}

export const ACTION = (t: Term | undefined) =>
  !!t && t.tags.includes('Verb') && !t.tags.some((g) => ['Gerund', 'Modal', 'Copula', 'PastTense', 'Participle', 'Auxiliary'].includes(g));
export const PARTICIPLE = (t: Term | undefined) =>
  !!t && (t.tags.includes('PastTense') || t.tags.includes('Participle') || /ed$/.test(t.text));
export const NOUN = (t: Term | undefined) => !!t && t.tags.some((g) => /Noun|Acronym/.test(g)) && !t.tags.includes('Pronoun');

/**
 * A noun and then the verb it is the subject of: "Lane guidance | keeps you on track", "Radar maps |
 * show storms". A verb's bare form after a singular noun does not agree with it: there the tagger's
 * "verb" is the head of a noun compound ("The most relaxing block | puzzle on the app store").
 */
export function subjectThenVerb(terms: Term[], verbAt: number): boolean {
  const noun = terms[verbAt - 1];
  const verb = terms[verbAt];
  if (!NOUN(noun) || !verb?.tags.includes('Verb') || verb.tags.includes('Gerund')) return false;
  const bare = verb.tags.includes('Infinitive') && !/s$/i.test(verb.text);
  // "Speed camera warnings and lane guidance | keep you on track": two things are plural.
  let k = verbAt - 1;
  while (k > 0 && !terms[k - 1].tags.includes('Verb')) k--;
  const coordinated = terms.slice(k, verbAt - 1).some((t) => /^(and|&)$/i.test(t.text));
  // "Drag and drop | tasks between days": two things take a verb's bare form, so an "-s" word after
  // them is no verb of theirs: it is the object of two coordinated verbs ("drag", "drop").
  if (coordinated && !bare && /[^s]s$/i.test(verb.text)) return false;
  return !(bare && noun.tags.includes('Singular') && !noun.tags.includes('Plural') && !coordinated);
}

/** "YOUR CAMERA. POINTED.": the bold voice's recast of "Point your camera", as the listing's words. */
export function recastOf(text: string): string[] {
  const m = /^(.+?)[.!]\s+(\p{L}+)[.!]?$/u.exec(text.trim());
  if (!m || !looksParticiple(m[2])) return [];
  return participleBases(m[2]).map((base) => `${base} ${m[1].toLowerCase()}`);
}

export interface Found {
  run: string[];
  s: Sentence;
  at: number;
}

/** The longest run of the caption's words found in one listing sentence, the voice's framing words around it aside. */
export function locate(ws: string[], sentences: Sentence[], frame: Set<string>): Found | null {
  let best: Found | null = null;
  for (let head = 0; head <= Math.min(FRAME_HEAD, ws.length - 2); head++) {
    if (head > 0 && !frame.has(ws[head - 1])) break;
    for (let tail = 0; tail <= Math.min(FRAME_TAIL, ws.length - head - 2); tail++) {
      if (tail > 0 && !frame.has(ws[ws.length - tail])) break;
      const run = ws.slice(head, ws.length - tail);
      if (best && run.length <= best.run.length) continue;
      for (const s of sentences) {
        const at = indexOf(s.words, run);
        if (at >= 0) {
          best = { run, s, at };
          break;
        }
      }
    }
  }
  return best;
}
