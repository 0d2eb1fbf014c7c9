/**
 * The fonts the renderer draws with: static Noto TTFs from npm packages, registered from buffers
 * under our own family names so that a system font of the same name can never stand in for them.
 * Only the weights the layouts use (400 for subheadlines, 700 for headlines, 900 for the bold
 * theme's Latin headlines) are loaded, and
 * the large files only when a text needs them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { SKRSContext2D } from '@napi-rs/canvas';
import { skia } from './canvas.ts';
import { BRAND_FONTS, type BrandFontId } from '../core/themes.ts';
import { coverageOf } from './cmap.ts';
import { BRAND_FONT_SOURCES, CJK, FONT_SOURCES, type FontSource, type Weight } from './font-sources.ts';

export { BRAND_FONT_SOURCES, FONT_SOURCES, type FontSource, type Weight };

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
// The code points each family maps, read from the same bytes it was registered from (per thread).
const covers = new Map<string, (cp: number) => boolean>();

function ensure(src: FontSource): void {
  if (covers.has(src.family)) return;
  const files = fontFiles(src);
  const registered = skia().GlobalFonts.has(src.family);
  for (const [i, file] of files.entries()) {
    const bytes = readFileSync(file);
    if (i === 0) covers.set(src.family, coverageOf(bytes, file));
    if (!registered && !skia().GlobalFonts.register(bytes, src.family)) throw new Error(`could not register font ${file}`);
  }
}

// Drawn as nothing by design: spaces, joiners, variation selectors, combining marks (they draw
// with their base), tags and other format characters.
const INVISIBLE = /[\s\p{M}\p{Cf}\uFE00-\uFE0F]/u;

/**
 * The characters of a text that no font of the renderer maps (registered fonts only: call after
 * registerFontsFor): skia would draw them as nothing, or as a box from a system font.
 */
export function missingGlyphs(text: string, lead?: string): string[] {
  const families = familiesFor(text, lead);
  const missing = new Set<string>();
  for (const ch of text) {
    if (INVISIBLE.test(ch)) continue;
    const cp = ch.codePointAt(0)!;
    if (!families.some((f) => covers.get(f)?.(cp))) missing.add(ch);
  }
  return [...missing];
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
// Frequent characters that exist only in traditional writing; enough to tell a caption's variant.
const TRADITIONAL =
  /[們這個來為說時國會學開關與當對還樣後從發麼裡經點問機動現長書體區萬電實見話應錄覽應讓變認讀識營專業熱門圖網頁藝術雲記憶費車擁廣場]/u;

/**
 * The family list for a text, best match first: Han characters are drawn in the variant their
 * text is written in (Japanese, Korean, traditional or simplified Chinese), everything else falls
 * back per glyph through the list. The CJK families are listed only for a text with CJK
 * characters: they also map ★ ✓ → and other symbols, and are registered only once a text needs
 * them (process-wide), so listing them always would draw a Latin caption's ★ from the CJK font on
 * a thread that drew a Japanese caption before, and from the symbols font elsewhere.
 */
export function familiesFor(text: string, lead?: string): string[] {
  let han: string[] = [];
  if (CJK.test(text)) {
    han = ['sg-sc', 'sg-tc', 'sg-jp', 'sg-kr'];
    if (KANA.test(text)) han = ['sg-jp', 'sg-sc', 'sg-tc', 'sg-kr'];
    else if (HANGUL.test(text)) han = ['sg-kr', 'sg-sc', 'sg-tc', 'sg-jp'];
    else if (TRADITIONAL.test(text)) han = ['sg-tc', 'sg-sc', 'sg-jp', 'sg-kr'];
  }
  const list = ['sg-latin', 'sg-arabic', 'sg-hebrew', 'sg-devanagari', 'sg-thai', ...han, 'sg-symbols', 'sg-symbols2', 'sg-emoji'];
  // Skia picks each glyph from the first family that has it, so a brand font that also draws one
  // of these scripts (Poppins has Devanagari) would take over that script's captions, and its
  // spaces and digits would sit among the script's own: such a caption keeps the Noto list whole.
  if (!lead || OWN_SCRIPT.test(text)) return list;
  return [lead, ...list];
}

const OWN_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Devanagari}\p{Script=Thai}]/u;

export function fontString(weight: Weight, sizePx: number, text: string, lead?: string): string {
  return `${weight === 400 ? 'normal' : weight === 700 ? 'bold' : weight} ${sizePx}px ${familiesFor(text, lead)
    .map((f) => `"${f}"`)
    .join(', ')}`;
}

// The brand font of the set a context draws or measures for: set once per slide (compose, the
// fit), read wherever a font is set on that context, so no function between needs a parameter.
const leads = new WeakMap<SKRSContext2D, string>();

/**
 * Makes a brand kit's font lead every text set on this context from now on (registering it once
 * per thread); the default, or none, takes the lead back to Noto Sans.
 */
export function useBrandFont(ctx: SKRSContext2D, font: BrandFontId | null | undefined): void {
  const family = font ? BRAND_FONTS[font]?.family : undefined;
  const src = BRAND_FONT_SOURCES.find((s) => s.family === family);
  if (!src) {
    if (font && !family) throw new Error(`unknown brand font ${font}`);
    leads.delete(ctx);
    return;
  }
  ensure(src);
  leads.set(ctx, src.family);
}

const DISPLAY_FACES = new Set(BRAND_FONT_SOURCES.filter((s) => s.display).map((s) => s.family));

/** The brand family leading this context's texts; undefined: Noto Sans. */
export const leadOf = (ctx: SKRSContext2D): string | undefined => leads.get(ctx);

/** Sets the font for this text on the context, its brand font first (useBrandFont; a display face for bold text only). */
export function setFont(ctx: SKRSContext2D, weight: Weight, sizePx: number, text: string): void {
  const lead = leads.get(ctx);
  ctx.font = fontString(weight, sizePx, text, weight === 400 && lead && DISPLAY_FACES.has(lead) ? undefined : lead);
}
