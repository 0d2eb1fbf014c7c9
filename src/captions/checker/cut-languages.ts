/**
 * Cut phrases in languages without a tagger: French, Spanish, Portuguese and Italian read by their
 * function words (`cutRomance`), German by its capitalised nouns and final verbs (`cutGerman`).
 * Split from ./cut.ts (issue 29); cutPhrase hands a caption here when its language is one of these.
 */
import { normalise, WORD, words } from '../text.ts';
import { locate, type Sentence } from './sentences.ts';

/** Languages read by their function words (`cutRomance`): the words a phrase may stop before, and the rest. */
export const ROMANCE: Record<
  string,
  { opens: Set<string>; articles: Set<string>; of: string; participle: RegExp; agent: RegExp; many: RegExp }
> = {
  fr: {
    opens: new Set(
      'pour avec sans sur sous dans en par chez contre vers parmi qui que qu et ou mais car afin grâce depuis partout via selon entre avant après comme quand lorsque pendant jusqu chaque'.split(
        ' ',
      ),
    ),
    articles: new Set('le la les un une vos votre ton ta tes mon ma mes nos notre son sa ses leur leurs'.split(' ')),
    of: 'de|du|des|d',
    participle: /^\p{L}{2,}(é|ée|és|ées)$/u,
    agent: /^par$/,
    many: /^(milliers|centaines|millions|dizaines|plus|tous|toutes)$/,
  },
  es: {
    opens: new Set(
      'para con sin sobre en por desde contra hacia tras ante bajo que y e o u pero como cuando donde hasta entre según durante mientras gracias cada'.split(
        ' ',
      ),
    ),
    articles: new Set('el la los las un una tu tus su sus mi mis nuestro nuestra nuestros nuestras'.split(' ')),
    of: 'de|del',
    participle: /^\p{L}{2,}(ado|ada|ados|adas|ido|ida|idos|idas)$/u,
    agent: /^por$/,
    many: /^(miles|cientos|millones|decenas|más|todos|todas)$/,
  },
  pt: {
    opens: new Set(
      'para com sem sobre em no na nos nas por pelo pela desde contra após ante sob que e ou mas como quando onde até entre durante enquanto graças cada'.split(
        ' ',
      ),
    ),
    articles: new Set('o a os as um uma seu sua seus suas meu minha meus minhas nosso nossa'.split(' ')),
    of: 'de|do|da|dos|das',
    participle: /^\p{L}{2,}(ado|ada|ados|adas|ido|ida|idos|idas)$/u,
    agent: /^(por|pelo|pela|pelos|pelas)$/,
    many: /^(milhares|centenas|milhões|dezenas|mais|todos|todas)$/,
  },
  it: {
    opens: new Set(
      'per con senza su sul sulla in nel nella che e o ma come quando dove fino tra fra durante mentre grazie ogni'.split(' '),
    ),
    articles: new Set('il lo la i gli le un uno una tuo tua tuoi tue suo sua suoi sue'.split(' ')),
    of: 'di|del|della|dei|degli|delle',
    participle: /^\p{L}{2,}(ato|ata|ati|ate|ito|ita|iti|ite|uto|uta|uti|ute)$/u,
    agent: /^(da|dal|dalla|dai|dagli|dalle)$/,
    many: /^(migliaia|centinaia|milioni|decine|più|tutti|tutte)$/,
  },
};

/** Languages besides English whose cut phrases `cutPhrase` finds. */
export const CUT_LANGUAGES: ReadonlySet<string> = new Set([...Object.keys(ROMANCE), 'de']);

/** German articles, possessives and object pronouns: a phrase stopped before one lost what its verb takes. */
const DE_TAKEN =
  /^(der|die|das|den|dem|des|ein|eine|einen|einem|einer|eines|kein|keine|keinen|keinem|keiner|(?:mein|dein|sein|ihr|unser|euer|eur)(?:e|en|em|er|es)?|dir|dich|mir|mich|uns|euch|ihm|ihn|ihnen|sich)$/;
/** Object pronouns: a phrase that ends on one ("Kraftwerk erstellt dir") names whom, not what. */
const DE_OBJECT_PRONOUN = /^(dir|dich|mir|mich|uns|euch|ihm|ihn|ihnen|sich)$/;

/**
 * Why a German caption is a listing phrase cut where it does not end, or null. With no tagger, German
 * still shows its structure: nouns are capitalised, and a clause's verb stands last. "Kraftwerk
 * erstellt dir | einen Trainingsplan": a phrase stopped before an article (or on an object pronoun)
 * lost the object its verb takes. "Fortschritt und Rekorde | im Blick behalten": a later part of a
 * sentence that ends on its final verb (a lower-case word) left that verb's object behind; it stands
 * only under the headline that says the start ("rest", as in English).
 */
