/**
 * More shapes of an English listing phrase cut where it does not end, found on the real store
 * recordings (docs/reads/2026-11-29-recordings-after.md, "Top 3 patterns left" 1): real listings are
 * prose, and a prose sentence's parts promise what the rest of it says. Each function reads the
 * caption's words `run`, found at `at` in the listing sentence `sw` (tagged `terms`, a comma after a
 * word in `pause`), and says why the run is not whole, or null. ./cut.ts calls them; rules live here
 * only because cut.ts is already long (it will be split by another change).
 */
import { taggedSentences, type TaggedTerm } from '../nlp.ts';

type Term = TaggedTerm;
const verb = (t: Term | undefined) => !!t && t.tags.includes('Verb');
const noun = (t: Term | undefined) => !!t && t.tags.some((g) => /Noun|Acronym/.test(g)) && !t.tags.includes('Pronoun');
const goesOn = (run: string[], sw: string[], end: number) => `"${run.slice(-2).join(' ')} ${sw.slice(end, end + 4).join(' ')}…"`;

/** Verbs a copula or an auxiliary is: after an activity named as the subject, they open what is said of it. */
const SAYS_OF = /^(is|are|was|were|has|have|had|makes|made|gets|got|keeps|can|will|never|just|becomes|feels|takes)$/;

/**
 * "Staying on top of bills | has never been easier": an activity (a gerund) named as its sentence's
 * subject, stopped before the verb. A feature named as a subject stands ("Lane guidance | keeps you
 * on track": ./cut.ts, `subjectThenVerb`); an activity does not: alone it is a fragment, and what
 * the listing says of it (easier, faster, fun) was the point.
 */
export function activityCut(run: string[], sw: string[], at: number, terms: Term[] | null, subject: boolean): string | null {
  const end = at + run.length;
  if (at !== 0 || end >= sw.length || !terms?.[0]?.tags.includes('Gerund') || run.length < 2) return null;
  if (!subject && !SAYS_OF.test(sw[end])) return null;
  return `names the activity "${run.join(' ')}" and stops before what the listing says of it (${goesOn(run, sw, end)})`;
}

/** Gestures: what the finger does, which sells nothing until the line says what it does for the user. */
const GESTURE =
  /^(pull|pulls|swipe|swipes|tap|taps|double-tap|press|presses|long-press|drag|drags|shake|shakes|pinch|pinches|scroll|scrolls|flick|flicks|tilt|tilts|click|clicks)$/;

/**
 * "Swipe the card left | to archive it", "Shake your phone | and the timer resets": a gesture said
 * without what it does. The purpose after it is the feature; the gesture alone is only how.
 * "Drag and drop" is a feature's name of its own.
 */
export function gestureOnly(run: string[], sw: string[], at: number, pause: boolean[]): string | null {
  const end = at + run.length;
  if (end >= sw.length || !GESTURE.test(run[0]) || run[1] === 'and' || pause[end - 1]) return null;
  if (!/^(to|and|for)$/.test(sw[end])) return null;
  return `says only the gesture "${run.join(' ')}": what it does follows (${goesOn(run, sw, end)})`;
}

/** Words that say how much as a comparison ("as many … as", "as much … as"). */
const AS_AMOUNT = /^(many|much|few|little|often|far|long)$/;

/** "Add as many cities | as you like": a comparison stopped before its second "as". */
export function comparisonCut(run: string[], sw: string[], at: number): string | null {
  const end = at + run.length;
  if (sw[end] !== 'as') return null;
  const i = run.lastIndexOf('as');
  if (i < 0 || !AS_AMOUNT.test(run[i + 1] ?? '')) return null;
  return `stops before the second "as" of "${run.slice(i, i + 2).join(' ')} … as" (${goesOn(run, sw, end)})`;
}

/** Prepositions that open a sentence's setting: where, when, with what. */
const SETTING = /^(in|on|at|for|from|by|with|during|after|before|within|inside|under|over|across|through|without|throughout)$/;

/**
 * "In the desert mode, …", "With a free account, …", "To have a note pinned, just …": the opening
 * phrase of a sentence, its setting or its purpose, said as a headline without the main clause it
 * leads to. The main clause was what the sentence said.
 */
