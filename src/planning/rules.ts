/** The caption rules as code, for captions the planner did not write itself (the LLM path). */
import type { Understanding } from './understand.ts';
import { contentWords, dangles, danglingWords, headlineKey, mentionsFree } from './text.ts';
import { CAPTION_LENGTHS, type CaptionLength, type CaptionStyle } from './types.ts';
import { voiceVocabulary } from './voices.ts';

export interface CaptionText {
  headline: string;
  subheadline: string | null;
}

const OTHER_PLATFORM = { 'app-store': /\b(android|google play|play store)\b/i, 'google-play': /\b(iphone|ipad|ios|app store)\b/i };
// A writer that ran out of room ends on these rather than on a finished word.
const LOOKS_CUT = /(\.\.\.|…|-)$/;

/** Fraction of a caption's content words that must come from the listing or the voice's vocabulary. */
const GROUNDED_SHARE = 0.75;

/** How captions in another language than the listing's are checked (translations, ./translate.ts). */
export interface CaptionCheckOptions {
  /** The captions' length in characters; a translation counts full-width characters twice (./locales.ts). */
  width?: (text: string) => number;
  /** Words a caption must not end on; default: the listing language's and English. */
  dangling?: Set<string>;
  /** Whether content words must come from the listing: only for captions in its own language. */
  grounded?: boolean;
}

export function captionProblems(
  captions: CaptionText[],
  length: CaptionLength,
  style: CaptionStyle,
  u: Understanding,
  store: 'app-store' | 'google-play',
  options: CaptionCheckOptions = {},
): string[] {
  const limits = CAPTION_LENGTHS[length];
  const dangling = options.dangling ?? danglingWords(u.language);
  const width = options.width ?? ((t: string) => t.length);
  const checkGrounding = options.grounded ?? true;
  const vocabulary = voiceVocabulary(style);
  const known = [...u.sourceWords];
  const grounded = (w: string) =>
    u.sourceWords.has(w) || vocabulary.has(w) || (w.length >= 5 && known.some((k) => k.startsWith(w.slice(0, 5))));
  const problems: string[] = [];
  const seen = new Set<string>();
  captions.forEach((c, i) => {
    const at = `slide ${i + 1}`;
    const texts = [c.headline, ...(c.subheadline === null ? [] : [c.subheadline])];
    if (!c.headline.trim()) problems.push(`${at}: empty headline`);
    if (width(c.headline) > limits.headline) problems.push(`${at}: headline longer than ${limits.headline} characters`);
    if (limits.subheadline === 0 && c.subheadline !== null) problems.push(`${at}: short captions have no subheadline`);
    if (limits.subheadline > 0 && (c.subheadline === null || !c.subheadline.trim()))
      problems.push(`${at}: long captions need a subheadline`);
    if (c.subheadline !== null && width(c.subheadline) > limits.subheadline)
      problems.push(`${at}: subheadline longer than ${limits.subheadline} characters`);
    for (const t of texts) {
      if (dangles(t, dangling) || LOOKS_CUT.test(t.trim())) problems.push(`${at}: "${t}" ends unfinished`);
      if (!u.free && mentionsFree(t)) problems.push(`${at}: says "free" but the app is paid`);
      if (OTHER_PLATFORM[store].test(t)) problems.push(`${at}: names another store's platform`);
      if (!checkGrounding) continue;
      const words = contentWords(t, u.language);
      const ok = words.filter(grounded).length;
      if (words.length > 0 && ok / words.length < GROUNDED_SHARE) problems.push(`${at}: "${t}" is not grounded in the listing`);
    }
    const key = headlineKey(c.headline);
    if (seen.has(key)) problems.push(`${at}: repeats an earlier headline`);
    seen.add(key);
  });
  return problems;
}
