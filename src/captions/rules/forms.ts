/**
 * More of the listing's own words as headlines, for English listings: the shorter whole forms a
 * sentence can be said in, and the ideas a sentence holds besides its first ("Adjust light, colour
 * and detail with curves and selective masks" also names "Curves and selective masks"). Nothing is
 * paraphrased: each form is a run of the sentence's words. These are only candidates: a form the
 * caption checker does not pass (an unfinished cut, a repeat) is never written.
 */
import { nlp } from '../nlp.ts';
import type { Raw } from '../understand.ts';
import { normalise, words } from '../text.ts';
import { endsOnEndWord, endWords } from '../end-words.ts';

/** Words a clause, an aside or a modifier opens with: a cut before one can leave a whole phrase. */
const BOUNDARY = new Set(
  'with without for from in on to through over across into via at by before after when while as so that which who'.split(' '),
);
/** Verbs that hand the reader a thing: what the app "gives you" is the feature. */
const GIVING = /^(gives|brings|offers|provides|has|includes|features|adds|supports|lets you keep)$/i;
/** A form that leans on a word outside it: "Apply them", "Share it". */
const LEANS = /\b(it|them|they|this|these|those|its|their)\b/i;
const MAX_WORDS = 7;

const cap = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

/**
 * The sentence cut before each clause or aside ("Solve 10,000 puzzles | sorted by theme",
 * "Radar maps show storms | as they move"), shortest last; never inside a list left open
 * ("Avoid tolls, ferries" of "Avoid tolls, ferries or highways").
 */
