/**
 * Locales of a multi-language set (request `locales`): which tags are valid, which one the
 * built-in planner writes (the listing's own language) and how long a caption is in each script.
 */
import type { FieldError } from './problem.ts';
import type { Listing } from './listing.ts';

export const MAX_LOCALES = 10;
/** BCP 47 language-REGION, as the stores name their localisations: "en-US", "de-DE", "pt-BR". */
export const LOCALE_PATTERN = '^[a-z]{2,3}-[A-Z]{2}$';
const LOCALE = new RegExp(LOCALE_PATTERN);

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

export const languageOf = (locale: string): string => locale.split('-')[0];

/** Why a tag is not a usable locale, or null. The shape alone lets "xx-QQ" through; ICU's names do not. */
export function localeProblem(tag: string): string | null {
  if (!LOCALE.test(tag)) return 'must be a BCP 47 language-REGION tag such as "en-US" or "de-DE"';
  const [language, region] = tag.split('-');
  if (languageNames.of(language) === language) return `"${language}" is not a known language`;
  const name = regionNames.of(region);
  if (name === region || name === 'Unknown Region') return `"${region}" is not a known region`;
  return null;
}

/**
 * What is wrong with a request's `locales`, as field errors (none when absent): their count, each
 * tag (localeProblem), repeats, and their combination with the request's own `slides`. One check
 * for the planner and for creating a set, so that the two refuse the same requests alike.
 */
export function localesErrors(locales: readonly string[] | null | undefined, withSlides: boolean): FieldError[] {
  if (locales == null) return [];
  const errors: FieldError[] = [];
  const list: readonly unknown[] = Array.isArray(locales) ? locales : [];
  if (list.length < 1 || list.length > MAX_LOCALES) errors.push({ field: 'locales', message: `must hold 1 to ${MAX_LOCALES} locales` });
  list.forEach((tag, i) => {
    const problem = typeof tag === 'string' ? localeProblem(tag) : 'must be a string';
    if (problem) errors.push({ field: `locales/${i}`, message: problem });
    else if (list.indexOf(tag) !== i) errors.push({ field: `locales/${i}`, message: `repeats ${tag as string}: each locale once` });
  });
  if (withSlides)
    errors.push({
      field: 'locales',
      message: 'cannot be combined with slides (your own captions are in one language: send one request per language)',
    });
  return errors;
}

/** "German (Germany)": how the prompt names the language to write. */
export const describeLocale = (locale: string): string => {
  const [language, region] = locale.split('-');
  return `${languageNames.of(language)} (${regionNames.of(region)})`;
};

/** The listing's own locale: its language and storefront country, e.g. en + us → "en-US". */
export const listingLocale = (listing: Pick<Listing, 'language' | 'country'>): string =>
  `${listing.language.toLowerCase()}-${listing.country.toUpperCase()}`;

/**
 * Google Play's listing languages that name a region, as fastlane supply files them (supply's
 * folder names). A language's first entry is where its captions go when the listing's country does
 * not make one of these (an English set of a Korean listing: en-US, not en-KR).
 */
const PLAY_LOCALES = [
  'en-US',
  'en-GB',
  'en-AU',
  'en-CA',
  'en-IN',
  'en-SG',
  'en-ZA',
  'ko-KR',
  'ja-JP',
  'zh-CN',
  'zh-TW',
  'zh-HK',
  'de-DE',
  'fr-FR',
  'fr-CA',
  'es-ES',
  'es-US',
  'pt-BR',
  'pt-PT',
  'it-IT',
  'nl-NL',
  'sv-SE',
  'da-DK',
  'no-NO',
  'fi-FI',
  'pl-PL',
  'tr-TR',
  'ru-RU',
  'cs-CZ',
  'el-GR',
  'hu-HU',
  'ro-RO',
  'uk-UA',
  'he-IL',
  'ar',
  'th',
  'vi',
  'id',
];

/**
 * The locale a set's files are filed under when the request names none: the captions' language
 * with the listing's country where that is a Play locale (ko + kr → ko-KR, en + gb → en-GB), else
 * the language's usual one (en → en-US), else language-COUNTRY as the listing's own.
 */
export function captionsLocale(language: string, country: string): string {
  const lang = language.toLowerCase() === 'nb' ? 'no' : language.toLowerCase();
  const own = `${lang}-${country.toUpperCase()}`;
  if (PLAY_LOCALES.includes(own)) return own;
  const usual = PLAY_LOCALES.find((l) => languageOf(l) === lang);
  if (usual && usual.includes('-')) return usual;
  return localeProblem(own) === null ? own : 'en-US';
}

/**
 * Whether the built-in planner writes this locale: it writes the listing's language, whatever the
 * region (en-GB and en-US get the same English captions; regional spelling is not adapted).
 */
export const plannedNatively = (locale: string, listing: Pick<Listing, 'language'>): boolean =>
  languageOf(locale) === listing.language.toLowerCase();

/** Chinese, Japanese and Korean: a full-width character takes the room of two Latin ones. */
const WIDE =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA960-\uA97F\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]|[\u{20000}-\u{3FFFD}]/u;

/**
 * A caption's length against the CAPTION_LENGTHS limits, per script: a full-width (CJK) character
 * counts 2, everything else 1 per code point. So a short headline holds 30 Latin or 15 Japanese
 * characters, which take about the same room on the slide.
 */
export function captionWidth(text: string): number {
  let n = 0;
  for (const ch of text) n += WIDE.test(ch) ? 2 : 1;
  return n;
}

/** Whether a text is written mostly in CJK script (a Japanese set should be). */
export const hasWideScript = (text: string): boolean => [...text].some((ch) => WIDE.test(ch));
