/**
 * The fonts the renderer draws with: static Noto TTFs from npm packages, registered from buffers
 * under our own family names so that a system font of the same name can never stand in for them.
 * Only the two weights the layouts use (400 for subheadlines, 700 for headlines) are loaded, and
 * the large files only when a text needs them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { GlobalFonts } from '@napi-rs/canvas';
import { FONT_SOURCES, type FontSource } from './font-sources.ts';

export { FONT_SOURCES, type FontSource };

const require = createRequire(import.meta.url);

function packageDir(pkg: string): string {
  // @fontsource's exports map hides package.json; its LICENSE is exported and sits at the root.
  try {
    return path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    return path.dirname(require.resolve(`${pkg}/LICENSE`));
  }
}

/** Absolute paths of a source's files, one per weight. */
export function fontFiles(src: FontSource): string[] {
  const dir = packageDir(src.pkg);
  return Object.values(src.files).map((file) => path.join(dir, file));
}

// Canvas keeps one font collection per process, shared by every thread: a family another render
// thread registered is already there.
function ensure(src: FontSource): void {
  if (GlobalFonts.has(src.family)) return;
  for (const file of fontFiles(src)) {
    if (!GlobalFonts.register(readFileSync(file), src.family)) throw new Error(`could not register font ${file}`);
  }
}

/** Registers every font. */
export function registerFonts(): void {
  for (const src of FONT_SOURCES) ensure(src);
}

/**
 * Registers the fonts these texts need: the small ones always, the CJK (~70 MB) and emoji files
 * (~115 ms to unpack) only when a text has such characters.
 */
export function registerFontsFor(texts: (string | null)[]): void {
  for (const src of FONT_SOURCES) if (!src.neededFor || texts.some((t) => t && src.neededFor!.test(t))) ensure(src);
}

const KANA = /[\u3040-\u30ff\u31f0-\u31ff]/u;
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/u;
const HAN = /\p{Script=Han}/u;
// Frequent characters that exist only in traditional writing; enough to tell a caption's variant.
const TRADITIONAL =
  /[們這個來為說時國會學開關與當對還樣後從發麼裡經點問機動現長書體區萬電實見話應錄覽應讓變認讀識營專業熱門圖網頁藝術雲記憶費車擁廣場]/u;

/**
 * The family list for a text, best match first: Han characters are drawn in the variant their
 * text is written in (Japanese, Korean, traditional or simplified Chinese), everything else falls
 * back per glyph through the list.
 */
export function familiesFor(text: string): string[] {
  let han = ['sg-sc', 'sg-tc', 'sg-jp', 'sg-kr'];
  if (HAN.test(text) || KANA.test(text) || HANGUL.test(text)) {
    if (KANA.test(text)) han = ['sg-jp', 'sg-sc', 'sg-tc', 'sg-kr'];
    else if (HANGUL.test(text)) han = ['sg-kr', 'sg-sc', 'sg-tc', 'sg-jp'];
    else if (TRADITIONAL.test(text)) han = ['sg-tc', 'sg-sc', 'sg-jp', 'sg-kr'];
  }
  return ['sg-latin', 'sg-arabic', 'sg-hebrew', 'sg-devanagari', 'sg-thai', ...han, 'sg-emoji'];
}

export function fontString(weight: 400 | 700, sizePx: number, text: string): string {
  return `${weight === 700 ? 'bold' : 'normal'} ${sizePx}px ${familiesFor(text)
    .map((f) => `"${f}"`)
    .join(', ')}`;
}