export function cutForms(text: string): string[] {
  const tokens = normalise(text).split(' ');
  const out: string[] = [];
  for (let k = tokens.length - 1; k >= 2; k--) {
    const next = tokens[k].toLowerCase().replace(/[^\p{L}']/gu, '');
    const prev = tokens[k - 1];
    // A participle after a noun opens an aside too ("puzzles | sorted by theme"), and so does a
    // manner ("Round up purchases | automatically into your savings").
    const aside = BOUNDARY.has(next) || (/^[a-z]+ed$/.test(tokens[k]) && k + 1 < tokens.length) || /^[a-z]+ly$/.test(tokens[k]);
    // A comma is left to the tagger's cuts (./phrases.ts): here it is as often inside a list as after an idea.
    if (!aside || /[,;:–—]$/.test(prev)) continue;
    // "move | by move", "day | by day": an idiom, not an aside.
    if (tokens[k + 1]?.toLowerCase() === prev.toLowerCase()) continue;
    const part = tokens
      .slice(0, k)
      .join(' ')
      .replace(/[,;:–—]+$/u, '');
    const openList = /,\s/.test(part) && !/\b(and|or|&)\s+[^,]+$/i.test(part);
    // Inside a clause the form has opened ("Get alerts when items | on your list…") a cut leaves it half said.
    // A comparison's two "as" ("as many cities as you want") open no clause: the second closes the first.
    const compared = part.replace(/\bas\s+(?:many|much|few|little|often|far|long)\b(.*)\bas\b/i, '$1');
    const openClause = /\s(when|while|as|so|that|which|who|where|whenever|before|after)\s/i.test(` ${compared} `);
    // "Plan monthly budgets and see | where…": a second verb cut from what it sees.
    const bareVerb = /\b(and|or)\s+\S+$/i.test(part) && /^(that|which|who|when|as)$/.test(next);
    if (!openList && !openClause && !bareVerb && !endsOnEndWord(part, endWords('en'))) out.push(part);
  }
  return [...new Set(out)];
}

/**
 * Ideas a sentence names besides the one it opens with, each said in the listing's words:
 * - what comes "with" an action ("Learn openings with interactive lessons" → "Interactive lessons");
 * - what the app gives ("Pulse gives you short, intense workouts…" → "Short, intense workouts…");
 * - what the app does, its name dropped ("Routely gives you…", "Radar maps show storms…" stay);
 * - each part of a tagline without a verb ("Pro photo editing, no subscription" → both halves).
 */
export function moreIdeas(r: Raw, appName: string): Raw[] {
  const text = normalise(r.text);
  const out: string[] = [];
  // Only a last "with" whose words are a plain noun phrase: "with Apple Pencil in handwriting that…" is not one.
  const withTail = /^(?:\S+\s+){1,6}with\s+([^,;]+)$/i.exec(text);
  const tail = withTail?.[1] ?? '';
  if (
    tail.split(' ').length >= 2 &&
    !/\b(with|in|on|for|to|that|which|who|you|your)\b/i.test(tail) &&
    !/^(a|an|the|one|just|no)\b/i.test(tail)
  )
    out.push(tail);
  const name = words(appName)[0] ?? '\0';
  const subject = /^(\S+)\s+(\S+)\s+(.+)$/.exec(text);
  if (subject && words(subject[1])[0] === name && /s$/i.test(subject[2])) {
    if (GIVING.test(subject[2])) out.push(subject[3].replace(/^(you|users|people)\s+/i, ''));
    else if (!/^(is|was|has)$/i.test(subject[2])) out.push(`${subject[2]} ${subject[3]}`);
  }
  // "Scan barcodes in store to compare prices nearby": what the action is for is why the feature
  // matters, not a feature: it is marked with its action (`purposeOf`), and the writer says it only
  // over that action, never alone (fourth held-out read's "REMEMBER THE MOMENT." shape: docs/captions.md).
  // What a noun is for ("Inkwell is the fastest way to capture ideas") is the thing the app does.
  const purpose = /^(?:\S+\s+){2,}to\s+(\p{Ll}+(?:\s+[^\s,;]+){1,5})$/u.exec(text);
  const head = purpose ? text.slice(0, text.length - purpose[1].length).replace(/\s+to\s+$/, '') : '';
  // "…relics and upgrades to discover | along the way": a verb whose object is the noun before "to"
  // says what that noun is for, not why the action is done.
  const gapped = !!purpose && /^\S+\s+(along|on|in|at|with|for|from|through|by|during|throughout|over)\b/i.test(purpose[1]);
  const purposeOf = purpose && !gapped && purposeOfAction(head) ? head : null;
  if (purpose && nlp(`you can ${purpose[1]}`).has('^you can #Infinitive')) out.push(purpose[1]);
  // "Get reminders before bills are due": the light verb dropped leaves the thing and its point.
  const got = /^(?:get|receive)\s+(\p{Ll}+s\s+(?:when|before|after|for|about|if|whenever)\s.+)$/iu.exec(text);
  if (got) out.push(got[1]);
  // "Alternate tunings and a metronome are included": what is included.
  const included = /^(.+?)\s+(?:is|are)\s+(?:included|built in|built-in|supported|available)$/i.exec(text);
  if (included) out.push(included[1]);
  out.push(...actionsOf(text, name));
  // "Speed camera warnings and lane guidance keep you on track": two features in one subject.
  const terms = (nlp(text).json() as { terms: { text: string; tags: string[] }[] }[])[0]?.terms ?? [];
  const verbAt = terms.findIndex((t) => t.tags.includes('Verb'));
  const subjectWords = verbAt > 0 ? terms.slice(0, verbAt).map((t) => t.text) : [];
  const and = subjectWords.findIndex((w) => /^and$/i.test(w));
  if (and >= 2 && subjectWords.length - and - 1 >= 2 && !subjectWords.some((w) => /,$/.test(w)))
    out.push(subjectWords.slice(0, and).join(' '), subjectWords.slice(and + 1).join(' '));
  const pieces = text.split(/\s*[,;]\s+/);
  if (pieces.length === 2 && pieces.every((p) => p.split(' ').length >= 2 && p.split(' ').length <= 4)) out.push(...pieces);
  return out
    .map((t) => cap(normalise(t)))
    .filter((t) => t.split(' ').length >= 2 && t.split(' ').length <= 12 && !LEANS.test(t) && t !== cap(text))
    .map((t) => ({
      text: t,
      sentence: r.sentence,
      kind: r.kind === 'bullet' ? 'bullet' : ('sentence' as const),
      ...(purposeOf && purpose && t === cap(normalise(purpose[1])) ? { purposeOf: cap(normalise(purposeOf)) } : {}),
    }));
}

/** Whether the words before a "to …" tail do something ("Scan barcodes in store"), so the tail is their purpose. */
export function purposeOfAction(head: string): boolean {
  const h = head.toLowerCase().trim();
  // "Inkwell is the fastest way to…": a head that says what something is does nothing.
  if (nlp(h).has('#Copula')) return false;
  return nlp(`you can ${h}`).has('^you can #Infinitive') || nlp(h).match('#Verb').not('(#Copula|#Modal|#Auxiliary|#Gerund)').found;
}

/**
 * "Join small groups for walks, games and book clubs, chat before you meet, and see verified
 * profiles only": each action the sentence lists, where a comma or "and" is followed by a verb; a
 * list of things inside an action ("walks, games and book clubs") stays with it.
 */
function actionsOf(text: string, name: string): string[] {
  const parts = text.split(/(,\s*(?:and\s+|or\s+)?|\s+and\s+)/i);
  if (parts.length < 3) return [];
  const out: string[] = [parts[0]];
  for (let i = 1; i < parts.length; i += 2) {
    const piece = parts[i + 1] ?? '';
    const verb = nlp(piece.toLowerCase()).has('^#Verb') && !nlp(piece.toLowerCase()).has('^(#Gerund|#Copula|#Modal)');
    // "Forward booking emails and Wayfarer builds your itinerary": what the app does is an idea too.
    const appDoes = words(piece)[0] === name && nlp(piece.toLowerCase()).has('^. #Verb');
    if ((verb || appDoes) && piece.split(' ').length >= 2) out.push(piece);
    else out[out.length - 1] += parts[i] + piece;
  }
  return out.length >= 2 ? out : [];
}

/** Forms short enough to headline a slide, longest first. */
export const headlineForms = (text: string): string[] => cutForms(text).filter((f) => f.split(' ').length <= MAX_WORDS);

/** Participles that open an aside, by language: "Une liste de courses | générée automatiquement". */
const PARTICIPLE: Record<string, RegExp> = { fr: /^\p{L}{3,}(é|ée|és|ées)$/u };

/** A listing phrase in another language cut before a participle that follows its noun. */
export function participleForms(text: string, language: string): string[] {
  const participle = PARTICIPLE[language];
  if (!participle) return [];
  const tokens = normalise(text).split(' ');
  return tokens.flatMap((t, k) => (k >= 2 && participle.test(t) && !/[,;:]$/.test(tokens[k - 1]) ? [tokens.slice(0, k).join(' ')] : []));
}
