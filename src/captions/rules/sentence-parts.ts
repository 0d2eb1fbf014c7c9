/**
 * What the parts of a listing sentence can say on their own: an imperative said as its result
 * ("Unlimited habits. Tracked."), the rest of a sentence under the headline that opens it, and the
 * later parts of a line another phrase opens.
 */
import { taggedSentences, type TaggedTerm } from '../nlp.ts';
import { type Phrase } from '../understand.ts';
import { capitalise, normalise, participleOf, SPACES, textKey } from '../text.ts';
import { opensStandalone } from '../end-words.ts';

// Verbs whose sense needs what follows the object: "Bring your imagination | to life".
const LIGHT_VERBS = new Set([
  'bring',
  'make',
  'turn',
  'put',
  'get',
  'take',
  'keep',
  'let',
  'give',
  'set',
  'go',
  'do',
  'have',
  'see',
  'find',
  'help',
]);

/**
 * "Track unlimited habits" → "Unlimited habits. Tracked.": an imperative said as its result, the
 * bold voice's way of stating a feature. Only for a verb and a short object of its own (no
 * preposition, list or article, which would not read as a headline of their own), and only when
 * what the phrase says after it is an aside ("with a single tap", "to CSV", "and share them"), not
 * its sense ("as presets", or "to life" after a light verb like "bring"); null otherwise.
 */
export function doneForm(phrase: string, whole: string = phrase): string | null {
  const tokens = phrase.trim().split(SPACES);
  const after = whole.startsWith(phrase) ? whole.slice(phrase.length).trim() : null;
  if (after === null || (after !== '' && !opensStandalone(after, 'en') && !/^(to|and)\s/i.test(after))) return null;
  if (LIGHT_VERBS.has(tokens[0]?.toLowerCase() ?? '')) return null;
  if (tokens.length < 2 || tokens.length > 5 || /[,;:]/.test(phrase)) return null;
  const terms = taggedSentences(phrase.toLowerCase())[0]?.terms ?? [];
  if (
    terms.length !== tokens.length ||
    !terms[0].tags.includes('Verb') ||
    !terms[0].tags.some((g) => g === 'Infinitive' || g === 'Imperative')
  )
    return null;
  const object = terms.slice(1);
  // "your looks" and "booking emails" are objects; "them", "a photo" and "to friends" are not headlines.
  const unfit = (t: TaggedTerm, last: boolean) =>
    t.tags.some((g) => g === 'Preposition' || g === 'Conjunction') ||
    (t.tags.includes('Pronoun') && !t.tags.includes('Possessive')) ||
    (t.tags.includes('Verb') && (last || !t.tags.includes('Gerund'))) ||
    /^(a|an|the|to)$/.test(t.text);
  if (object.some((t, i) => unfit(t, i === object.length - 1)) || !isNounEnd(object[object.length - 1].tags)) return null;
  const participle = participleOf(terms[0].text);
  if (!participle) return null;
  const said = tokens.slice(1).join(' ');
  return `${capitalise(said)}. ${capitalise(participle)}`;
}

const isNounEnd = (tags: readonly string[]) => tags.some((g) => /Noun|Acronym/.test(g)) && !tags.includes('Pronoun');

/**
 * "Smart reminders" + "Smart reminders that adapt to your schedule" -> "adapt to your schedule":
 * the sentence after the headline's words, when it can stand alone (a verb phrase, a clause with
 * its own subject, or a prepositional phrase); null otherwise.
 */
export function remainder(headline: string, sentence: string, language: string, action = false): string | null {
  const said = { fold: true, label: true };
  const head = normalise(headline, said).toLowerCase().split(SPACES);
  const words = normalise(sentence, said).split(SPACES);
  if (head.length < 2 || words.length <= head.length) return null;
  const strip = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  if (!head.every((w, i) => strip(w) === strip(words[i]))) return null;
  const rest = words
    .slice(head.length)
    .join(' ')
    .replace(/^[,;:–—-]\s*/, '')
    .replace(/^(that|which|who|and)\s+/i, '');
  if (rest.split(SPACES).length < 2) return null;
  if (language !== 'en') return opensStandalone(rest, language) ? rest : null;
  const terms = taggedSentences(rest.toLowerCase())[0]?.terms ?? [];
  // "Scan barcodes in store" + "to compare prices nearby": the purpose said as an action. Not after a
  // noun: "40 cars // Unlock and tune" asks unlock and tune what? (checker/cut.ts, third held-out read).
  if (/^to\b/i.test(rest) && terms[1]?.tags.includes('Infinitive'))
    return (taggedSentences(headline.toLowerCase())[0]?.terms ?? []).some((t) => t.tags.includes('Verb'))
      ? rest.replace(/^to\s+/i, '')
      : null;
  // After an action, where it goes or how is an aside that stands alone ("Export reports — To CSV
  // and PDF", "Free up storage — By finding large files"); after a noun it only finishes it ("Offline
  // access — To every document"), and "as" never stands alone ("As presets and apply them…").
  const aside =
    action &&
    /^(to|into|by)\b/i.test(rest) &&
    !terms.slice(1).some((t, i) => t.tags.includes('Verb') && !(i === 0 && t.tags.includes('Gerund')));
  if (aside) return rest;
  if (/^(to|as|into|by|of)\b/i.test(rest)) return null;
  // "Told by gentle narrators help your thoughts…" under "Bedtime tales": the participle's agent and then
  // the sentence's own verb, whose subject stayed in the headline. Not a line of its own.
  if (/^\S+\s+by\b/i.test(rest) && terms.slice(3).some((t) => t.tags.includes('Verb') && !t.tags.includes('Gerund'))) return null;
  // A verb phrase ("adapt to your schedule"), a clause ("Wayfarer builds your itinerary") or a
  // prepositional phrase ("with a single tap") stands on its own; a bare noun tail does not.
  const verbAt = terms.findIndex((t) => t.tags.includes('Verb'));
  const subject = terms.slice(0, verbAt).some((t) => t.tags.some((g) => /Noun|Pronoun/.test(g)));
  const verbal = verbAt === 0 || (verbAt > 0 && verbAt <= 3 && subject);
  // "For each goal and watch it fill up" glues a second action onto the aside: not a line of its own.
  const secondAction =
    /\b(and|or)\s+\S+/i.test(rest) &&
    terms.some((t, i) => i > 0 && t.tags.includes('Verb') && /^(and|or)$/i.test(rest.toLowerCase().split(SPACES)[i - 1] ?? ''));
  return verbal || (opensStandalone(rest, 'en') && !secondAction) ? rest : null;
}

/**
 * The phrases that are a later part of a line another phrase opens ("Interactive lessons" of "Learn
 * openings with interactive lessons"): a last resort, since a whole line still unused says more and
 * the part spreads one line over two slides (docs/captions.md, "One line, one slide"). Not a part: a
 * phrase that opens its own line (it is that line, said whole or in a shorter whole form), nor one
 * that only drops a bare first verb ("Reminders before bills are due" of "Get reminders…").
 */
export function laterParts(phrases: readonly Phrase[]): Set<Phrase> {
  const opens = (p: Phrase) => textKey(p.sentence).startsWith(textKey(p.text));
  const opened = new Set(phrases.filter(opens).map((p) => textKey(p.sentence)));
  return new Set(
    phrases.filter(
      (p) => !opens(p) && opened.has(textKey(p.sentence)) && !textKey(p.sentence).split(' ').slice(1).join(' ').startsWith(textKey(p.text)),
    ),
  );
}
