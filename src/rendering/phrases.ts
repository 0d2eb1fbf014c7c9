/**
 * Where a line may not break for a language's reasons, beyond UAX #14's: inside a Japanese phrase
 * (BudouX's model: "連携して" stays whole, never "連携し/て"), and after a one-letter preposition or
 * conjunction of Russian, Polish or Czech ("с / друзьями" is a typesetting error there).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { primaryOf } from './hyphenate.ts';

const require = createRequire(import.meta.url);

type Parser = { parse(sentence: string): string[] };
let japanese: Parser | null = null;

/**
 * BudouX's Japanese parser. Its package exports only an index that also loads an HTML library
 * (~400 ms); the parser and the model are plain files beside it, loaded by path.
 */
function japaneseParser(): Parser {
  if (japanese) return japanese;
  const dist = path.dirname(require.resolve('budoux'));
  const { Parser: P } = require(path.join(dist, 'parser.js')) as { Parser: new (model: unknown) => Parser };
  const { model } = require(path.join(dist, 'data', 'models', 'ja.js')) as { model: unknown };
  return (japanese = new P(model));
}

/** Offsets (within `run`) where a Japanese run may break: between BudouX's phrases. */
export function japanesePhraseBreaks(run: string): Set<number> {
  const out = new Set<number>();
  let at = 0;
  for (const phrase of japaneseParser().parse(run)) {
    at += phrase.length;
    if (at < run.length) out.add(at);
  }
  return out;
}

/** Languages whose one-letter words are tied to the next word in Latin script. */
const LATIN_TIED = new Set(['pl', 'cs', 'sk']);

/**
 * Offsets of the spaces after a one-letter word that must not break: in Cyrillic text always
 * ("в", "с", "к", "и", "а", "о", "у", "я"), in Latin text for Polish, Czech and Slovak ("w", "z",
 * "i", "a", "o", "u", "k", "s", "v"). The offset is where the next word starts.
 */
export function tiedBreaks(text: string, lang: string | undefined): Set<number> {
  const latin = LATIN_TIED.has(primaryOf(lang));
  const out = new Set<number>();
  for (const m of text.matchAll(/(?<![\p{L}\p{N}])(\p{L})(\s+)(?=\S)/gu)) {
    const letter = m[1];
    if (/\p{Script=Cyrillic}/u.test(letter) || (latin && /\p{Script=Latin}/u.test(letter))) out.add(m.index + letter.length + m[2].length);
  }
  return out;
}
