/**
 * Line breaking and fitting. Break opportunities come from UAX #14 (the linebreak package), plus
 * dictionary word boundaries from Intl.Segmenter inside Thai, Lao, Khmer and Myanmar runs, which
 * UAX #14 leaves to a dictionary. Lines are filled greedily with canvas' own measureText, so what
 * is measured is exactly what is drawn (same shaping, same per-glyph fallback).
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import LineBreaker from 'linebreak';
import { setFont, type Weight } from './fonts.ts';

const SOUTHEAST_ASIAN = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]+/gu;
const RTL_STRONG = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const LTR_STRONG = /[\p{L}]/u;

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u30fc]{2,}/gu;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;

const HANGUL = /[\p{Script=Hangul}]/u;
const SPACE = /\s/u;
// Kinsoku shori (JIS X 4051): characters a line may not open with (closing brackets and quotes,
// punctuation, iteration marks, small kana, the prolonged sound mark) and may not close with
// (opening brackets and quotes).
export const NO_LINE_START = new Set([
  ...'、。，．・：；？！‐゠–〜～ー…‥」』）］｝〕〉》】〙〗｠»’”〟)]}>ゝゞヽヾ々〻ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ%,.:;?!',
]);
export const NO_LINE_END = new Set([...'「『（［｛〔〈《【〘〖｟«‘“〝([{<¥$£€']);

/** Whether a line may break between these two characters by the kinsoku and keep-all rules. */
function allowedBetween(before: string, after: string): boolean {
  if (NO_LINE_START.has(after) || NO_LINE_END.has(before)) return false;
  // Korean breaks between words only (CSS word-break: keep-all): never inside a run of letters.
  if ((HANGUL.test(before) || HANGUL.test(after)) && !SPACE.test(before) && !SPACE.test(after)) return false;
  return true;
}

let thaiWords: Intl.Segmenter | null = null;
const cjkWords = new Map<string, Intl.Segmenter>();
let graphemes: Intl.Segmenter | null = null;

/** The text cut at every break opportunity; each piece keeps its trailing spaces. */
export function breakPieces(text: string): { piece: string; required: boolean }[] {
  const positions = new Map<number, boolean>();
  const breaker = new LineBreaker(text);
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) positions.set(bk.position, bk.required);
  for (const run of text.matchAll(SOUTHEAST_ASIAN)) {
    thaiWords ??= new Intl.Segmenter('th', { granularity: 'word' });
    for (const seg of thaiWords.segment(run[0]))
      if (seg.index > 0) positions.set(run.index + seg.index, positions.get(run.index + seg.index) ?? false);
  }
  // UAX #14 lets Chinese and Japanese break between any two characters, even inside a word
  // ("リ/スト"); keep only the dictionary's word boundaries there, as CSS word-break: auto-phrase.
  for (const run of text.matchAll(CJK_RUN)) {
    const locale = KANA.test(run[0]) ? 'ja' : 'zh';
    let seg = cjkWords.get(locale);
    if (!seg) cjkWords.set(locale, (seg = new Intl.Segmenter(locale, { granularity: 'word' })));
    const words = new Set([...seg.segment(run[0])].map((w) => run.index + w.index));
    for (let at = run.index + 1; at < run.index + run[0].length; at++)
      if (!words.has(at) && positions.get(at) === false) positions.delete(at);
  }
  // Positions are UTF-16 offsets: index the code points by their offset for the rules above.
  const byOffset: string[] = [];
  for (let i = 0; i < text.length;) {
    const cp = String.fromCodePoint(text.codePointAt(i)!);
    byOffset[i] = cp;
    i += cp.length;
  }
  const charBefore = (at: number) => {
    for (let i = at - 1; i >= 0; i--) if (byOffset[i] !== undefined) return byOffset[i];
    return undefined;
  };
  for (const [at, required] of positions)
    if (!required && at < text.length && !allowedBetween(charBefore(at) ?? '', byOffset[at] ?? '')) positions.delete(at);
  // A hyphenated word breaks after its hyphen only when both halves read on their own (four
  // letters or more): "In-Stock" and "Sign-In" stay whole, "long-/distance" may break.
  for (const [at, required] of positions) {
    if (required || at >= text.length || (byOffset[at - 1] !== '-' && byOffset[at - 1] !== '\u2010')) continue;
    const before = /[\p{L}\p{N}]*$/u.exec(text.slice(0, at - 1))![0];
    const after = /^[\p{L}\p{N}]*/u.exec(text.slice(at))![0];
    if ([...before].length < 4 || [...after].length < 4) positions.delete(at);
  }
  const sorted = [...positions.keys()].sort((a, b) => a - b);
  const pieces: { piece: string; required: boolean }[] = [];
  let last = 0;
  for (const pos of sorted) {
    if (pos <= last) continue;
    pieces.push({ piece: text.slice(last, pos), required: positions.get(pos) === true && pos < text.length });
    last = pos;
  }
  if (last < text.length) pieces.push({ piece: text.slice(last), required: false });
  return pieces;
}

