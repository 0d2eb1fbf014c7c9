/**
 * Balanced line breaking: among all the ways to set a text in a given number of lines, the one
 * whose lines are most even (least sum of squared slack, the last line included, so a headline
 * does not taper to a stub), with a heavy cost for a short word alone on a line and a light one
 * for a hyphenated break. Dynamic programming over the break opportunities (Knuth–Plass without
 * stretching): a caption has a few dozen break opportunities at most.
 */

/** A run of text between two break opportunities. */
export interface Token {
  /** The text, with its trailing spaces. */
  text: string;
  /** A hard line break follows. */
  required: boolean;
  /** The token is part of a hyphenated word: a line ending here is drawn with a hyphen. */
  hyphen: boolean;
}

type Measure = (s: string) => number;
type LineOf = (tokens: Token[], from: number, to: number) => string;

/** A line of one token this narrow (share of the width), or of four letters or fewer, is a lone short word. */
const SHORT_SHARE = 0.35;
const SHORT_LETTERS = 4;

/**
 * The tokens set in exactly `lines` lines, each at most `maxWidth`, by the least cost; null when
 * no such setting exists (the caller keeps its greedy lines).
 */
export function balancedLines(tokens: Token[], lines: number, maxWidth: number, measure: Measure, lineOf: LineOf): string[] | null {
  const n = tokens.length;
  // A line's width as the sum of its tokens' (each measured once, the last without its trailing
  // spaces and with its hyphen): 2n measurements instead of one per candidate line. Kerning across
  // a break opportunity is next to nothing; the lines chosen are measured whole at the end.
  const full = tokens.map((t) => measure(t.text));
  const last = tokens.map((t) => measure(t.text.trimEnd() + (t.hyphen ? '-' : '')));
  const before = [0];
  for (const w of full) before.push(before.at(-1)! + w);
  const widthOf = (i: number, j: number): number => before[j - 1] - before[i] + last[j - 1];
  const lone = (i: number, j: number): boolean => {
    if (j - i !== 1 || n === 1 || tokens[i].hyphen) return false;
    // Counted in letters for alphabets only: three Han or kana characters are a phrase, not a stub.
    const letters = [...tokens[i].text.matchAll(/\p{L}/gu)].length;
    const ideographic = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(tokens[i].text);
    return (!ideographic && letters <= SHORT_LETTERS) || widthOf(i, j) < SHORT_SHARE * maxWidth;
  };
  const lineCost = (i: number, j: number): number => {
    const slack = maxWidth - widthOf(i, j);
    let cost = slack * slack;
    if (lone(i, j)) cost += 4 * maxWidth * maxWidth;
    if (tokens[j - 1].hyphen && j < n) cost += 0.04 * maxWidth * maxWidth;
    return cost;
  };
  // best[k][j]: least cost of the first j tokens in k lines; from[k][j]: where the k-th line starts.
  const best = Array.from({ length: lines + 1 }, () => new Array<number>(n + 1).fill(Infinity));
  const from = Array.from({ length: lines + 1 }, () => new Array<number>(n + 1).fill(-1));
  best[0][0] = 0;
  for (let k = 1; k <= lines; k++)
    for (let i = 0; i < n; i++) {
      if (best[k - 1][i] === Infinity) continue;
      for (let j = i + 1; j <= n; j++) {
        if (widthOf(i, j) > maxWidth) break;
        const cost = best[k - 1][i] + lineCost(i, j);
        if (cost < best[k][j]) {
          best[k][j] = cost;
          from[k][j] = i;
        }
        // A hard break ends the line: it may not run past it.
        if (tokens[j - 1].required) break;
      }
    }
  if (best[lines][n] === Infinity) return null;
  const out: string[] = [];
  for (let k = lines, j = n; k > 0; k--) {
    const i = from[k][j];
    out.unshift(lineOf(tokens, i, j));
    j = i;
  }
  return out.every((line) => measure(line) <= maxWidth) ? out : null;
}
