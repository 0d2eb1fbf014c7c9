/**
 * Line breaking and fitting. Break opportunities come from UAX #14 (the linebreak package), plus
 * dictionary word boundaries from Intl.Segmenter inside Thai, Lao, Khmer and Myanmar runs, which
 * UAX #14 leaves to a dictionary; Japanese breaks between BudouX phrases, one-letter Slavic
 * prepositions stay with their word, and German and Dutch words too wide for a line are
 * hyphenated (./phrases.ts, ./hyphenate.ts). Lines are measured with canvas' own measureText, so
 * what is measured is exactly what is drawn (same shaping, same per-glyph fallback).
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import LineBreaker from 'linebreak';
import { setFont, type Weight } from './fonts.ts';
import { hyphenates, syllables } from './hyphenate.ts';
import { japanesePhraseBreaks, tiedBreaks } from './phrases.ts';
import { balancedLines, type Token } from './balance.ts';

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

/**
 * The text cut at every break opportunity; each piece keeps its trailing spaces. `lang` (BCP 47,
 * the captions' locale) adds the language's own rules: Polish, Czech and Slovak one-letter words.
 */
export function breakPieces(text: string, lang?: string): { piece: string; required: boolean }[] {
  // Fitting a set wraps each caption at a dozen sizes and widths; its break opportunities are the
  // same every time (~1 ms to find), so the last few hundred are kept.
  const key = `${lang ?? ''}\u0000${text}`;
  const known = piecesCache.get(key);
  if (known) return known;
  const found = findPieces(text, lang);
  if (piecesCache.size >= PIECES_KEPT) piecesCache.delete(piecesCache.keys().next().value!);
  piecesCache.set(key, found);
  return found;
}

const piecesCache = new Map<string, { piece: string; required: boolean }[]>();
const PIECES_KEPT = 512;

function findPieces(text: string, lang: string | undefined): { piece: string; required: boolean }[] {
  const positions = new Map<number, boolean>();
  const breaker = new LineBreaker(text);
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) positions.set(bk.position, bk.required);
  for (const run of text.matchAll(SOUTHEAST_ASIAN)) {
    thaiWords ??= new Intl.Segmenter('th', { granularity: 'word' });
    for (const seg of thaiWords.segment(run[0]))
      if (seg.index > 0) positions.set(run.index + seg.index, positions.get(run.index + seg.index) ?? false);
  }
  // UAX #14 lets Chinese and Japanese break between any two characters, even inside a word
  // ("リ/スト"); keep only phrase boundaries there, as CSS word-break: auto-phrase: BudouX's for
  // Japanese ("連携して" whole, where a word segmenter cuts "連携し/て"), the dictionary's words
  // for Chinese.
  for (const run of text.matchAll(CJK_RUN)) {
    let words: Set<number>;
    if (KANA.test(run[0])) words = new Set([...japanesePhraseBreaks(run[0])].map((at) => run.index + at));
    else {
      let seg = cjkWords.get('zh');
      if (!seg) cjkWords.set('zh', (seg = new Intl.Segmenter('zh', { granularity: 'word' })));
      words = new Set([...seg.segment(run[0])].map((w) => run.index + w.index));
    }
    for (let at = run.index + 1; at < run.index + run[0].length; at++)
      if (!words.has(at) && positions.get(at) === false) positions.delete(at);
  }
  for (const at of tiedBreaks(text, lang)) if (positions.get(at) === false) positions.delete(at);
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

/**
 * The pieces as line-breaking tokens: in a language with hyphenation patterns, a word wider than
 * `hyphenOver` on its own is cut at its hyphenation points, each cut drawn with a hyphen when a
 * line ends there. A word that fits a line is never hyphenated.
 */
export function tokensOf(text: string, measure: Measure, lang?: string, hyphenOver = Infinity): Token[] {
  const out: Token[] = [];
  const hyphenated = hyphenates(lang);
  for (const { piece, required } of breakPieces(text.trim(), lang)) {
    const parts = hyphenated && measure(piece.trimEnd()) > hyphenOver ? syllables(piece, lang) : [piece];
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      out.push({ text: part, required: last && required, hyphen: !last });
    });
  }
  return out;
}

/** The text of the tokens [from, to) as one line: trailing spaces dropped, a hyphen where a word was cut. */
export const lineOf = (tokens: Token[], from: number, to: number): string =>
  tokens
    .slice(from, to)
    .map((t) => t.text)
    .join('')
    .trimEnd() + (tokens[to - 1]?.hyphen ? '-' : '');

/**
 * Greedy fill: as many tokens on a line as fit in maxWidth; trailing spaces do not count. `lang`:
 * the text's language (its break and hyphenation rules); a German or Dutch word wider than
 * `hyphenOver` (default: the width) is hyphenated.
 */