export interface Wrapped {
  lines: string[];
  /** False when some piece is wider than the box on its own (the size must shrink). */
  fits: boolean;
}

type Measure = (s: string) => number;

/** Greedy fill: as many pieces on a line as fit in maxWidth; trailing spaces do not count. */
export function wrap(text: string, maxWidth: number, measure: Measure): Wrapped {
  const lines: string[] = [];
  let line = '';
  let fits = true;
  for (const { piece, required } of breakPieces(text.trim())) {
    const candidate = line + piece;
    if (line !== '' && measure(candidate.trimEnd()) > maxWidth) {
      lines.push(line.trimEnd());
      line = piece;
    } else {
      line = candidate;
    }
    if (measure(line.trimEnd()) > maxWidth) fits = false;
    if (required) {
      lines.push(line.trimEnd());
      line = '';
    }
  }
  if (line.trim() !== '') lines.push(line.trimEnd());
  return { lines, fits };
}

/** Last resort for a word wider than the box at the smallest size: cut it between graphemes. */
export function wrapByGrapheme(text: string, maxWidth: number, measure: Measure): string[] {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const out: string[] = [];
  for (const line of wrap(text, maxWidth, measure).lines) {
    let cur = '';
    for (const { segment } of graphemes.segment(line)) {
      const last = [...cur].at(-1) ?? '';
      const first = [...segment][0];
      // Even a cut word keeps kinsoku: a closing mark goes with the character before it.
      const may = !NO_LINE_START.has(first) && !NO_LINE_END.has(last);
      if (cur !== '' && may && measure(cur + segment) > maxWidth) {
        out.push(cur.trimEnd());
        cur = segment.trimStart();
      } else cur += segment;
    }
    if (cur.trim() !== '') out.push(cur);
  }
  return out;
}

/** The paragraph direction: that of the first strong character (UAX #9, rules P2–P3). */
export function directionOf(text: string): 'rtl' | 'ltr' {
  for (const ch of text) {
    if (RTL_STRONG.test(ch)) return 'rtl';
    if (LTR_STRONG.test(ch)) return 'ltr';
  }
  return 'ltr';
}

export const HEADLINE_LINE_HEIGHT = 1.18;
export const SUB_LINE_HEIGHT = 1.32;
export const MAX_LINES = 3;

export function measurer(ctx: SKRSContext2D, weight: Weight, size: number, text: string): Measure {
  setFont(ctx, weight, size, text);
  return (s) => ctx.measureText(s).width;
}

export function linesAt(ctx: SKRSContext2D, text: string, weight: Weight, size: number, maxWidth: number): Wrapped {
  return wrap(text, maxWidth, measurer(ctx, weight, size, text));
}

/**
 * The largest whole pixel size in [min, max] at which every text fits the width in at most
 * MAX_LINES lines; `min` when none does (the caller then lets lines run on, never cuts them).
 */
export function fitSize(ctx: SKRSContext2D, texts: string[], weight: Weight, maxWidth: number, min: number, max: number): number {
  const ok = (size: number) =>
    texts.every((t) => {
      const w = linesAt(ctx, t, weight, size, maxWidth);
      return w.fits && w.lines.length <= MAX_LINES;
    });
  if (texts.length === 0 || ok(max)) return max;
  let lo = min;
  let hi = max;
  if (!ok(lo)) return min;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Balanced lines (CSS `text-wrap: balance`): the narrowest width that still gives the greedy line
 * count, so a headline does not end on a lone word.
 */
export function balance(text: string, maxWidth: number, measure: Measure): string[] {
  const greedy = wrap(text, maxWidth, measure);
  if (!greedy.fits || greedy.lines.length < 2) return greedy.lines;
  const n = greedy.lines.length;
  // Two sentences on two lines break between them: "UNLIMITED HABITS. / TRACKED.", not "UNLIMITED / HABITS. TRACKED.".
  const sentences = text.trim().split(/(?<=[.!?。！？])\s+/u);
  if (n === 2 && sentences.length === 2 && sentences.every((line) => measure(line) <= maxWidth)) return sentences;
  let lo = maxWidth / n;
  let hi = maxWidth;
  let best = greedy.lines;
  while (hi - lo > 2) {
    const mid = (lo + hi) / 2;
    const w = wrap(text, mid, measure);
    if (w.fits && w.lines.length <= n) {
      best = w.lines;
      hi = mid;
    } else lo = mid;
  }
  return best;
}

/** The lines actually drawn: balanced at `size`, or cut between graphemes if a word is too wide. */
export function drawnLines(ctx: SKRSContext2D, text: string, weight: Weight, size: number, maxWidth: number): string[] {
  const measure = measurer(ctx, weight, size, text);
  return wrap(text, maxWidth, measure).fits ? balance(text, maxWidth, measure) : wrapByGrapheme(text, maxWidth, measure);
}
