/**
 * Whether a caption is a listing sentence cut where its phrase does not end: "Planny was part" of
 * "Planny was part of your day", "Get alerts when items" of "Get alerts when items on your list go on
 * sale", "To nearby devices" of "Send files to nearby devices". A shorter form of a sentence is whole
 * only when it stops before a clause or an aside ("Smart reminders | that adapt…") and every clause it
 * opens is finished; a later part of a sentence stands only when it opens as a phrase of its own (a
 * verb, "with…", "for…"). In English the tagger decides what a verb is; French, Spanish, Portuguese
 * and Italian are read by their function words (`cutRomance`).
 */
import { type TaggedTerm } from '../nlp.ts';
import { closedEnding } from './complete.ts';
import { danglingClause, leftBehind, sharedSubject } from './dangling.ts';
import { MANNER, normalise, words } from '../text.ts';
import { ACTION, locate, NOUN, PARTICIPLE, recastOf, tagged, subjectThenVerb, termsOf, type Sentence } from './sentences.ts';
import { cutGerman, cutRomance, ROMANCE } from './cut-languages.ts';
import {
  activityCut,
  asideAt,
  comparisonCut,
  complementCut,
  gestureOnly,
  modifierCut,
  objectListCut,
  settingOnly,
  sharedObjectCut,
  subjectDropped,
} from './whole-phrase.ts';

/** Words a phrase may end before: a clause, an aside, a second action. Never "of": "part | of" is one phrase. */
const NEXT_OPENS = new Set(
  'with without for from in on to through over across into via at by before after when while as so that which who where and or but because if until whenever wherever plus like using against among between within'.split(
    ' ',
  ),
);
/** Verbs that take an object: a run that ends on one while its sentence goes on has lost it. */
const TAKES_OBJECT = /^(need|needs|want|wants|have|has|get|gets|make|makes|find|finds|try|tries)$/;
/** Words that open a clause inside the form: what follows them must have its verb in the form too. */
const SUBORDINATE = /^(when|while|if|because|where|whenever|until|once|as soon as)$/;
/** A later part of a sentence may open with these and stand alone. */
const STANDALONE = new Set(
  'with without for in on across anywhere everywhere right straight at through over around under while against'.split(' '),
);
/** "Grow | week by week", "Track bills | every month", "Practise them | later": an adverb of time or frequency the phrase is whole without. */
const TIME_NOUN = /^(day|days|week|weeks|month|months|year|years|morning|night|evening|time|season)$/;
const WHEN_ADVERB = /^(daily|weekly|monthly|yearly|today|tonight|tomorrow|anytime|again|later|together|instantly|faster)$/;
const timeAdverbial = (sw: string[], i: number, terms: Term[] | null = null): boolean =>
  (WHEN_ADVERB.test(sw[i]) && !nounModifier(terms, i)) ||
  (sw[i + 1] === 'by' && sw[i + 2] === sw[i]) ||
  (/^(every|each|all|this|next)$/.test(sw[i]) && TIME_NOUN.test(sw[i + 1] ?? ''));
