/**
 * A second opinion on finished sets, written without the caption checker (src/captions/checker/check.ts) or
 * any of its helpers (complete.ts, text.ts, clean.ts): the writer keeps only what the checker passes,
 * so grading its output with the checker measures agreement with itself. These few rules are coarse
 * on purpose and cover what the issue counts as defects a copywriter sends back:
 *
 * - length: the set has exactly the slides asked for (`count`, or the narrative's roles);
 * - filler: a headline that says nothing but the app's name, its category and stock words
 *   ("TommyRun: An App", "The Perfect App", "Use This Free App.");
 * - cut: a headline or subheadline ending on an ellipsis, a dash, a comma or a word that needs
 *   another (an article, conjunction, preposition or possessive), or with an unclosed bracket;
 * - echo: a subheadline that opens with its headline's words;
 * - repeat: two headlines of one set equal once case and punctuation are dropped;
 * - number: a number the listing (and extraContext) never says.
 */
import { NARRATIVES } from '../../../src/core/narratives.ts';
import type { PlanInput, ScreenshotSetResult } from '../../../src/core/set.ts';

export const ORACLE_RULES = ['length', 'filler', 'cut', 'echo', 'repeat', 'number'] as const;
export type OracleRule = (typeof ORACLE_RULES)[number];

const words = (t: string): string[] => (t.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu) ?? []).map((w) => w);

/** Words a filler template is made of, besides the app's name and category. */
const STOCK = new Set(
  (
    'a an the this that your our my app apps application best perfect ultimate great good new free use using meet ' +
    'get try download now today for you with and of to in on is it one all here simply just only ' +
    'your app for everyone everything'
  ).split(' '),
);

/** Words no finished English caption ends on; other languages' own few, written here again. */
const ENDS: Record<string, Set<string>> = {
  en: new Set(
    'a an the and or but nor with of to for from into onto by at as your our my their its his her than that which who whose is are be can will via per such'.split(
      ' ',
    ),
  ),
  de: new Set('und oder mit von zu für der die das den dem des ein eine einen dein deine ihr ihre im in am an auf'.split(' ')),
  fr: new Set('et ou avec de des du le la les un une pour à au aux en sur par dans votre vos ton ta tes son sa ses'.split(' ')),
  es: new Set('y o con de del el la los las un una para por en tu tus su sus al que'.split(' ')),
  pt: new Set('e ou com de do da dos das o a os as um uma para por em no na seu sua que'.split(' ')),
  it: new Set('e o con di del della il lo la i gli le un una per da in su tuo tua che'.split(' ')),
};

/** "The people you travel with": a relative clause may end on its preposition. */
const STRANDED =
  /\b(you|we|they|i|anyone|everyone|people|friends|family)\b(\s+\S+){1,3}\s+(with|to|for|about|from|on|in|of|at)$|\b(when|where|what|how|as|wherever|everywhere)\s+(you|we|they|it|i|your \w+)\s+(are|is|were|was)$/i;

function cut(text: string, language: string): string | null {
  const t = text.trim();
  if (/(\.\.\.|…)$/u.test(t)) return 'ends in an ellipsis';
  if (/[,;:&+/–—-]$/u.test(t)) return 'ends on punctuation';
  const opens = (t.match(/[([{“«]/g) ?? []).length;
  const closes = (t.match(/[)\]}”»]/g) ?? []).length;
  if (opens !== closes) return 'unbalanced brackets';
  const bare = t.replace(/[.!?！。]+$/u, '');
  const last = words(bare).pop() ?? '';
  if ((ENDS[language] ?? ENDS.en).has(last) && !(language === 'en' && STRANDED.test(bare))) return `ends on "${last}"`;
  return null;
}

function numbers(text: string): string[] {
  return (text.match(/\d+(?:[.,]\d+)?/g) ?? []).map((n) => n.replace(',', '.'));
}

export interface OracleFinding {
  rule: OracleRule;
  slide: number | null;
  message: string;
}

/** The independent findings on one finished set. */
export function oracle(input: PlanInput, result: ScreenshotSetResult): OracleFinding[] {
  const out: OracleFinding[] = [];
  const r = input.request;
  const asked = r.slides?.length ?? (r.narrativeId ? NARRATIVES.find((n) => n.id === r.narrativeId)?.roles.length : (r.count ?? 5));
  if (result.slides.length !== asked) out.push({ rule: 'length', slide: null, message: `${result.slides.length} slides, ${asked} asked` });
  const primary = input.listings[0];
  const language = primary.language.slice(0, 2).toLowerCase();
  const own = new Set(input.listings.flatMap((l) => words(`${l.name} ${l.category} ${l.developer ?? ''}`)));
  const source = input.listings.map((l) => `${l.name}\n${l.subtitle ?? ''}\n${l.description}`).join('\n') + `\n${input.extraContext ?? ''}`;
  const known = new Set(numbers(source));
  if (primary.rating !== null) known.add(String(primary.rating)).add(primary.rating.toFixed(1));
  const heads = new Map<string, number>();
  for (const s of result.slides) {
    const add = (rule: OracleRule, message: string) => out.push({ rule, slide: s.index, message });
    const hw = words(s.headline);
    // Proof and the call to action may be the name and stock words ("Download Streakly Today").
    if (s.role !== 'social-proof' && s.role !== 'call-to-action' && hw.length > 0 && hw.every((w) => own.has(w) || STOCK.has(w)))
      add('filler', `"${s.headline}" is the name, the category and stock words`);
    for (const text of [s.headline, s.subheadline ?? '']) {
      const why = text && cut(text, language);
      if (why) add('cut', `"${text}" ${why}`);
      for (const n of numbers(text))
        if (!known.has(n) && !/^\d$/.test(n) && s.role !== 'social-proof') add('number', `"${text}" says ${n}`);
    }
    if (s.subheadline) {
      const h = hw.join(' ');
      if (hw.length >= 2 && `${words(s.subheadline).join(' ')} `.startsWith(`${h} `))
        add('echo', `"${s.subheadline}" opens with "${s.headline}"`);
    }
    const key = hw.join(' ');
    if (heads.has(key)) add('repeat', `"${s.headline}" repeats slide ${heads.get(key)}`);
    else heads.set(key, s.index);
  }
  return out;
}
