/**
 * The caption and plan rules, written again from the contract rather than imported from the planner,
 * so that a planner bug cannot hide behind a shared helper.
 */
import { slideSize } from '../../src/core/orientation.ts';
import type { Listing } from '../../src/core/listing.ts';
import { DEVICES } from '../../src/core/devices.ts';
import { type PlanInput, type ScreenshotSetResult } from '../../src/core/set.ts';
import { foreignVocabulary, VOICES } from '../../src/captions/rules/voices.ts';

// The oracle's own word rules, written again rather than imported: a planner bug in them must not
// hide behind a shared helper. Only the voices' templates (data, not predicates) come from src.

/** Every word a voice's templates add ("Rated", "Download", "Today"). */
function voiceVocabulary(style: keyof typeof VOICES): Set<string> {
  const v = VOICES[style];
  const all = [
    v.hero,
    Object.values(v.feature),
    v.step,
    v.problem,
    v.socialProof,
    v.socialProofSub,
    v.socialProofLong,
    v.socialProofLongSub,
    v.callToAction,
    v.callToActionSub,
  ]
    .flat(2)
    .join(' ')
    .replace(/\{\w+\}/g, ' ');
  return new Set(wordsOfRaw(all));
}
function wordsOfRaw(t: string): string[] {
  return (t.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu) ?? []).map((w) => w.toLowerCase());
}

/** "With the people you travel with": a relative clause may end on its preposition. */
function strandedPreposition(t: string): boolean {
  return /\b(you|we|they|i|people|friends|family|anyone|everyone)\b(\s+\S+){1,3}\s+(with|to|for|about|from|on|in|of|at)[.!?]*$/i.test(
    t.trim(),
  );
}

const IRREGULAR: Record<string, string> = {
  built: 'build',
  done: 'do',
  made: 'make',
  kept: 'keep',
  written: 'write',
  shown: 'show',
  seen: 'see',
  found: 'find',
  sent: 'send',
  spent: 'spend',
  taken: 'take',
  given: 'give',
  got: 'get',
  driven: 'drive',
  grown: 'grow',
  known: 'know',
  broken: 'break',
  chosen: 'choose',
  drawn: 'draw',
  sung: 'sing',
  begun: 'begin',
  eaten: 'eat',
  gone: 'go',
  worn: 'wear',
  ridden: 'ride',
  flown: 'fly',
  swum: 'swim',
  hidden: 'hide',
  thrown: 'throw',
  shaken: 'shake',
  spoken: 'speak',
  forgotten: 'forget',
};
/** The verbs a participle may come from ("tracked" → track, trac, tracke; "built" → build). */
function participleBases(w: string): string[] {
  const out = IRREGULAR[w] ? [IRREGULAR[w]] : [];
  if (w.endsWith('ied')) out.push(`${w.slice(0, -3)}y`);
  if (w.endsWith('ed')) out.push(w.slice(0, -2), w.slice(0, -1), w.slice(0, -3));
  return out;
}

