/**
 * English clauses stopped after their verb, the object or complement left behind: "We help", "We
 * provide you", "Thousands of makers have", "Charts are now", "The app is divided", "If you are
 * signed". Real listings are prose, not bullets, and a prose sentence's first words are a subject
 * and a verb that promise the rest (recordings read, 2026-11-29: T was 37 % of delivered slides).
 * `danglingClause` reads the caption alone; `leftBehind` reads it against the listing sentence it
 * was cut from (called from ./cut.ts, which holds the other cut rules).
 */
import type { TaggedTerm } from '../nlp.ts';
import { normalise, words } from '../text.ts';

/** A clause these open needs a main clause after it: said alone it is only the condition. */
const SUBORDINATOR = /^(if|when|whenever|because|while|although|though|unless|whereas)$/;
/** Verbs that need what they act on: "We help", "It provides". */
const NEEDS_OBJECT =
  /^(help|helps|provide|provides|give|gives|let|lets|make|makes|offer|offers|allow|allows|enable|enables|bring|brings|include|includes|need|needs|want|wants|contain|contains|fetch|fetches|send|sends|show|shows|keep|keeps|put|puts|support|supports|deliver|delivers|feature|features)$/;
/** Verbs of giving, whose first object is only the receiver: "We provide you | with…". */
const GIVES =
  /^(provide|provides|give|gives|offer|offers|bring|brings|send|sends|show|shows|let|lets|allow|allows|help|helps|enable|enables|get|gets)$/;
