/**
 * Whether a caption's claims are grounded: every number, rating, award, platform and named feature
 * it states is said by the listing, extraContext or the text read off the app's own screens. The
 * rest of its words are the writer's: paraphrase is a copywriter's job, so no share of the
 * listing's exact words is asked for (that test refused "Find every receipt" for want of "find").
 */
import { normalise } from '../text.ts';

/** Word fragments that claim a fact: each must be said by the sources themselves. */
const CLAIMS =
  /\b(rated|ratings?|reviews?|stars?|awards?|award-winning|winner|editor'?s choice|featured|#1|no\.? ?1|number one|best[- ]selling|top[- ]rated|millions|billions)\b/giu;
// "2M", "10 k", "50%", "100+"; a letter after the number is a unit only when it ends the word ("4.9 by" is 4.9).
export const NUMBER = /\d+(?:[.,]\d+)*(?:\s?[kmb](?!\p{L})|\+|\s?%)?/giu;
const PLATFORMS =
  /\b(iphone|ipad|ios|ipados|mac|macos|apple watch|watchos|apple tv|android|wear os|google play|play store|app store|windows|chromebook|web)\b/giu;
/**
 * Features a writer is tempted to promise because so many apps have them: named, they are a claim
 * the sources must make (in any of the spellings on the right).
 */
const FEATURES: [RegExp, RegExp][] = [
  [/\boffline\b/iu, /\boffline|without (?:an )?(?:internet|connection|signal)|no (?:internet|connection|signal)/iu],
  [/\bsync(?:s|ed|ing|hronis\w*|hroniz\w*)?\b/iu, /\bsync/iu],
  [/\bwidgets?\b/iu, /\bwidget/iu],
  [/\bsiri\b/iu, /\bsiri\b/iu],
  [/\bicloud\b/iu, /\bicloud\b/iu],
  [/\b(?:apple )?health(?:kit)?\b(?= app| sync|kit)|\bhealthkit\b|\bapple health\b/iu, /\bhealthkit\b|\bapple health\b|\bhealth app\b/iu],
  [/\bgoogle fit\b/iu, /\bgoogle fit\b/iu],
  [/\bdark mode\b/iu, /\bdark (?:mode|theme)/iu],
  [/\bfamily sharing\b/iu, /\bfamily sharing\b/iu],
  [/\bad[- ]?free\b|\bno ads\b|\bwithout ads\b/iu, /\bad[- ]?free|\bno ads\b|\bwithout ads|\bads?[- ]free|\bremove ads/iu],
  [/\bencrypt\w*|\bend-to-end\b/iu, /\bencrypt|\bend-to-end/iu],
  [/\bmultiplayer\b/iu, /\bmultiplayer|multi-player/iu],
  [/\bAI\b|\bartificial intelligence\b/u, /\bAI\b|\bartificial intelligence|\bA\.I\./u],
  [/\bface id\b|\btouch id\b/iu, /\bface id\b|\btouch id\b|\bbiometric/iu],
  [/\bapple pencil\b/iu, /\bapple pencil\b|\bpencil\b/iu],
];

export interface ClaimSources {
  /** The listing's texts, extraContext and the screens' text, as written. */
  text: string;
  /** The same, lower-cased. */
  lower: string;
  numbers: Set<string>;
}

export function claimSources(texts: string[], extraNumbers: (string | undefined)[] = []): ClaimSources {
  const text = texts.join('\n');
  const numbers = new Set([...text.matchAll(NUMBER)].map((m) => normalise(m[0], { number: true })));
  for (const n of extraNumbers) if (n) numbers.add(normalise(n, { number: true }));
  return { text, lower: text.toLowerCase(), numbers };
}

/**
 * The claims of `text` the sources do not make, in plain words. `language: false` (a translation):
 * only what reads the same in every language, numbers and platforms. `proof`: a social-proof slide of
 * a listing with a store rating, which may quote it (its figures are among `numbers`).
 */
export function ungroundedClaims(text: string, s: ClaimSources, o: { native: boolean; proof: boolean }): string[] {
  const out: string[] = [];
  // A decimal comma is the same number ("4,7" in French is the store's 4.7).
  const said = (n: string) =>
    s.numbers.has(normalise(n, { number: true })) || s.numbers.has(normalise(n.replace(/^(\d+),(\d{1,2})$/u, '$1.$2'), { number: true }));
  for (const m of text.matchAll(NUMBER))
    if (!said(m[0].trim()) && !/^\d$/.test(m[0].trim())) out.push(`"${text}" claims "${m[0].trim()}", which the listing does not say`);
  for (const m of text.matchAll(PLATFORMS))
    if (!s.lower.includes(m[0].toLowerCase())) out.push(`"${text}" names ${m[0]}, which the listing does not`);
  if (!o.native) return out;
  for (const m of text.matchAll(CLAIMS))
    if (!o.proof && !s.lower.includes(m[0].toLowerCase())) out.push(`"${text}" claims "${m[0]}", which the listing does not say`);
  for (const [claim, said] of FEATURES) {
    const m = text.match(claim);
    if (m && !said.test(s.text)) out.push(`"${text}" promises ${m[0]}, which the listing does not mention`);
  }
  return out;
}