const WORD = /[\p{L}\p{N}]+(?:['’.][\p{L}\p{N}]+)*/gu;
const wordsOf = (t: string) => (t.match(WORD) ?? []).map((w) => w.toLowerCase());
const DANGLING: Record<string, Set<string>> = {
  en: new Set(['and', 'or', 'with', 'of', 'the', 'a', 'an', 'to', 'for', 'your']),
  fr: new Set(['et', 'ou', 'avec', 'de', 'des', 'du', 'le', 'la', 'les', 'pour']),
};

export function sourceWords(input: PlanInput): Set<string> {
  const out = new Set<string>();
  for (const l of input.listings)
    for (const t of [l.name, l.category, l.subtitle ?? '', l.description, l.developer ?? '']) for (const w of wordsOf(t)) out.add(w);
  for (const w of wordsOf(input.extraContext ?? '')) out.add(w);
  // French elision: "l’accès" also grounds "accès".
  for (const w of [...out]) out.add(w.replace(/^(l|d|qu|j|n|s|c|m|t)['’]/, ''));
  return out;
}

function luminance(hex: string): number {
  const c = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}
export const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
};

const VOCABULARY: Partial<Record<string, Set<string>>> = {};
const FALLBACK: Record<string, string | undefined> = { 'android-phone': 'android-tablet', 'android-tablet': 'android-phone' };

/** Every rule violation of `result` for `input`; empty when the plan is good. */
export function planViolations(input: PlanInput, result: ScreenshotSetResult): string[] {
  const v: string[] = [];
  const req = input.request;
  const device = DEVICES[req.device];
  const length = req.captionLength ?? 'short';
  const style = req.captionStyle ?? 'aso-expert';
  const language = (input.listings.find((l) => l.store === device.store) ?? input.listings[0]).language.slice(0, 2);
  const english = language === 'en';
  const dangling = DANGLING[language] ?? DANGLING.en;
  const allowed = sourceWords(input);
  const vocabulary = english ? (VOCABULARY[style] ??= voiceVocabulary(style)) : foreignVocabulary(language);
  const free = input.listings.every((l) => l.price === 0);
  const rated = input.listings.some((l) => l.rating !== null && l.ratingCount !== null);

  // Upright or turned (a listing whose screens are all landscape plans landscape slides: core/orientation.ts).
  const sized = (['portrait', 'landscape'] as const).some((o) => {
    const s = slideSize(req.device, o);
    return s.width === result.width && s.height === result.height;
  });
  if (result.device !== req.device || !sized) v.push('device echo/size');
  if (result.captionStyle !== style || result.captionLength !== length) v.push('style/length echo');
  if (result.narrativeId !== (req.narrativeId ?? null)) v.push('narrativeId echo');
  // Fewer slides than asked only for a sparse listing, and then the warnings say so and why.
  const asked = req.narrativeId ? null : (req.count ?? 5);
  const shrunk = result.warnings.some((w) => /not the \d+ asked for/.test(w));
  if (asked !== null && result.slides.length !== asked && !(shrunk && result.slides.length < asked))
    v.push(`slide count ${result.slides.length}`);
  if (result.slides.length === 0) v.push('no slides');
  const seen = new Set<string>();
  const family = device.family;
  const urls = (fam: string) =>
    new Set(input.listings.flatMap((l: Listing) => l.screenshots[fam as keyof Listing['screenshots']].map((s) => s.url)));
  const own = urls(family);
  const fb = FALLBACK[family] ? urls(FALLBACK[family] as string) : new Set<string>();
  const colors = result.slides[0]?.background.colors.join();
  result.slides.forEach((s, i) => {
    const at = `slide ${i + 1} "${s.headline}"`;
    if (s.index !== i + 1) v.push(`${at}: index ${s.index}`);
    if (!s.headline.trim()) v.push(`${at}: empty headline`);
    if (length === 'short' && (s.headline.length > 30 || s.subheadline !== null)) v.push(`${at}: short caption rule`);
    // A long slide may stand on its headline alone (not the hero), and then the set says so.
    if (
      length === 'long' &&
      (s.headline.length > 40 ||
        (s.subheadline === null && s.role === 'hero') ||
        (s.subheadline !== null && (s.subheadline.length > 100 || !s.subheadline.trim())))
    )
      v.push(`${at}: long caption rule (${s.subheadline})`);
    if (length === 'long' && s.subheadline === null && !result.warnings.some((w) => new RegExp(`\\b${i + 1}\\b.*no subheadline`).test(w)))
      v.push(`${at}: no subheadline and no warning naming the slide`);
    for (const text of [s.headline, s.subheadline ?? '']) {
      const t = text.replace(/[.!?…]+$/u, '').trimEnd();
      if (text && (/[,&;:+\-–—]$/.test(t) || (dangling.has(wordsOf(t).pop() ?? '') && !strandedPreposition(t))))
        v.push(`${at}: dangling end in "${text}"`);
      for (const w of wordsOf(text)) {
        // The bold voice says an action as its result ("Your looks. Saved."): the listing's verb, inflected.
        if (!allowed.has(w) && !vocabulary.has(w) && !/^\d/.test(w) && !participleBases(w).some((b) => allowed.has(b)))
          v.push(`${at}: word "${w}" is neither the listing's nor the voice's`);
      }
      if (!free && /\bfree\b/i.test(text)) v.push(`${at}: says free for a paid app`);
    }
    const key = s.headline.toLowerCase();
    if (seen.has(key)) v.push(`${at}: repeated headline`);
    seen.add(key);
    if (s.role === 'social-proof' && !rated) v.push(`${at}: social proof without a rating`);
    if (!/^#[0-9A-F]{6}$/i.test(s.textColor) || s.background.colors.length < 2) v.push(`${at}: colour format`);
    for (const c of s.background.colors)
      if (contrast(c, s.textColor) < 4.5) v.push(`${at}: contrast ${contrast(c, s.textColor).toFixed(2)} on ${c}`);
    if (s.background.colors.join() !== colors) v.push(`${at}: background differs within the set`);
    if (s.screenshotUrl === null) {
      if (s.layout !== 'text-only') v.push(`${at}: no screenshot but layout ${s.layout}`);
      // A Mac app's shots fit no iOS slot: warned about. Landscape shots are kept (a landscape set, or turned devices).
      const excused = result.warnings.some((w) => /Mac app/.test(w));
      if ((own.size > 0 || fb.size > 0) && !excused) v.push(`${at}: null screenshot although the listing has some`);
    } else if (!(own.has(s.screenshotUrl) || (own.size === 0 && fb.has(s.screenshotUrl))))
      v.push(`${at}: screenshot from the wrong family`);
    if (!Array.isArray(s.keywords) || s.keywords.some((k) => !allowed.has(k))) v.push(`${at}: keywords ${s.keywords}`);
  });
  if (result.slides.some((s) => s.screenshotUrl === null) && !result.warnings.some((w) => /no .*screenshots|Mac app/i.test(w)))
    v.push('null screenshot without a warning');
  if (own.size === 0 && fb.size > 0 && !result.warnings.some((w) => /instead/.test(w))) v.push('fallback family without a warning');
  if (device.store === 'google-play' && result.slides.length > 8 && !result.warnings.some((w) => /at most 8/.test(w)))
    v.push('no Google Play 8-shot warning');
  if (!english && !result.warnings.some((w) => /not English/.test(w))) v.push('non-English listing without a warning');
  return v;
}