export function wrap(text: string, maxWidth: number, measure: Measure, lang?: string, hyphenOver = maxWidth): Wrapped {
  return wrapTokens(tokensOf(text, measure, lang, hyphenOver), maxWidth, measure);
}

function wrapTokens(tokens: Token[], maxWidth: number, measure: Measure): Wrapped {
  const lines: string[] = [];
  let start = 0;
  let fits = true;
  for (let end = 1; end <= tokens.length; end++) {
    if (end - 1 > start && measure(lineOf(tokens, start, end)) > maxWidth) {
      lines.push(lineOf(tokens, start, end - 1));
      start = end - 1;
    }
    if (measure(lineOf(tokens, start, end)) > maxWidth) fits = false;
    if (tokens[end - 1].required) {
      lines.push(lineOf(tokens, start, end));
      start = end;
    }
  }
  if (start < tokens.length && lineOf(tokens, start, tokens.length).trim() !== '') lines.push(lineOf(tokens, start, tokens.length));
  return { lines, fits };
}

/** Last resort for a word wider than the box at the smallest size: cut it between graphemes. */
export function wrapByGrapheme(text: string, maxWidth: number, measure: Measure, lang?: string): string[] {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const out: string[] = [];
  for (const line of wrap(text, maxWidth, measure, lang).lines) {
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

/** measureText at one font (~0.3 ms a call at headline sizes), each string measured once. */
export function measurer(ctx: SKRSContext2D, weight: Weight, size: number, text: string): Measure {
  setFont(ctx, weight, size, text);
  const known = new Map<string, number>();
  return (s) => {
    let w = known.get(s);
    if (w === undefined) known.set(s, (w = ctx.measureText(s).width));
    return w;
  };
}

export function linesAt(ctx: SKRSContext2D, text: string, weight: Weight, size: number, maxWidth: number, lang?: string): Wrapped {
  return wrap(text, maxWidth, measurer(ctx, weight, size, text), lang);
}

/**
 * The largest whole pixel size in [min, max] at which every text fits the width in at most
 * MAX_LINES lines; `min` when none does (the caller then lets lines run on, never cuts them).
 * A text may carry its own language; a bare string is in `lang`.
 */
export function fitSize(
  ctx: SKRSContext2D,
  texts: (string | { text: string; lang?: string })[],
  weight: Weight,
  maxWidth: number,
  min: number,
  max: number,
  lang?: string,
): number {
  const items = texts.map((t) => (typeof t === 'string' ? { text: t, lang } : t));
  // The text that failed last is tried first: a set's longest caption usually decides every step.
  let hardest = 0;
  const fits = (size: number, k: number) => {
    const w = linesAt(ctx, items[k].text, weight, size, maxWidth, items[k].lang);
    return w.fits && w.lines.length <= MAX_LINES;
  };
  const ok = (size: number) => {
    if (!fits(size, hardest)) return false;
    for (let k = 0; k < items.length; k++)
      if (k !== hardest && !fits(size, k)) {
        hardest = k;
        return false;
      }
    return true;
  };
  if (items.length === 0 || ok(max)) return max;
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
 * Balanced lines (CSS `text-wrap: balance`, and a typesetter's eye): the greedy line count, the
 * lines as even as the breaks allow, no short word left alone on a line when another break
 * avoids it (./balance.ts).
 */
export function balance(text: string, maxWidth: number, measure: Measure, lang?: string): string[] {
  const tokens = tokensOf(text, measure, lang, maxWidth);
  const greedy = wrapTokens(tokens, maxWidth, measure);
  if (!greedy.fits || greedy.lines.length < 2) return greedy.lines;
  const n = greedy.lines.length;
  // Two sentences on two lines break between them: "UNLIMITED HABITS. / TRACKED.", not "UNLIMITED / HABITS. TRACKED.".
  const sentences = text.trim().split(/(?<=[.!?。！？])\s+/u);
  if (n === 2 && sentences.length === 2 && sentences.every((line) => measure(line) <= maxWidth)) return sentences;
  return balancedLines(tokens, n, maxWidth, measure, lineOf) ?? greedy.lines;
}

/** The lines actually drawn: balanced at `size`, or cut between graphemes if a word is too wide. */
export function drawnLines(ctx: SKRSContext2D, text: string, weight: Weight, size: number, maxWidth: number, lang?: string): string[] {
  const measure = measurer(ctx, weight, size, text);
  return wrap(text, maxWidth, measure, lang).fits ? balance(text, maxWidth, measure, lang) : wrapByGrapheme(text, maxWidth, measure, lang);
}
