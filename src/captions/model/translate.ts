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
import pLimit from 'p-limit';
import { askModel, DEFAULT_TIMEOUT_MS, failureOf, type LlmLogger, type LlmSettings, type RecordedAnswers } from './llm.ts';
import { checkCaptions, describeFindings, tooLongToJudge } from '../checker/check.ts';
import { describeLocale, hasWideScript, languageOf, listingLocale, plannedNatively } from '../../core/locales.ts';
import { newStats, type ModelStats } from './writer.ts';
import { primaryListing } from '../../core/listing.ts';
import { textKey } from '../text.ts';
import { endWords } from '../end-words.ts';
import { CAPTION_LENGTHS, CAPTION_STYLES, type PlanInput, type ScreenshotSetResult, type Slide } from '../../core/set.ts';
import { understand, type Understanding } from '../understand.ts';
import { validationFailed } from '../../core/problem.ts';
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

interface CaptionText {
  headline: string;
  subheadline: string | null;
}

const TRANSLATION_SCHEMA = {
  name: 'screenshot_captions',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['slides'],
    properties: {
      slides: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['index', 'headline', 'subheadline'],
          properties: { index: { type: 'integer' }, headline: { type: 'string' }, subheadline: { type: ['string', 'null'] } },
        },
      },
    },
  },
};

export function parseAnswer(content: string | null | undefined, n: number): CaptionText[] {
  const data = JSON.parse(content ?? '') as { slides?: unknown };
  if (!Array.isArray(data.slides) || data.slides.length !== n) throw new Error(`expected ${n} slides`);
  return data.slides.map((s: unknown, i: number) => {
    const slide = s as { index?: unknown; headline?: unknown; subheadline?: unknown };
    if (
      slide.index !== i + 1 ||
      typeof slide.headline !== 'string' ||
      !(slide.subheadline === null || typeof slide.subheadline === 'string')
    ) {
      throw new Error(`slide ${i + 1} has the wrong shape`);
    }
    return { headline: slide.headline.trim(), subheadline: slide.subheadline === null ? null : slide.subheadline.trim() };
  });
}

/** Why the model's captions cannot be this locale's, or []: the one checker, in the locale's language. */
function translationProblems(captions: CaptionText[], base: ScreenshotSetResult, locale: string, input: PlanInput): string[] {
  const language = languageOf(locale);
  // A caption far too long for any set fails the answer before the checker reads any of it.
  const unread = captions.flatMap((c, i) => describeFindings(tooLongToJudge(c, base.captionLength)).map((m) => `slide ${i + 1}: ${m}`));
  if (unread.length > 0) return unread;
  const findings = checkCaptions(
    captions.map((c, i) => ({ ...c, role: base.slides[i].role })),
    {
      listings: input.listings,
      extraContext: input.extraContext,
      device: base.device,
      captionLength: base.captionLength,
      captionStyle: base.captionStyle,
      locale,
    },
  );
  const problems = findings.flatMap((f, i) => describeFindings(f).map((m) => `slide ${i + 1}: ${m}`));
  if (captions.every((c, i) => textKey(c.headline) === textKey(base.slides[i].headline)))
    problems.push('every headline is the untranslated source');
  if (['ja', 'zh', 'ko'].includes(language) && !captions.some((c) => hasWideScript(c.headline)))
    problems.push(`no headline is written in ${describeLocale(locale)} script`);
  return problems;
}

/** The caption's words (Intl.Segmenter splits Japanese and Chinese too), without the language's function words. */
function keywordsOf(text: string, language: string, wanted: number): string[] {
  const skip = endWords(language);
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
  stats: ModelStats = newStats(),
  recorded?: RecordedAnswers,
  /** When every locale's every attempt must be answered (epoch ms): one budget for all of them. */
  deadline = Date.now() + (llm.timeoutMs ?? DEFAULT_TIMEOUT_MS),
): Promise<LocaleSet> {
  const primary = primaryListing(input.listings, base.device);
  const source = listingLocale(primary);
  const { system, user } = prompt(base, locale, source, primary.name, primary.category, !u.free);
  let reason = '';
  for (let attempt = 1; attempt <= TRANSLATION_ATTEMPTS; attempt++) {
    try {
      stats.calls++;
      const answer = await askModel(
        llm,
        [
          { role: 'system', content: system },
          { role: 'user', content: user },
          // A second attempt is a new request: the same prompt would replay the recorded answer that just failed.
          ...(attempt === 1 ? [] : [{ role: 'user' as const, content: `The previous answer failed: ${reason}. Answer again.` }]),
        ],
        TRANSLATION_SCHEMA,
        deadline,
        recorded,
        0,
      );
      stats.promptTokens += answer.promptTokens;
      stats.completionTokens += answer.completionTokens;
      if (answer.cached) stats.cached++;
      const captions = parseAnswer(answer.content, base.slides.length);
      const problems = translationProblems(captions, base, locale, input);
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
      stats.failures++;
      reason = failureOf(error);
    }
    logger?.warn({ locale, attempt, reason }, 'LLM translation failed');
  }
  throw new TranslationFailed(
    `The captions for ${locale} could not be translated (${reason.slice(0, 200)}); the job is retried, and refunded if it keeps failing.`,
  );
}

/**
 * `base` (the set in the listing's language) with `locales` made one set per locale: `locales[0]`'s slides and warnings are also the
 * result's own `slides` and `warnings`, so a client that knows nothing of locales reads the first.
 */
export async function translateLocales(
  base: ScreenshotSetResult,
  input: PlanInput,
  llm: LlmSettings | null,
  logger?: LlmLogger,
  stats: ModelStats = newStats(),
  recorded?: RecordedAnswers,
): Promise<ScreenshotSetResult> {
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
  // One model budget for every translation and retry of the set, as for its captions: a hanging model
  // costs a job at most twice timeoutMs (captions, then translations), however many locales it has.
  const deadline = Date.now() + (llm?.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const sets = await pLimit(PARALLEL).map(locales, async (locale) =>
    plannedNatively(locale, primary)
      ? { locale, slides: base.slides, warnings: base.warnings }
      : translateSet(base, locale, input, llm!, u, logger, stats, recorded, deadline),
  );
  return { ...base, slides: sets[0].slides, warnings: sets[0].warnings, locales: sets };
}
