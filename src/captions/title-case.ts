/**
 * English title case with phrasal verbs kept whole. The title-case package lowers its small words
 * wherever they stand, "up", "in", "on" and "over" among them, as if each were a preposition; right
 * after its verb such a word is a particle, part of the verb, and title case capitalises it: "Round
 * Up Purchases Automatically", "Sign In with Apple", "Keep Up with You" (seventh read, V: "Round up
 * Purchases Automatically").
 */
import { titleCase } from 'title-case';

/**
 * The verbs each lowered particle makes a phrasal verb with. A list, not the tagger: it reads
 * "Round up purchases" and "keep up with you" as no phrasal verb, and "Check in real time" as one.
 * "in", "on" and "over" follow many verbs as prepositions ("Save on groceries", "Works on iPhone"),
 * so they take only verbs that are rarely followed by one.
 */
const PHRASAL: Record<string, Set<string>> = {
  up: new Set(
    'add back beef bring brush build call catch cheer clean clear count dress end fill fire follow free gear give grow hang heat hook keep level light line link load look make match meet mix open pair pick power queue ramp read rev round save scale serve set shake show sign size skill sort speed spice stack start stay step stock sum suit team tidy top total touch trade tune turn type use wake warm wind wrap write'.split(
      ' ',
    ),
  ),
  in: new Set('cash chime clock dial dive fill jump log opt pitch plug sign tune zoom'.split(' ')),
  on: new Set('carry hold log move switch turn'.split(' ')),
  over: new Set('hand start take'.split(' ')),
};

/** After these the small word is a preposition again, whatever came before ("Check in seconds", "Sign up to 3 devices"). */
const OBJECT_OF_PREPOSITION = /^(seconds?|minutes?|hours?|days?|real|no|just|under|less|time|advance|\d)/i;

/** The verb a form of it stands for: "rounds", "rounded", "rounding", "setting", "logged" → the bare verb, if listed. */
function isParticleVerb(word: string, particle: string): boolean {
  const verbs = PHRASAL[particle];
  const w = word.toLowerCase();
  const bases = [w, w.replace(/s$/, ''), w.replace(/(ing|ed)$/, ''), w.replace(/(ing|ed)$/, 'e'), w.replace(/(\w)\1(ing|ed)$/, '$1')];
  return bases.some((b) => verbs.has(b));
}

/** `text` in English title case, a phrasal verb's particle capitalised as the verb is. */
export function englishTitleCase(text: string): string {
  const tokens = titleCase(text).split(/(\s+)/);
  for (let i = 2; i < tokens.length; i += 2) {
    const particle = tokens[i];
    if (!PHRASAL[particle]) continue;
    const verb = tokens[i - 2].replace(/^\P{L}+/u, '');
    const next = tokens[i + 2] ?? '';
    // Only right after the verb, in one clause: "Round up, save more" and "Sign-up" keep their forms.
    if (/[^\p{L}]$/u.test(tokens[i - 2]) || !isParticleVerb(verb, particle)) continue;
    if (particle !== 'up' && OBJECT_OF_PREPOSITION.test(next)) continue;
    if (particle === 'up' && /^to$/i.test(next) && /^\d/.test(tokens[i + 4] ?? '')) continue;
    tokens[i] = particle.charAt(0).toUpperCase() + particle.slice(1);
  }
  return tokens.join('');
}