export function cutGerman(ws: string[], sentences: Sentence[], frame: Set<string>, headline?: string): string | null {
  const best = locate(ws, sentences, frame);
  if (!best || best.run.every((w) => frame.has(w))) return null;
  const { run, s, at } = best;
  const sw = s.words;
  const end = at + run.length;
  const last = run[run.length - 1];
  if (end < sw.length && !s.pause[end - 1]) {
    if (DE_OBJECT_PRONOUN.test(last) || DE_TAKEN.test(sw[end]))
      return `stops before "${sw[end]}": the listing's sentence goes on "${run.slice(-3).join(' ')} ${sw.slice(end, end + 3).join(' ')}…"`;
  }
  if (at > 0 && end === sw.length) {
    const spelt = s.text.match(WORD) ?? [];
    const verbLast = spelt.length === sw.length && /^\p{Ll}+(?:en|ern|eln|t)$/u.test(spelt[sw.length - 1]) && run.length >= 2;
    const h = headline === undefined ? null : locate(words(normalise(headline, { fold: true })), [s], frame);
    const rest = h !== null && h.at + h.run.length === at;
    if (verbLast && !rest)
      return `starts mid-sentence: "${run.join(' ')}" is the end of "${sw.slice(Math.max(0, at - 3), at).join(' ')} ${run.slice(0, 3).join(' ')}…", whose verb takes what comes before it`;
  }
  return null;
}

/**
 * "Le mode", "Une liste de courses", "Vos favoris": an article (or possessive) and its noun, perhaps
 * with a "de" complement, and nothing else: it names the thing and none of what the listing says of it.
 */
export function bareThing(run: string[], language: string): boolean {
  const r = ROMANCE[language];
  if (!r || run.some((w) => /\d/.test(w) || r.many.test(w))) return false;
  const elided = (w: string | undefined) => !!w && /^(l|d|un|dell|all)['’]\p{L}/u.test(w);
  const of = new RegExp(`^(${r.of})$`);
  let i: number;
  if (r.articles.has(run[0]) && run.length >= 2 && !elided(run[1])) i = 2;
  else if (elided(run[0])) i = 1;
  else return false;
  if (i === run.length) return true;
  // "de courses", "de la semaine", "d'erreur".
  if (of.test(run[i])) i += r.articles.has(run[i + 1] ?? '') ? 3 : 2;
  else if (/^d['’]\p{L}/u.test(run[i])) i += 1;
  return i === run.length;
}

/**
 * Why a French, Spanish, Portuguese or Italian caption is a listing phrase cut where it does not end,
 * or null: "Le mode | pas à pas pour cuisiner", "Une liste de courses | générée automatiquement", and
 * "Par des chefs" said apart from the "recettes testées" it tells of. A phrase may stop before a
 * preposition, a conjunction or a comma, and a noun phrase that says something of its own before a
 * participle ("Des milliers de recettes | testées…"). Only the end and the agent are read: with no
 * tagger, where a later part of a sentence may start is not.
 */
export function cutRomance(ws: string[], sentences: Sentence[], frame: Set<string>, language: string, headline?: string): string | null {
  const r = ROMANCE[language];
  const best = locate(ws, sentences, frame);
  if (!best || best.run.every((w) => frame.has(w))) return null;
  const { run, s, at } = best;
  const sw = s.words;
  const end = at + run.length;
  // "Par des chefs." of "recettes testées | par des chefs": by whom, without what was done.
  if (at > 0 && r.agent.test(run[0]) && r.participle.test(sw[at - 1]) && !s.pause[at - 1])
    return `starts on "${run[0]}", the rest of "${sw.slice(Math.max(0, at - 2), at).join(' ')} ${run.slice(0, 3).join(' ')}…"`;
  // "Mais de 5.000 receitas com fotos. / Sem erro.": the end of another sentence ("Modo passo a
  // passo para cozinhar | sem erro"), opening on its preposition, under a headline it never finished.
  if (at > 0 && headline !== undefined && r.opens.has(run[0])) {
    const h = locate(words(normalise(headline, { fold: true })), [s], frame);
    if (!h || h.at + h.run.length !== at)
      return `starts mid-sentence: the listing says "${sw.slice(Math.max(0, at - 3), at).join(' ')} ${run.slice(0, 3).join(' ')}…"`;
  }
  if (end >= sw.length) return null;
  const next = sw[end];
  const goesOn = `"${run.slice(-3).join(' ')} ${sw.slice(end, end + 3).join(' ')}…"`;
  if (s.pause[end - 1] || /^\d/.test(next) || r.opens.has(next.split(/['’]/)[0])) return null;
  if (r.participle.test(next) && !bareThing(run, language)) return null;
  return `stops before "${next}": the listing's sentence goes on ${goesOn}`;
}
