/**
 * A voice's frame glued to a phrase it does not fit: "Yes, the app uses!", "GET EASILY VISUALIZE
 * YOUR TASKS", "Now you can thousands of recipes", "Send files, ready when you are". Each frame asks
 * one kind of phrase (an action after "Now you can", a thing after "Get"); the tagger says what the
 * phrase is. English only: the other languages' captions carry no English frame.
 */
import { taggedSentences, type TaggedTerm } from '../nlp.ts';
import { looksParticiple } from '../text.ts';

type Term = TaggedTerm;
const termsOf = (text: string): Term[] => taggedSentences(text.toLowerCase()).flatMap((s) => s.terms);
const isVerb = (t: Term | undefined) =>
  !!t && t.tags.includes('Verb') && !t.tags.some((g) => g === 'Gerund' || g === 'Participle' || g === 'PastTense');

/** People: "YOUR KIDS. MEASURED." reads as a verdict on them, not as a feature done for the user. */
const PEOPLE =
  /^(kids?|child|children|baby|babies|family|families|friends?|team|teams|players?|people|users?|parents?|students?|patients?|clients?|customers?|partners?|guests?|pets?|dogs?|cats?|yourself|you|everyone|anyone)$/;

/**
 * Why a bold recast "X. VERBED." breaks the grammar, or null: the recast reads as the result of
 * the user's action on their own thing ("UNLIMITED HABITS. TRACKED."). On people it is a verdict
 * on them ("YOUR KIDS. MEASURED."); on a lone bare noun it is two fragments ("CLIPS. TRIMMED.").
 * The phrase as the listing says it ("MEASURE YOUR KIDS.") is the caption then.
 */
export function brokenRecast(text: string): string | null {
  const m = /^(.+?)[.!]\s+(\p{L}+)[.!]?$/u.exec(text.trim());
  if (!m || !looksParticiple(m[2].toLowerCase())) return null;
  const object = m[1].toLowerCase().split(/\s+/u);
  if (object.some((w) => PEOPLE.test(w.replace(/[^\p{L}]/gu, ''))))
    return `"${m[1]}. ${m[2]}" recasts an action on people as a verdict on them`;
  if (object.length === 1 && !/\d/.test(object[0])) return `"${m[1]}. ${m[2]}" is two fragments: one bare noun and its participle`;
  // Without "your" or how much the app allows ("UNLIMITED HABITS. TRACKED."), the user's own action
  // said done reads as a status message, not a feature: "LIVE LOCATION. SHARED.", "OFFLINE MAPS.
  // DOWNLOADED." (fourth held-out read, G; the tuned fourth read's "DIGITAL COUPONS. COLLECTED.").
  if (!object.some((w) => OWNED.test(w.replace(/[^\p{L}\p{N}]/gu, ''))))
    return `"${m[1]}. ${m[2]}" reads as a status message: the user's own action, said done on a thing not theirs`;
  return null;
}

/** Words that make the recast's object the user's or a promise of amount: "your", "unlimited", a figure. */
const OWNED = /^(your|unlimited|every|all|endless|\d[\d.,]*k?)$/;

// Nouns said without an article as a whole: what they name is a mass, not one thing ("save time").
const MASS = new Set(
  (
    'time money data storage space progress feedback weight nature muscle traffic music food water sleep energy battery ' +
    'focus stress health fitness content news weather history information info advice work homework practice research ' +
    'cash tax fun peace calm control access privacy security support help inspiration motivation clarity balance ' +
    'growth wealth speed power art video audio media software mail email spending income debt stuff coffee'
  ).split(' '),
);

/**
 * The object of a telegraphic bullet: a singular count noun with no article or possessive ("share live
 * location", "add voice note"), or null. A bullet may say it so; a spoken frame around it ("Go ahead,
 * share live location!") reads as a sentence with its article lost (held-out read, G): the phrase is said
 * as the listing said it instead.
 */
function bareObject(terms: Term[]): string | null {
  let k = 1;
  while (terms[k]?.tags.includes('Particle')) k++;
  const run: Term[] = [];
  for (; k < terms.length; k++) {
    const t = terms[k];
    if (t.tags.some((g) => g === 'Determiner' || g === 'Possessive' || g === 'Pronoun' || g === 'Value' || g === 'Plural')) return null;
    if (!t.tags.some((g) => g === 'Adjective' || g === 'Noun')) break;
    run.push(t);
  }
  const head = run.at(-1);
  if (!head || !head.tags.includes('Singular') || head.tags.some((g) => /Uncountable|Gerund|ProperNoun|Acronym|Date/.test(g))) return null;
  if (MASS.has(head.text.replace(/[^\p{L}]/gu, ''))) return null;
  return run.map((x) => x.text).join(' ');
}

/** Why `text`'s frame breaks its grammar, or null. `name`: the app's name's words (a name after "Get" is a thing). */
export function brokenFrame(text: string, name: Set<string>): string | null {
  const t = text.replace(/[.!]+$/u, '').trim();
  // "Yes, …" answers a question nobody asked, whatever follows.
  if (/^yes,\s/i.test(t)) return 'opens on "Yes,", which answers nothing';
  const recast = brokenRecast(text);
  if (recast) return recast;
  const get = /^get\s+(\S+)(.*)$/i.exec(t);
  if (get) {
    const word = get[1].toLowerCase().replace(/[^\p{L}']/gu, '');
    if (name.has(word) || /^(started|going|ready|set|more|back|up|in|on|there)$/.test(word)) return null;
    const first = termsOf(`${get[1]}${get[2]}`)[0];
    if (first && (first.tags.includes('Adverb') || isVerb(first) || /^(no|not|never)$/.test(word)))
      return `"Get" is glued to "${get[1]}", which is not a thing to get`;
  }
  const action = /^(?:now you can|go ahead,|you can)\s+(.+)$/i.exec(t);
  if (action) {
    const terms = termsOf(action[1]);
    const first = terms[0];
    if (!isVerb(first)) return `"${t.slice(0, t.length - action[1].length).trim()}" needs an action, and "${action[1]}" is not one`;
    const bare = bareObject(terms);
    if (bare) return `"${t.slice(0, t.length - action[1].length).trim()}" speaks to a bullet: "${bare}" needs its article`;
  }
  const offered = /^(.+?),\s+(?:ready when you are|right at your fingertips)$/i.exec(t);
  if (offered) {
    const first = termsOf(offered[1])[0];
    if (isVerb(first) || first?.tags.includes('Pronoun')) return `"${offered[1]}" is an action, offered as if it were a thing`;
    // "Weekly events, ready when you are": a thing on a schedule is exactly not ready when you are.
    if (
      /^ready/i.test(t.slice(offered[1].length).replace(/^,\s*/, '')) &&
      /\b(daily|weekly|monthly|yearly|nightly|hourly|scheduled|seasonal|live)\b/i.test(offered[1])
    )
      return `"${offered[1]}" runs on a schedule, so it is not "ready when you are"`;
  }
  return null;
}