export function settingOnly(run: string[], sw: string[], at: number, terms: Term[] | null, text: string): string | null {
  const end = at + run.length;
  // "To-do lists…" is a noun, though its words read "to do".
  if (at !== 0 || end >= sw.length || !terms || run.length < 2 || /^to-/i.test(text)) return null;
  const purpose = run[0] === 'to' && verb(terms[1]) && !noun(terms[1]);
  const setting = SETTING.test(run[0]) && !terms.slice(1, end).some((t) => verb(t) && !t.tags.includes('Gerund'));
  if (!purpose && !setting) return null;
  return `opens its sentence with "${run.slice(0, 2).join(' ')}…" and stops before what the sentence says (${goesOn(run, sw, end)})`;
}

/** Words that open a clause whose subject then acts. */
const CLAUSE_OPENER = /^(when|whenever|if|while|after|before|once|until)$/;

/**
 * "Get a ping when neighbours like | and share your tips": the verb of a clause whose object it
 * shares with a second verb. Stopped before the "and", the first verb has lost what it acts on.
 */
export function sharedObjectCut(run: string[], sw: string[], at: number, terms: Term[] | null, pause: boolean[]): string | null {
  const end = at + run.length;
  if (!terms || end + 2 >= sw.length || !/^(and|or)$/.test(sw[end]) || pause[end - 1]) return null;
  const k = run.findIndex((w, i) => i > 0 && CLAUSE_OPENER.test(w));
  if (k < 0 || k + 2 >= run.length) return null;
  const last = terms[end - 1];
  if (!verb(last) || noun(last) || last.tags.includes('Gerund') || !verb(terms[end + 1]) || noun(terms[end + 1])) return null;
  return `stops on "${run[run.length - 1]}", which shares what it acts on with "${sw[end + 1]}" (${goesOn(run, sw, end)})`;
}

/**
 * "Share notes | , sketches and voice memos": an action's object cut to the first thing of a list of
 * things. The rest of the list was what the action covers; a verb after the comma opens a second
 * action instead ("Track habits, set goals and view charts").
 */
export function objectListCut(run: string[], sw: string[], at: number, terms: Term[] | null, pause: boolean[]): string | null {
  const end = at + run.length;
  if (!terms || end >= sw.length || !pause[end - 1] || run.length < 2) return null;
  // The tagger takes a bullet's opening verb for a noun ("Post photos…"): read it after "you can".
  const first = at === 0 ? taggedSentences(`you can ${run[0]}`)[0]?.terms[2] : terms[at];
  if (!verb(first) || noun(first) || !noun(terms[end - 1]) || verb(terms[end - 1])) return null;
  // Only the verb's own object: after a preposition the list is of names the first one stands for
  // ("Export to full-size JPEG | , HEIC or TIFF" keeps its point; a shorter form, docs/captions.md).
  // The tagger reads "to" as a conjunction: the words say it.
  if (run.slice(1).some((w, i) => terms[at + 1 + i].tags.includes('Preposition') || SETTING.test(w) || w === 'to')) return null;
  // The rest is a list of things: nouns (and their words) up to an "and"/"or", no verb among them.
  for (let i = end; i < Math.min(sw.length, end + 6); i++) {
    if (/^(and|or)$/.test(sw[i])) return i > end ? `stops inside the list of what "${run[0]}" takes (${goesOn(run, sw, end)})` : null;
    if (verb(terms[i]) && !noun(terms[i])) return null;
  }
  return null;
}

/** Nouns and comparatives whose point is where they lead: "your passport | to…", "closer | to…". */
const LEADS_TO = /^(passport|gateway|ticket|key|door|doorway|path|road|shortcut|bridge|closer|nearer)$/;
/** Verbs said of oneself that need where: "immerse yourself | in…", "surround yourself | with…". */
const INTO_VERB = /^(immerse|immerses|surround|surrounds|lose|loses|submerge|submerges|plunge|plunges|familiarize|familiarise|acquaint)$/;
const SELF = /^(yourself|yourselves|themselves|himself|herself|ourselves|myself|oneself)$/;