/** Contractions and modals that always need their verb: "First you'll", "You can". */
const NEEDS_VERB = /^(\S+['’](ll|d|re|ve)|can|will|would|should|could|must|may|might|shall|is|are|was|were|be|been)$/i;
/** Verbs whose object needs the place it goes: "Point your camera | at a page", "Put your phone | on the stand". */
export const PLACE_VERBS =
  /^(point|points|pointing|aim|aims|aiming|put|puts|putting|place|places|placing|hold|holds|holding|position|positions)$/;
/** Prepositions of place or direction such a verb takes. */
const PLACE = /^(at|on|in|into|onto|to|toward|towards|over|under|near|inside|against)$/;
/** "FileBox shows everything | on your phone": a pronoun of everything, whose scope the next phrase gives. */
export const UNIVERSAL = /^(everything|anything|something|nothing|everyone|anyone|someone|everybody|anybody)$/;
/** Prepositions that give such a pronoun its scope ("everything on your phone", "anything in your library"). */
const SCOPE = /^(on|in|at|from|inside|within|of|across)$/;

/** A notice the app sends, and the words that say when it comes: "a nudge | before the soil dries out". */
const NOTICE = /^(nudges?|reminders?|alerts?|notifications?|pings?|warnings?|notices?|heads-ups?)$/;
const CONDITION = /^(before|when|whenever|if|until|after|once)$/;

type Term = TaggedTerm;
/**
 * "fight | weekly guild wars", "get | daily goals": a word in -ly (or of WHEN_ADVERB) before a noun is
 * that noun's adjective, the start of the verb's object, not an adverb the phrase is whole without.
 */
const nounModifier = (terms: Term[] | null, i: number): boolean =>
  !!terms &&
  !!terms[i]?.tags.includes('Adjective') &&
  !!terms[i + 1]?.tags.some((g) => /Noun/.test(g)) &&
  !terms[i + 1].tags.includes('Pronoun');
/** "Your mix keeps playing | in the background…": verbs of going on, which say nothing until the phrase says where or when. */
const GOES_ON = /^(keep|keeps|kept|continue|continues|stay|stays|remain|remains|carry|carries)$/;
/** "…and works | offline", "It just runs | in the background": a verb alone that says only that something happens. */
const BARE_HAPPENS = /^(works|work|runs|run|happens|happen|goes|plays|play|playing|running|working)$/;
/** Verbs that say only that something is done, whatever the app: "add", "get". Their object and what follows make the point. */
const LIGHT_VERBS = /^(add|adds|get|gets|have|has|make|makes|take|takes|use|uses|receive|receives|see|do|create|creates|enter|view)$/;
/** Nouns whose point is what they reach: "access | to every document", "compatibility | with…". */
const RELATIONAL = /^(access|compatibility|integration|connection|connections)$/;
/** Adverbs that say "only for" and need the for-whom: "Designed exclusively | for macOS". */
const RESTRICTING = /^(exclusively|specifically|especially|solely|purely|uniquely)$/;
/** Words for people: after "connect with", "chat with", whom the action is with. */
const PEOPLE =
  /^(people|friends|family|families|others|everyone|anyone|colleagues|coworkers|teammates|players|users|neighbours|neighbors|kids|parents)$/;
/** Particles of phrasal verbs that go on with a preposition: "keep up | with you", "look forward | to". */
const PARTICLE = /^(up|along|forward|out|away|back)$/;

/** Where a listing's step label ends: 2 after "Step 2", 1 after "2", else 0. */
const stepLabelEnd = (sw: string[]): number => (sw[0] === 'step' && /^\d+$/.test(sw[1] ?? '') ? 2 : /^\d+$/.test(sw[0] ?? '') ? 1 : 0);

/**
 * Why a short form stops before the words that make its point, though it parses: the listing goes
 * on with what the words it keeps only announce (docs/captions.md, "A short headline keeps its
 * point"). `run`: the caption's words as found in the sentence `sw`, ending at `end` (< sw.length).
 */
function pointCut(run: string[], sw: string[], end: number, pause: boolean[]): string | null {
  if (pause[end - 1]) {
    // "Works with iCloud | , Google and Exchange calendars": the first item of a list of names.
    const item = run.length >= 2 && /^(with|for|on|in|from|to|and|across|via)$/.test(run[run.length - 2]);
    if (item && (/^(and|or|&)$/.test(sw[end + 1] ?? '') || pause[end]))
      return `stops inside a list: the listing's sentence goes on "${run.slice(-2).join(' ')}, ${sw.slice(end, end + 4).join(' ')}…"`;
    return null;
  }
  const next = sw[end];
  const tail = run[run.length - 1];
  const goesOn = `"${run.slice(-2).join(' ')} ${sw.slice(end, end + 4).join(' ')}…"`;
  // "Add tasks | in plain language…", "Get alerts | when items… drop in price": a light verb and a
  // bare noun name what every app of its kind does; the rest of the sentence was the point.
  // "Add stickers | in a tap" keeps its point: what is left is only how fast.
  const speed = /^(in|within|with) (seconds|minutes|moments|(a|one|a single|two) (tap|click|swipe)s?)\b/.test(sw.slice(end).join(' '));
  if (run.length === 2 && LIGHT_VERBS.test(run[0]) && !speed && !/^(and|or|but|so|because)$/.test(next))
    return `says only "${run.join(' ')}", which any app of its kind does: the listing's point follows (${goesOn})`;
  // "Offline access | to every document": access to what?
  if (RELATIONAL.test(tail) && /^(to|with|for|between)$/.test(next)) return `stops before what "${tail}" reaches (${goesOn})`;
  if (RESTRICTING.test(tail) && /^(for|to|with|on)$/.test(next)) return `stops before what "${tail}" restricts it to (${goesOn})`;
  // "To-do lists that keep up | with you": a phrasal verb cut from its preposition.
  if (PARTICLE.test(tail) && run.length >= 2 && /^(with|to|on|of|from)$/.test(next))
    return `stops inside "${run[run.length - 2]} ${tail} ${next}" (${goesOn})`;
  // "Plans for beginners | through to athletes", "from 10 | to 45 minutes": a range cut at its start.
  if ((next === 'through' && /^(to|until)$/.test(sw[end + 1] ?? '')) || (/^(to|through|until)$/.test(next) && run.includes('from')))
    return `stops inside a range: the listing says ${goesOn}`;
  return null;
}

/**
 * The listing sentence `text` was taken from, when it is a part of one and not the whole: the words
 * of the sentence ("Jump, spin and climb to the summit" for "Jump, spin and climb"), else null.
 */
export function sentenceCutFrom(text: string, sentences: Sentence[], frame: Set<string>): string[] | null {
  const ws = words(normalise(text, { fold: true }));
  const best = ws.length > 0 ? locate(ws, sentences, frame) : null;
  return best && best.run.length < best.s.words.length ? best.s.words : null;
}

/** Object and reflexive pronouns of the languages read here: they say whom, never what. */
const PRONOUNS =
  /^(you|me|us|them|it|te|tu|vous|nous|me|se|le|la|les|lo|los|las|nos|os|ti|ci|vi|gli|dir|dich|mir|mich|uns|euch|sich|ihm|ihn|ihnen)$/;

/**
 * "Calma Diaria te acompaña | con meditaciones guiadas…", "Kraftwerk erstellt dir | einen Plan": a
 * sentence cut after the app's name and its verb. What is left says only that the app does
 * something; the feature was in what the cut took. `ws`: the caption's words; `frame`: the voice's
 * words and the app's name; `name`: the app's name's words, one of which the caption holds.
 */
function nameAndVerbOnly(
  ws: string[],
  sentences: Sentence[],
  frame: Set<string>,
  name: Set<string>,
  language: string,
  brand: string[],
): string | null {
  const own = ws.filter((w) => !frame.has(w) && !PRONOUNS.test(w));
  if (own.length !== 1 || ws.length < 2 || !ws.some((w) => name.has(w))) return null;
  const best = locate(ws, sentences, frame);
  if (!best || best.at + best.run.length >= best.s.words.length || best.s.pause[best.at + best.run.length - 1]) return null;
  const { run, s, at } = best;
  // "Sleep stories" of "Drift: Sleep Sounds", "Thousands of recipes" of "Forkful Recipes": a word
  // of the name inside the listing's own noun phrase, not the app doing something. In English the
  // tagger tells the noun from the verb. Not where the voice adds the name ("Get alerts with Cartwheel
  // Deals"), nor on the brand itself, the app's own subject ("Lullo blends", however it is tagged).
  const terms = language === 'en' ? tagged(s) : null;
  const word = run.includes(own[0]) ? terms?.[at + run.indexOf(own[0])] : undefined;
  const nameInRun = ws.filter((w) => name.has(w)).every((w) => run.includes(w));
  // The brand is the name before its tagline, every word of it ("My Day", "Calma Diaria"), said as a
  // run; without it, the name's first content word (code review: "Day" alone is no brand).
  const named = brand.length > 0 ? ws.some((_, i) => brand.every((b, k) => ws[i + k] === b)) : ws.includes([...name][0]);
  if (word && nameInRun && !named && (NOUN(word) || word.tags.includes('Value')) && !word.tags.includes('Verb')) return null;
  return `says only that the app "${own[0]}": the listing's sentence goes on "${run.slice(-2).join(' ')} ${s.words.slice(at + run.length, at + run.length + 3).join(' ')}…"`;
}

/**
 * Why `text` is a sentence cut where its phrase does not end, or null. `frame`: the voice's own
 * words (and the app's name), which may stand around the listing's words. `headline`: for a
 * subheadline, the line above it: the rest of a sentence whose start is the headline may open on
 * "with…" ("Step-by-step cooking mode / With built-in timers"); under another headline it may not
 * ("Free up storage / Without mobile data" of "Send files to nearby devices without mobile data").
 */
export function cutPhrase(
  text: string,
  sentences: Sentence[],
  frame: Set<string>,
  headline?: string,
  language = 'en',
  name: Set<string> = new Set(),
  /** The app's name before its tagline, as words ("my", "day"); absent: its first content word stands for it. */
  brand: string[] = [],
): string | null {
  const ws = words(normalise(text, { fold: true }));
  if (ws.length === 0) return null;
  const bare = nameAndVerbOnly(ws, sentences, frame, name, language, brand);
  if (bare) return bare;
  if (language === 'de') return cutGerman(ws, sentences, frame, headline);
  if (language !== 'en') return ROMANCE[language] ? cutRomance(ws, sentences, frame, language, headline) : null;
  // A recast says its phrase whole or not at all: "Unlimited habits. Tracked." of "Track unlimited
  // habits | with a single tap", but never "Your camera. Pointed." of "Point your camera | at a page".
  for (const said of recastOf(text)) {
    const sws = words(normalise(said, { fold: true }));
    if (locate(sws, sentences, new Set())?.run.length !== sws.length) continue;
    const why = cutPhrase(said, sentences, frame, headline);
    return why && `recasts "${said}", which ${why}`;
  }
  const last = ws[ws.length - 1];
  // "Everywhere you are", "Know where your money is": a clause that closes on its verb.
  if (NEEDS_VERB.test(last) && !closedEnding(text)) return `ends on "${last}", which needs a verb after it`;
  // "We help", "If you are signed": a clause stopped after its verb, or only its condition (./dangling.ts).
  const dangling = danglingClause(text, headline === undefined);
  if (dangling) return dangling;
  const best = locate(ws, sentences, frame);
  if (!best) return null;
  const { run, s, at } = best;
  // "Download Inkwell Notes Today": the voice's words around the app's name, which the listing
  // also says somewhere ("Inkwell Notes is…"); nothing of a sentence was taken.
  if (run.every((w) => frame.has(w))) return null;
  const sw = s.words;
  const terms = tagged(s);
  const end = at + run.length;
  if (end < sw.length) {
    const next = sw[end];
    const idiom = sw[end + 1] === run[run.length - 1];
    // A feature named as its sentence's subject stands before the verb: "Lane guidance | keeps you on track".
    // Not a pronoun: "Tap controls anybody | can master" cut a relative clause after its subject. Nor a
    // noun read as a verb before "for": "Offline trail | maps for hikers" is one noun phrase.
    const subject =
      !!terms &&
      subjectThenVerb(terms, end) &&
      !UNIVERSAL.test(run[run.length - 1]) &&
      !(/s$/.test(next) && sw[end + 1] === 'for' && !!terms[end].tags.includes('PresentTense'));
    const aside =
      !idiom &&
      (NEXT_OPENS.has(next) ||
        timeAdverbial(sw, end, terms) ||
        (/^\p{L}{3,}(ed|ly)$/u.test(next) && !nounModifier(terms, end)) ||
        /^\d/.test(next) ||
        s.pause[end - 1] ||
        asideAt(sw.slice(end, end + 3)) ||
        subject);
    const behind = leftBehind(run, sw, at, terms, subject);
    if (behind) return behind;
    // "Often you want | to test a few…": a verb that takes an object, stopped before the object
    // or the "to" its sentence goes on with, whatever opens the run (second recordings read, pattern 6).
    // "Everything you need | in one place" has its object before it.
    const hasObject = run.slice(0, -1).some((w) => /^(everything|all|what|whatever|anything|something)$/.test(w));
    if (TAKES_OBJECT.test(run[run.length - 1]) && !hasObject && !s.pause[end - 1] && !/^(and|or|but|when|if|because|while)$/.test(next))
      return `stops after "${run[run.length - 1]}", before what it takes ("${sw.slice(end, end + 3).join(' ')}…")`;
    // More shapes of a phrase cut where it does not end (./whole-phrase.ts): an activity before its
    // verb, a gesture before its purpose, a comparison before its "as", a sentence's opening setting
    // said as a headline, a verb before the object it shares, a list of objects cut to its first.
    const more =
      activityCut(run, sw, at, terms, subject) ??
      gestureOnly(run, sw, at, s.pause) ??
      comparisonCut(run, sw, at) ??
      (headline === undefined ? settingOnly(run, sw, at, terms, s.text) : null) ??
      sharedObjectCut(run, sw, at, terms, s.pause) ??
      objectListCut(run, sw, at, terms, s.pause) ??
      modifierCut(run, sw, at, terms) ??
      (s.pause[end - 1] ? null : complementCut(sw, end));
    if (more) return more;
    if (!aside) return `stops before "${next}": the listing's sentence goes on "${run.slice(-3).join(' ')} ${next}…"`;
    // "Your playlist keeps going | in the background while the phone is locked": a verb of going on (or
    // a bare "works", "runs") ends the phrase and says nothing by itself; the place, time or
    // condition it is cut from is the whole point. After a comma the verb was said whole.
    const tail = run[run.length - 1];
    if (
      !s.pause[end - 1] &&
      run.length >= 2 &&
      ((/ing$/.test(tail) && GOES_ON.test(run[run.length - 2])) ||
        (BARE_HAPPENS.test(tail) && !!terms?.[end - 1].tags.includes('Verb') && !NOUN(terms[end - 1])))
    )
      return `stops after "${run.slice(-2).join(' ')}", which says nothing without what follows ("${sw.slice(end, end + 4).join(' ')}…")`;
    // "Get a nudge | before the soil dries out": a notice says nothing until it says when it comes.
    if (NOTICE.test(run[run.length - 1]) && CONDITION.test(next) && !s.pause[end - 1])
      return `stops after "${run[run.length - 1]}", before when it comes ("${sw.slice(end, end + 4).join(' ')}…")`;
    // "Paddly is the kayaking companion | loved by river paddlers": "the" points at the modifier cut off.
    if (terms && run[0] === 'the' && run.length <= 4 && (PARTICIPLE(terms[end]) || /^(that|who|which)$/.test(next))) {
      const thing = terms.slice(at + 1, end);
      if (thing.every((t) => (NOUN(t) || t.tags.includes('Adjective')) && !t.tags.includes('Superlative') && !/est$/.test(t.text)))
        return `stops before "${next}": "${run.join(' ')}" is the one the listing goes on to say ("${sw.slice(end, end + 3).join(' ')}…")`;
    }
    // "Point your camera | at a page": the verb says where its object goes, and that is cut off.
    const placed = run.findIndex((w, i) => PLACE_VERBS.test(w) && (i === 0 || !terms || ACTION(terms[at + i])));
    if (placed >= 0 && placed < run.length - 1 && PLACE.test(next))
      return `stops before "${next}": "${run[placed]}" needs the place the listing gives it ("${run.slice(placed).join(' ')} ${sw.slice(end, end + 3).join(' ')}…")`;
    // "Save your looks | as presets": "as" and a noun say what the action makes of its object; without
    // them the action means something else ("save" as keep). "As you go", "as well" are asides.
    if (
      next === 'as' &&
      ACTION(terms?.[at]) &&
      run.length >= 2 &&
      !/^(you|we|they|it|i|he|she|well|soon|long|much|many|often|needed|usual)$/.test(sw[end + 1] ?? '')
    )
      return `stops before "as ${sw[end + 1] ?? ''}": what "${run[0]}" makes of "${run.slice(1).join(' ')}" is cut off`;
    const point = pointCut(run, sw, end, s.pause);
    if (point) return point;
    // "Shows everything | on your phone": "everything" alone says nothing until its scope follows.
    if (UNIVERSAL.test(run[run.length - 1]) && SCOPE.test(next))
      return `stops after "${run[run.length - 1]}", before what it covers ("${sw.slice(end - 1, end + 3).join(' ')}…")`;
    // "Find, clean | and share your files": a list stopped before its last item.
    // The pause after a step's label ("Step 2: Acme finds…") is no list's comma.
    if (/^(and|or|&)$/.test(next) && s.pause.slice(Math.max(at, stepLabelEnd(sw)), end - 1).some(Boolean))
      return `stops inside a list: the listing's sentence goes on "${run.slice(-2).join(' ')} ${next} ${sw[end + 1] ?? ''}…"`;
    // "Bedtime tales told | by gentle narrators": a participle after its noun, cut from its agent
    // ("told" alone reads as done). "Free up storage | by finding…" ends on a noun, not a verb.
    if (terms && next === 'by' && run.length >= 2 && terms[end - 1].tags.includes('Verb') && NOUN(terms[end - 2]) && !s.pause[end - 1])
      return `stops after "${run[run.length - 1]}", before who does it ("${sw.slice(end - 1, end + 3).join(' ')}…")`;
    // "Thousands of recipes tested | in real kitchens": a participle without what it says of them.
    if (terms && run.length >= 2 && PARTICIPLE(terms[end - 1]) && NOUN(terms[end - 2]) && !s.pause[end - 1] && NEXT_OPENS.has(next))
      return `stops after "${run[run.length - 1]}", before what it says ("${next}…")`;
    // A clause the form opens must be finished inside it: "alerts when items | on your list go on sale".
    // "Reminders before bills | are due": before a subject's verb, "before" and "after" open a clause too.
    const sub = run.findIndex((w, i) => i > 0 && (SUBORDINATE.test(w) || (subject && /^(before|after)$/.test(w))));
    if (sub > 0 && !termsOf(run.slice(sub + 1).join(' ')).some((t) => t.tags.includes('Verb')))
      return `stops inside its "${run[sub]}" clause ("${run.slice(sub).join(' ')}…")`;
  }
  if (at > 0) {
    // A later part of the sentence stands when it opens as a phrase of its own: a second action
    // ("…, and share it"), a participle after its noun ("recipes | tested in real kitchens"), or the
    // rest of the sentence its headline began.
    const prev = sw[at - 1];
    const first = terms?.[at];
    const rest =
      headline !== undefined &&
      (() => {
        const h = locate(words(normalise(headline, { fold: true })), [s], frame);
        // Right after it, or after the "and" that joins them ("Save your looks as presets | and | apply them…").
        return h !== null && (h.at + h.run.length === at || (h.at + h.run.length === at - 1 && /^(and|or|then)$/.test(prev)));
      })();
    // After "to", the purpose ("…in store to | compare prices nearby"), read as "you can …": the
    // tagger takes a bare verb after "to" for a noun.
    // Only after an action: after a bare noun "to" says what the noun is for ("40 cars to | unlock and
    // tune"), and the verbs alone, unlock and tune what? (third held-out read, nitro).
    const afterAction = prev !== 'to' || (!!terms && terms.slice(0, at - 1).some((t) => t.tags.includes('Verb') && !PARTICIPLE(t)));
    const purpose = prev === 'to' && afterAction && ACTION(termsOf(`you can ${run.join(' ')}`)[2]);
    // "…so you can | easily schedule meetings": a manner adverb before the action is the action's own.
    const manner = MANNER.test(run[0]) && run.length >= 3 && ACTION(terms?.[at + 1]);
    // "Precisely | solve roof equations": a manner adverb opening its sentence or bullet can be
    // dropped and the action stands (second recordings read, 4a); said, it stays the action's own.
    const droppedManner = at === 1 && MANNER.test(sw[0]) && run.length >= 2 && (ACTION(first) || ACTION(termsOf(run.join(' '))[0]));
    const action =
      purpose ||
      droppedManner ||
      (afterAction &&
        (ACTION(first ?? termsOf(run.join(' '))[0]) || manner) &&
        (s.pause[at - 1] || /^(and|or|then|to|you|can|also)$/.test(prev)));
    const aside = PARTICIPLE(first) && NOUN(terms?.[at - 1]);
    // "Speed camera warnings and | lane guidance": a second thing after a first, not a word of it ("large and | duplicate files").
    // After a comma, the rest of a list is not a thing of its own ("JPEG, | HEIC or TIFF").
    const joined =
      (/^(and|or|&)$/.test(prev) && NOUN(terms?.[at - 2])) ||
      (s.pause[at - 1] && NOUN(terms?.[at - 1]) && !run.some((w) => /^(and|or)$/.test(w)));
    // "Routely gives you | turn-by-turn navigation": what the app gives is the feature; so is a
    // noun phrase to the sentence's end ("Get | reminders before bills are due").
    const gives = /^(you|offers|provides|includes|features|brings|gives|has|get|enjoy|with|using|via)$/.test(prev);
    // A thing, not a second clause: "iCloud and | works offline" of "Syncs with iCloud and works
    // offline" joins another verb. And "with" gives the feature only after an action: in a bullet
    // with no verb ("Weekly events with | exclusive rewards") what follows "with" is an attribute
    // of the bullet's thing, and said alone, rewards for what?
    const clause = !!terms && run.some((_, j) => j > 0 && /^(and|or)$/.test(run[j - 1]) && terms[at + j].tags.includes('Verb'));
    const verbless = /^(with|using|via)$/.test(prev) && !!terms && !terms.slice(0, at - 1).some((t) => t.tags.includes('Verb'));
    // A noun phrase, not a clause: "Keeping up with | friends is faster than ever" names a subject
    // and says something of it, and its subject was "keeping up with friends".
    // Not inside a clause of the phrase's own ("Get | reminders before bills are due" gives a thing).
    const inner = run.findIndex(
      (w, j) => j > 0 && /^(when|while|if|because|where|whenever|until|once|before|after|that|which|who|as)$/.test(w),
    );
    const ownClause = !!terms && run.some((_, j) => j > 0 && (inner < 0 || j < inner) && subjectThenVerb(terms, at + j));
    // "Connect with | people around the world": after a verb's own "with" the noun is whom it acts
    // with, not a thing the app gives ("Learn openings with | interactive lessons" gives one).
    // Only people: "…detail with | curves and selective masks" names the tools, which stand.
    const partner =
      prev === 'with' &&
      !!terms &&
      (ACTION(terms[at - 2]) || PARTICLE.test(sw[at - 2] ?? '')) &&
      run.slice(0, 3).some((w, j) => terms[at + j]?.tags.includes('Actor') || PEOPLE.test(w));
    const given =
      gives && !clause && !verbless && !ownClause && !partner && (NOUN(terms?.[at + run.length - 1]) || (NOUN(first) && end === sw.length));
    // "TaskForge is | a to-do list and planner for busy people": what the app is, a noun phrase of its own.
    const described =
      /^(is|are)$/.test(prev) && at >= 2 && sw.slice(0, at - 1).every((w) => frame.has(w)) && /^(a|an|the|your)$/.test(run[0]);
    // "Speed camera warnings and | lane guidance keep you on track": the verb was said of both; of
    // the second alone it no longer agrees ("lane guidance keep").
    if (joined && terms) {
      const v = run.findIndex((_, j) => j > 0 && terms[at + j].tags.includes('Verb') && NOUN(terms[at + j - 1]));
      if (v > 0 && subjectThenVerb(terms, at + v) && !subjectThenVerb(terms.slice(at), v))
        return `drops the first subject of "${run[v]}": "${run.slice(0, v + 1).join(' ')}" no longer agrees`;
    }
    const secondThing = !ACTION(first) && (((joined || described) && NOUN(terms?.[at + run.length - 1])) || given);
    // "Export reports / To CSV and PDF", "Free up storage / By finding large files": under the
    // headline that began its sentence with an action, where it goes or how is an aside of its own,
    // as the rule writer offers it (rules/writer.ts, remainder). After a noun it only finishes it
    // ("Offline access / To every document"); with a verb of its own it is a second clause. Right after
    // the verb it only finishes that verb, the last of a list at that ("Jump, spin and climb / To the
    // top": sixth held-out read).
    const restAside =
      rest &&
      !!terms &&
      /^(to|into|by)$/.test(run[0]) &&
      !terms[at - 1]?.tags.includes('Verb') &&
      // The tagger reads the last verb of a list as a noun ("climb" of "Jump, spin and climb").
      !(/^(and|or)$/.test(sw[at - 2] ?? '') && s.pause.slice(0, at - 2).some(Boolean) && terms[0]?.tags.includes('Verb')) &&
      terms.slice(0, at).some((t) => t.tags.includes('Verb') && !PARTICIPLE(t)) &&
      !terms.slice(at + 1, at + run.length).some((t, j) => t.tags.includes('Verb') && !(j === 0 && t.tags.includes('Gerund')));
    // "Your ticket / To a night out": the rest of the sentence is the headline's obligatory complement.
    const complement = rest && !s.pause[at - 1] ? complementCut(sw, at) : null;
    if (complement) return complement;
    const opener = rest && (STANDALONE.has(run[0]) || ACTION(first) || aside || restAside);
    // "Home screen | widgets for quick check-ins": what is left out is a modifier of the noun the
    // caption opens on, and the noun phrase stands whole without it.
    const modifier = terms?.[at - 1];
    const headNoun =
      NOUN(first) &&
      !s.pause[at - 1] &&
      !!modifier &&
      (NOUN(modifier) || modifier.tags.includes('Adjective')) &&
      !modifier.tags.includes('Possessive');
    // "Bedtime tales told by gentle narrators | help your thoughts settle": the sentence's own verb in
    // its bare form, split from the subject the headline names. Said alone it reads as an order to
    // the user; "A gentle alarm | wakes you…" keeps its subject in the -s (a held-out read's finding, in other words).
    // A participle before its agent is no verb of the subject: "Bedtime tales | told by gentle narrators".
    if (rest && terms && !s.pause[at - 1] && NOUN(terms[at - 1]) && first?.tags.includes('Infinitive') && sw[at + 1] !== 'by')
      return `starts on "${run[0]}", the verb of the headline's "${prev}": said alone it reads as an order`;
    const someoneElse = sharedSubject(sw, at, terms, s.pause) ?? (rest ? null : subjectDropped(run, sw, at, terms, s.pause));
    if (someoneElse) return someoneElse;
    // "Apply them to a whole album" under any other headline points at nothing.
    if (!rest && headline !== undefined) {
      const leans = leansOnPronoun(run.join(' '));
      if (leans) return leans;
    }
    // "2. Slipwise reads the totals" of "Step 2: Slipwise reads…": the step's own number, said in
    // another frame; the word left out is the listing's label, not the sentence's start.
    const stepLabel = at > 0 && at < stepLabelEnd(sw) && /^\d+$/.test(run[0]);
    if (!action && !aside && !opener && !secondThing && !headNoun && !stepLabel)
      return `starts mid-sentence: the listing says "${sw.slice(Math.max(0, at - 3), at).join(' ')} ${run.slice(0, 3).join(' ')}…"`;
  }
  return null;
}

/**
 * "Watch it fill up", "Use them at checkout": a headline whose pronoun points at a noun of a sentence
 * it was cut from. A pronoun after a noun of the line itself points there: "Build good habits and keep them".
 */
/**
 * "Straightens it." of "…finds the edges and straightens it": a subheadline that is a second verb and
 * its pronoun, the tail of the listing's line, says nothing a shopper can read on its own (tenth read, T).
 */
export function pronounTail(sub: string): string | null {
  const m = /^[\p{L}-]+ (it|them)[.!]?$/iu.exec(sub.trim());
  return m ? `"${sub.trim()}" is a verb and "${m[1].toLowerCase()}" alone: the tail of a line, with nothing of its own` : null;
}

export function leansOnPronoun(headline: string): string | null {
  // Most headlines hold no pronoun: the tagger is asked only about those that do.
  if (!/\b(it|them|they|these|those|their)\b/i.test(headline)) return null;
  const terms = termsOf(headline);
  // A label before a colon or dash ("Lumen Darkroom: Apply them") is no antecedent.
  const clause = terms.reduce((k, x, i) => (/[:—–]|\s-\s*$/.test(x.post ?? '') ? i + 1 : k), 0);
  for (const [i, t] of terms.entries()) {
    const w = t.text.toLowerCase().replace(/[^\p{L}]/gu, '');
    const before = terms.slice(clause, i);
    if (/^(them|they|these|those|their)$/.test(w) ? before.some((x) => NOUN(x) && x.tags.includes('Plural')) : before.some(NOUN))
      return null;
    if (/^(them|they|these|those|their)$/.test(w)) return `says "${w}" with nothing before it to point at`;
    const next = terms[i + 1];
    if (
      w === 'it' &&
      next?.tags.includes('Verb') &&
      !next.tags.some((g) => g === 'Pronoun' || g === 'Possessive') &&
      !/^(yours|mine|ours)$/i.test(next.text)
    )
      return `says "it ${terms[i + 1].text}" with nothing before it to point at`;
  }
  return null;
}
