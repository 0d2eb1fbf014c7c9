/**
 * Sets in several languages (request `locales`). The built-in planner writes the listing's own
 * language; every other locale is the same set (roles, screens, layout, colours) with its captions
 * translated by the configured model, checked by the caption rules with per-script lengths.
 *
 * A translation that fails (no answer, a timeout, invalid JSON, captions that break the rules) is
 * asked for again, and if it fails again the PLANNING fails with TranslationFailed: the job is
 * retried later and, failing that, refunded. It never falls back to the listing's language: an
 * English set in the German folder would be shipped to German users unnoticed.
 */
import { askModel, parseAnswer, planWithLlm, type LlmLogger, type LlmSettings } from './llm.ts';
import { captionWidth, describeLocale, hasWideScript, languageOf, listingLocale, plannedNatively } from './locales.ts';
import { captionProblems, type CaptionText } from './rules.ts';
import { primaryListing } from './screens.ts';
import { headlineKey, ownDanglingWords } from './text.ts';
import { CAPTION_LENGTHS, CAPTION_STYLES, DEVICES, type PlanInput, type ScreenshotSetResult, type Slide } from './types.ts';
import { understand, type Understanding } from './understand.ts';
import { validationFailed } from '../problem.ts';
import { TranslationFailed } from './errors.ts';

/** Model calls per locale before the planning fails (the first answer and one retry). */
export const TRANSLATION_ATTEMPTS = 2;
/** Locales translated at once: a local model (Ollama) serves one request at a time anyway. */
const PARALLEL = 3;

export interface LocaleSet {
  locale: string;
  slides: Slide[];
  warnings: string[];
}

function prompt(
  base: ScreenshotSetResult,
  locale: string,
  sourceLocale: string,
  name: string,
  category: string,
  paid: boolean,
): { system: string; user: string } {
  const limits = CAPTION_LENGTHS[base.captionLength];
  const wide = ['ja', 'zh', 'ko'].includes(languageOf(locale));
  const room = (n: number) => (wide ? `${n / 2} full-width characters` : `${n} characters`);
  const system = [
    `You translate the captions of app store screenshots from ${describeLocale(sourceLocale)} into ${describeLocale(locale)}. Answer with JSON only.`,
    `Write idiomatic store copy a native ${describeLocale(locale)} copywriter would ship, in this voice: ${base.captionStyle} — ${CAPTION_STYLES[base.captionStyle]}`,
    `Each headline has at most ${room(limits.headline)}.`,
    limits.subheadline > 0 ? `Each subheadline has at most ${room(limits.subheadline)}.` : 'Every subheadline is null.',
    "Keep the app's name and brand names exactly as written. Keep one slide per input slide, in order, with the same index. No two headlines may be the same. Never end on a conjunction, preposition or comma.",
    paid ? 'The app is paid: never say it is free.' : '',
  ]
    .filter(Boolean)
    .join('\n');
  const user = JSON.stringify({
    app: { name, category },
    targetLocale: locale,
    slides: base.slides.map((s) => ({ index: s.index, role: s.role, headline: s.headline, subheadline: s.subheadline })),
  });
  return { system, user };
}

/** Why the model's captions cannot be this locale's, or []. */
function translationProblems(captions: CaptionText[], base: ScreenshotSetResult, locale: string, u: Understanding): string[] {
  const language = languageOf(locale);
  const problems = captionProblems(captions, base.captionLength, base.captionStyle, u, DEVICES[base.device].store, {
    width: captionWidth,
    dangling: ownDanglingWords(language),
    // The listing's words are in its language, not this one: grounding is checked on the source set.
    grounded: false,
  });
  if (captions.every((c, i) => headlineKey(c.headline) === headlineKey(base.slides[i].headline)))
    problems.push('every headline is the untranslated source');
  if (['ja', 'zh', 'ko'].includes(language) && !captions.some((c) => hasWideScript(c.headline)))
    problems.push(`no headline is written in ${describeLocale(locale)} script`);
  return problems;
}

/** The caption's words (Intl.Segmenter splits Japanese and Chinese too), without the language's function words. */
function keywordsOf(text: string, language: string, wanted: number): string[] {
  const skip = ownDanglingWords(language);
  const segments = [...new Intl.Segmenter(language, { granularity: 'word' }).segment(text)];
  const words = segments.filter((s) => s.isWordLike).map((s) => s.segment.toLocaleLowerCase(language));
  return [...new Set(words.filter((w) => [...w].length >= 2 && !skip.has(w) && !/^\d+$/.test(w)))].slice(0, wanted);
}

async function translateSet(
  base: ScreenshotSetResult,
  locale: string,
  input: PlanInput,
  llm: LlmSettings,
  u: Understanding,
  logger?: LlmLogger,
): Promise<LocaleSet> {
  const primary = primaryListing(input.listings, base.device);
  const source = listingLocale(primary);
  const { system, user } = prompt(base, locale, source, primary.name, primary.category, !u.free);
  let reason = '';
  for (let attempt = 1; attempt <= TRANSLATION_ATTEMPTS; attempt++) {
    try {
      const captions = parseAnswer(await askModel(llm, system, user), base.slides.length);
      const problems = translationProblems(captions, base, locale, u);
      if (problems.length === 0) {
        const wanted = base.captionStyle === 'aso-expert' ? 5 : 3;
        const slides = base.slides.map((s, i) => ({
          ...s,
          ...captions[i],
          keywords: keywordsOf(`${captions[i].headline} ${captions[i].subheadline ?? ''}`, languageOf(locale), wanted),
        }));
        const note = `Captions translated from ${source} into ${locale} by the caption model: have a fluent speaker review them.`;
        return { locale, slides, warnings: [...base.warnings, note] };
      }
      reason = problems.slice(0, 3).join('; ');
    } catch (error) {
      // The message names the failure (status, timeout, parse error); the SDK never puts the key in it.
      reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    logger?.warn({ locale, attempt, reason }, 'LLM translation failed');
  }
  throw new TranslationFailed(
    `The captions for ${locale} could not be translated (${reason.slice(0, 200)}); the job is retried, and refunded if it keeps failing.`,
  );
}

/** Runs `fn` over `items`, at most `limit` at a time, keeping the order. */
async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

/**
 * The set, and with `locales` one set per locale: `locales[0]`'s slides and warnings are also the
 * result's own `slides` and `warnings`, so a client that knows nothing of locales reads the first.
 */
export async function planLocales(input: PlanInput, llm: LlmSettings | null, logger?: LlmLogger): Promise<ScreenshotSetResult> {
  const base = await planWithLlm(input, llm, logger);
  const locales = input.request.locales;
  if (!locales?.length) return base;
  const primary = primaryListing(input.listings, base.device);
  const foreign = locales.filter((l) => !plannedNatively(l, primary));
  // Acceptance refuses these without a model; a listing re-read in another language since can still get here.
  if (foreign.length > 0 && !llm) {
    throw validationFailed([
      {
        field: 'locales',
        message: `${foreign.join(', ')}: not the listing's language (${listingLocale(primary)}), and no caption model is configured to translate`,
      },
    ]);
  }
  const u = understand(input.listings, primary, input.extraContext);
  const sets = await mapLimited(locales, PARALLEL, async (locale) =>
    plannedNatively(locale, primary)
      ? { locale, slides: base.slides, warnings: base.warnings }
      : translateSet(base, locale, input, llm!, u, logger),
  );
  return { ...base, slides: sets[0].slides, warnings: sets[0].warnings, locales: sets };
}