const RECEIVER = /^(you|us|them|me|him|her|users|people)$/;
/** A clause's subject when it opens the caption: what follows is that clause's verb. */
const SUBJECT = /^(we|you|i|they|it|he|she|this|that|everyone|everybody)$/;
/** Auxiliaries that say nothing without the verb after them ("Millions of players have"). */
const AUXILIARY = /^(have|has|had|do|does|did)$/;
/** Pronouns after which a final "have" is the verb of a relative clause: "Everything you have". */
const RELATIVE_SUBJECT = /^(you|we|they|i|he|she|it|who|that|which)$/;
const BE = /^(is|are|was|were|be|been|being|am|'s|’s)$/;
/** Adverbs a copula may stand before, which leave its complement unsaid: "Maps are now". */
const BE_ADVERB =
  /^(now|also|still|always|even|just|already|often|never|then|so|very|fully|completely|automatically|currently|easily|really|truly)$/;
/**
 * Participles and verbs that need their preposition and its noun: "is divided | into", "are logged
 * | in", "comes | with", "is based | on". Said without it the line names an arrangement, not a point.
 */
const COMPLEMENT_VERB =
  /^(divided|split|logged|signed|based|composed|located|tailored|tailor-made|geared|aimed|suited|dedicated|devoted|comes|come|belongs|belong|consists|consist|depends|depend|relies|rely|refers|refer)$/;
const PREPOSITION = /^(in|into|on|onto|to|with|for|of|from|at|by|as|about|towards?|up)$/;
/** Words that open a subject naming one particular thing, which the sentence then says something of. */
const DETERMINER = /^(the|every|each|your|our)$/;
const TIME_ADVERB = /^(today|now|currently|tonight)$/;

/** Why the English caption `text`, read alone, stops after its verb or opens only a condition; or null. */
export function danglingClause(text: string, alone: boolean): string | null {
  const ws = words(normalise(text, { fold: true }));
  if (ws.length === 0) return null;
  const last = ws[ws.length - 1];
  const prev = ws[ws.length - 2] ?? '';
  // "If you are logged in": only the condition, the main clause left in the listing. Not a
  // subheadline that finishes its headline ("Back up your notes / When you close the app").
  if (alone && SUBORDINATOR.test(ws[0]) && !/[,;:–—]/u.test(text)) return `opens on "${ws[0]}": a condition with no main clause`;
  // "Is built for teams": a verb whose subject stayed in the sentence before (a quote split at a "!").
  if (alone && BE.test(ws[0]) && ws.length >= 2 && !/\?$/.test(text.trim())) return `opens on "${ws[0]}": its subject is left out`;
  // "The app will then sort your photos", "Same for your albums": a step or a list's next item that
  // points back at a line said before it; on a slide of its own that line is not there.
  // Under a headline too: the line a "same for" points at is the listing's sentence before, not the headline.
  const pointsBack = pointsBackAt(ws, alone);
  if (pointsBack) return pointsBack;
  if (ws.length <= 4 && SUBJECT.test(ws[0]) && NEEDS_OBJECT.test(last) && prev !== 'to')
    return `ends on "${last}", whose object is left out`;
  if (GIVES.test(prev) && RECEIVER.test(last) && ws[ws.length - 3] !== 'to' && ws.length <= 5)
    return `ends on "${prev} ${last}": what is given is left out`;
  if (AUXILIARY.test(last) && ws.length >= 2 && !RELATIVE_SUBJECT.test(prev)) return `ends on "${last}", which needs its verb`;
  if (BE.test(prev) && BE_ADVERB.test(last)) return `ends on "${prev} ${last}", which needs what it is`;
  if (BE.test(prev) && COMPLEMENT_VERB.test(last)) return `ends on "${prev} ${last}", which needs what follows it`;
  return null;
}

/** Words before "then" that make it a step of the line itself: "and then", "first…, then", "since then". */
const THEN_OWN = /^(and|or|first|since|until|till|just|back|even|by|from|but)$/;
/** Openers that name a step before "then" in the same line: "When you land, then…" is rare; "If…, then" is its own. */
const OWN_STEP = /^(if|when|once|first|after|whenever)$/;

/**
 * "The app will then sort your photos", "Then share it", "Same for your albums", "Likewise for
 * videos": "then" as the next step, or "same for" as the next item, points at what the listing said
 * just before. On a slide of its own that line is not there, so the slide starts in the middle.
 */
function pointsBackAt(ws: string[], alone: boolean): string | null {
  if (/^(same|likewise)$/.test(ws[0]) || (ws[0] === 'the' && ws[1] === 'same' && /^(for|goes|with|applies)$/.test(ws[2] ?? '')))
    return `opens on "${ws.slice(0, ws[0] === 'the' ? 2 : 1).join(' ')}", pointing at a line said before it`;
  // Under a headline "then" may be the headline's next step ("Scan the page / Then share it").
  const i = alone ? ws.indexOf('then') : -1;
  if (i < 0 || ws.slice(0, i).some((w) => OWN_STEP.test(w)) || (i > 0 && THEN_OWN.test(ws[i - 1]))) return null;
  // "Then" after a verb is its object's time ("back then"); after the subject or a modal it is the next step.
  if (i === 0 || /^(will|can|would|could|may|might|should|must|'ll|you|we|it|they|app|then)$/.test(ws[i - 1]))
    return `says "then", the next step after one said before it`;
  return null;
}

const NOUNISH = (t: TaggedTerm | undefined) =>
  !!t && (t.tags.some((g) => /Noun|Adjective|Acronym/.test(g)) || /ed$/.test(t.text)) && !t.tags.includes('Pronoun');

/**
 * Why `run` (the caption's words, found at `at` in the listing sentence `sw`, tagged `terms`) stops
 * where the sentence's verb or complement follows; or null. `subject`: the sentence's verb follows.
 */
export function leftBehind(run: string[], sw: string[], at: number, terms: TaggedTerm[] | null, subject: boolean): string | null {
  const end = at + run.length;
  const next = sw[end];
  const tail = run[run.length - 1];
  if (next === undefined) return null;
  const goesOn = `"${run.slice(-2).join(' ')} ${sw.slice(end, end + 3).join(' ')}…"`;
  // "Millions of players have | built…", "Charts are | shown…": an auxiliary before its verb.
  const verbNext = !!terms?.[end]?.tags.includes('Verb') || /ed$/.test(next);
  if ((AUXILIARY.test(tail) || BE.test(tail)) && run.length >= 2 && verbNext) return `stops on "${tail}", before its verb (${goesOn})`;
  // "Each school comes | with…", "The board is split | into…": the complement is the point.
  if (COMPLEMENT_VERB.test(tail) && PREPOSITION.test(next)) return `stops after "${tail}", before what it needs (${goesOn})`;
  // "The saved songs | are kept offline", "Every right answer | brings you closer": a subject
  // that names one thing of the sentence, stopped before what the sentence says of it.
  // "Today the balance | is…": a time adverb before the subject changes nothing.
  const d = DETERMINER.test(run[0]) ? 0 : TIME_ADVERB.test(run[0]) && DETERMINER.test(run[1] ?? '') ? 1 : -1;
  if (subject && terms && d >= 0 && run.length - d >= 2 && run.length - d <= 5) {
    const thing = terms.slice(at + d + 1, end);
    if (thing.every((t) => NOUNISH(t) && !t.tags.includes('Superlative') && !/est$/.test(t.text)))
      return `names the subject "${run.join(' ')}" and stops before what the listing says of it (${goesOn})`;
  }
  // "Bring your ideas | to life": the verb's second half.
  if (/^(bring|brings|turn|turns)$/.test(run[0]) && run.length >= 2 && /^(to|into)$/.test(next))
    return `stops before "${next}": "${run[0]}" needs where it brings its object (${goesOn})`;
  return null;
}

/** Words that open a clause whose subject then acts: "when friends like and comment…". */
// Not "as": "Save your looks as presets and | apply them…" names what they become, not who acts.
const CLAUSE_OPENER = /^(when|whenever|if|while|after|before|once|until)$/;

/**
 * "Get notified when friends like and | comment on your posts": the second verb of a clause whose
 * subject is someone else. Said alone it reads as the reader's action, so who acts has changed.
 * `at`: where the caption's words start in the listing sentence `sw`; `pause`: a comma after a word.
 */
export function sharedSubject(sw: string[], at: number, terms: TaggedTerm[] | null, pause: boolean[]): string | null {
  if (at < 4 || !/^(and|or)$/.test(sw[at - 1]) || !terms) return null;
  for (let k = at - 3; k >= 0; k--) {
    if (pause[k]) return null;
    if (!CLAUSE_OPENER.test(sw[k])) continue;
    const who = terms[k + 1];
    if (!who || /^(you|your)$/.test(who.text) || !who.tags.some((g) => /Noun|Pronoun/.test(g))) return null;
    // A subject and its own verb ("when friends like"): a preposition's noun ("before bedtime and") is none.
    if (!terms[k + 2]?.tags.includes('Verb')) return null;
    return `starts on "${sw[at]}", whose subject is "${sw[k + 1]}" ("${sw.slice(k, at + 1).join(' ')}…"): alone it reads as the reader's action`;
  }
  return null;
}
