/**
 * The fonts the renderer uses, by npm package and file. Kept apart from the registration code so
 * that reading the list (the README, the API process) does not load canvas.
 */
/** 400 subheadlines, 700 headlines, 900 the bold theme's headlines. */
export type Weight = 400 | 700 | 900;

export interface FontSource {
  family: string;
  pkg: string;
  /** File per weight, relative to the package folder. */
  files: Partial<Record<Weight, string>>;
  covers: string;
  licence: string;
  /** Registered only once a text needs it (the large CJK and emoji files); else always. */
  neededFor?: RegExp;
  /**
   * A display face (brand fonts): headlines only. Its hairlines vanish at the size a store shows a
   * subheadline in search results, so regular text stays in Noto Sans, as a designer pairs them.
   */
  display?: true;
}

/** Characters only the CJK fonts draw (Han, kana, Hangul, CJK punctuation, full-width forms). */
export const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;

const expo = (family: string, pkg: string, stem: string, covers: string, neededFor?: RegExp, black = false): FontSource => ({
  family,
  pkg: `@expo-google-fonts/${pkg}`,
  files: {
    400: `400Regular/${stem}_400Regular.ttf`,
    700: `700Bold/${stem}_700Bold.ttf`,
    ...(black ? { 900: `900Black/${stem}_900Black.ttf` } : {}),
  },
  covers,
  licence: 'OFL-1.1',
  neededFor,
});

export const FONT_SOURCES: FontSource[] = [
  // The bold theme's headlines are Black where the script has it (a missing weight falls back to 700).
  expo('sg-latin', 'noto-sans', 'NotoSans', 'Latin, Cyrillic, Greek', undefined, true),
  expo('sg-arabic', 'noto-sans-arabic', 'NotoSansArabic', 'Arabic'),
  expo('sg-hebrew', 'noto-sans-hebrew', 'NotoSansHebrew', 'Hebrew'),
  expo('sg-devanagari', 'noto-sans-devanagari', 'NotoSansDevanagari', 'Devanagari'),
  expo('sg-thai', 'noto-sans-thai', 'NotoSansThai', 'Thai'),
  expo('sg-jp', 'noto-sans-jp', 'NotoSansJP', 'Japanese', CJK),
  expo('sg-kr', 'noto-sans-kr', 'NotoSansKR', 'Korean', CJK),
  expo('sg-sc', 'noto-sans-sc', 'NotoSansSC', 'Simplified Chinese', CJK),
  expo('sg-tc', 'noto-sans-tc', 'NotoSansTC', 'Traditional Chinese', CJK),
  // ★ ✓ ✔ ☑ ➤ ► and the other dingbats, arrows and shapes of the planner's templates: Noto Sans
  // lacks most of them. Symbols 2 has one weight; bold text uses it as it is.
  expo('sg-symbols', 'noto-sans-symbols', 'NotoSansSymbols', 'symbols (technical, currency, alchemical)'),
  {
    family: 'sg-symbols2',
    pkg: '@expo-google-fonts/noto-sans-symbols-2',
    files: { 400: '400Regular/NotoSansSymbols2_400Regular.ttf' },
    covers: 'symbols 2 (dingbats, arrows, shapes, stars, check marks)',
    licence: 'OFL-1.1',
  },
  {
    family: 'sg-emoji',
    pkg: '@fontsource/noto-color-emoji',
    // One weight only; the "emoji" subset is the whole font (the numbered files are web subsets).
    files: { 400: 'files/noto-color-emoji-emoji-400-normal.woff' },
    covers: 'colour emoji (COLRv1)',
    licence: 'OFL-1.1',
    neededFor: /[\p{Extended_Pictographic}\p{Regional_Indicator}]/u,
  },
];

/**
 * The brand kit's fonts (src/core/themes.ts BRAND_FONTS), by family. Not in FONT_SOURCES: a
 * thread registers one only when a set names it, so a render without a brand font loads nothing
 * more. Each has the three weights of the layouts (the bold theme's headlines are Black).
 */
export const BRAND_FONT_SOURCES: FontSource[] = [
  expo('sg-brand-inter', 'inter', 'Inter', 'Latin, Cyrillic, Greek', undefined, true),
  expo('sg-brand-poppins', 'poppins', 'Poppins', 'Latin, Devanagari', undefined, true),
  { ...expo('sg-brand-playfair', 'playfair-display', 'PlayfairDisplay', 'Latin, Cyrillic', undefined, true), display: true },
  expo('sg-brand-nunito', 'nunito', 'Nunito', 'Latin, Cyrillic', undefined, true),
];