/**
 * "Your ticket | to a night out", "Every match brings you closer | to the cup", "Immerse yourself |
 * in…": a word whose complement is obligatory, stopped before it. Said alone the line leads nowhere,
 * and split into headline and subheadline it reads as two (call d of the reads: a sub that is its
 * headline's obligatory complement). `at`: where the complement starts in `sw`.
 */
export function complementCut(sw: string[], at: number): string | null {
  const prev = sw[at - 1];
  const next = sw[at];
  if (!prev || !next) return null;
  if (LEADS_TO.test(prev) && next === 'to') return `splits "${prev}" from the "to" it needs ("${sw.slice(at - 2, at + 3).join(' ')}…")`;
  if (SELF.test(prev) && INTO_VERB.test(sw[at - 2] ?? '') && /^(in|into|with)$/.test(next))
    return `splits "${sw[at - 2]} ${prev}" from the "${next}" it needs ("${sw.slice(at - 2, at + 3).join(' ')}…")`;
  return null;
}

/**
 * "Open your recently | added files": an adverb that modifies the next word, a participle or an
 * adjective before its noun, split from it. A manner adverb that ends its verb phrase stands
 * ("Round up purchases automatically | into savings").
 */
export function modifierCut(run: string[], sw: string[], at: number, terms: Term[] | null): string | null {
  const end = at + run.length;
  const tail = terms?.[end - 1];
  const next = terms?.[end];
  if (!tail || !next || !/ly$/.test(run[run.length - 1]) || !tail.tags.includes('Adverb')) return null;
  // Before the noun it modifies: the tagger reads some plurals after a participle as verbs ("added files").
  const after = terms?.[end + 1];
  const modifies =
    (/ed$/.test(sw[end]) || next.tags.includes('Adjective')) &&
    !!after &&
    !after.tags.some((g) => /Preposition|Conjunction|Determiner|Adverb/.test(g)) &&
    !/^(to|and|or|by|than)$/.test(sw[end + 1]);
  return modifies ? `stops inside "${sw.slice(end - 1, end + 2).join(' ')}": "${run[run.length - 1]}" says how "${sw[end]}" is` : null;
}

/**
 * "Classes start every hour and | last 45 minutes", "The app will sort your receipts and | email you
 * a summary": the second verb of a clause whose subject is a thing, not the reader. Said alone it
 * reads as an order to the reader, and what it says of its subject is lost. "Gardenly helps you
 * plan and | share…" keeps its subject: the reader is who shares.
 */
export function subjectDropped(run: string[], sw: string[], at: number, terms: Term[] | null, pause: boolean[]): string | null {
  if (at < 3 || !terms || !/^(and|or)$/.test(sw[at - 1]) || pause[at - 2]) return null;
  const first = terms[at];
  if (!verb(first) || noun(first) || first.tags.some((g) => g === 'Gerund' || g === 'PastTense')) return null;
  // The clause before the "and": back to the last comma.
  let k = at - 2;
  while (k > 0 && !pause[k - 1]) k--;
  const v = terms.slice(k, at - 1).findIndex((t) => verb(t) && !noun(t));
  if (v <= 0) return null;
  const subject = terms[k + v - 1];
  if (!subject.tags.includes('Noun') || /^(you|your|i)$/.test(sw[k + v - 1])) return null;
  // "…helps you plan and | share": the reader is the one who acts.
  if (sw.slice(k + v, at - 1).some((w) => /^(you|users|people)$/.test(w))) return null;
  return `starts on "${run[0]}", whose subject is "${sw[k + v - 1]}" ("${sw.slice(k + v - 1, at + 1).join(' ')}…"): alone it reads as an order`;
}

/**
 * Whether the words from `ws[0]` open an aside of addition or example ("as well as", "such as",
 * "including"): the phrase before it is whole ("Find rafter and beam sizes | , as well as post
 * spacing", "Earn badges | such as gold stars"). Second recordings read, pattern 4b: the writer never
 * cut there and the checker refused the cut as stopping before "such". Both ask this.
 */
export function asideAt(ws: readonly string[]): boolean {
  const [a, b, c] = ws;
  return (a === 'as' && b === 'well' && c === 'as') || (a === 'such' && b === 'as') || a === 'including';
}
