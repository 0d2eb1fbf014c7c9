/**
 * Optional LLM captions. The built-in plan is made first and stays the answer unless an
 * OpenAI-compatible model returns captions that pass every caption rule; any failure falls back.
 */
import OpenAI from 'openai';
import { slideKeywords } from './captions.ts';
import { planScreenshotSet } from './plan.ts';
import { captionProblems, type CaptionText } from './rules.ts';
import { primaryListing } from './screens.ts';
import { CAPTION_LENGTHS, CAPTION_STYLES, DEVICES, type PlanInput, type ScreenshotSetResult } from './types.ts';
import { understand } from './understand.ts';

export interface LlmSettings {
  baseUrl: string;
  model: string;
  apiKey: string | null;
  timeoutMs?: number;
}

export interface LlmLogger {
  warn(obj: object, msg: string): void;
}

const DEFAULT_TIMEOUT_MS = 20_000;
const MAX_DESCRIPTION = 4000;

export const answerSchema = {
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
} as const;

function prompt(input: PlanInput, base: ScreenshotSetResult): { system: string; user: string } {
  const listing = primaryListing(input.listings, base.device);
  const limits = CAPTION_LENGTHS[base.captionLength];
  const system = [
    'You write captions for app store screenshots. Answer with JSON only.',
    `Voice: ${base.captionStyle} — ${CAPTION_STYLES[base.captionStyle]}`,
    `Each headline has at most ${limits.headline} characters.`,
    limits.subheadline > 0 ? `Each subheadline has at most ${limits.subheadline} characters.` : 'Every subheadline is null.',
    'Write complete words and phrases; never end on "and", "with", "or", "&" or a comma. No two headlines may be the same.',
    "Only mention features the listing states. Write in the listing's language.",
    listing.price === 0 ? '' : 'The app is paid: never use the word "free".',
  ]
    .filter(Boolean)
    .join('\n');
  const user = JSON.stringify({
    app: {
      name: listing.name,
      category: listing.category,
      subtitle: listing.subtitle,
      language: listing.language,
      description: listing.description.slice(0, MAX_DESCRIPTION),
    },
    extraContext: input.extraContext,
    slides: base.slides.map((s) => ({ index: s.index, role: s.role, draftHeadline: s.headline, draftSubheadline: s.subheadline })),
  });
  return { system, user };
}

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

/** One chat completion with the captions' JSON schema; the content of the answer (parse it with parseAnswer). */
export async function askModel(llm: LlmSettings, system: string, user: string): Promise<string | null | undefined> {
  const client = new OpenAI({
    baseURL: llm.baseUrl,
    apiKey: llm.apiKey ?? 'none',
    timeout: llm.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: 0,
  });
  const completion = await client.chat.completions.create({
    model: llm.model,
    temperature: 0,
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    response_format: { type: 'json_schema', json_schema: { name: 'screenshot_captions', strict: true, schema: answerSchema } },
  });
  return completion.choices[0]?.message?.content;
}

export async function planWithLlm(input: PlanInput, llm: LlmSettings | null, logger?: LlmLogger): Promise<ScreenshotSetResult> {
  const base = planScreenshotSet(input);
  if (!llm) return base;
  try {
    const { system, user } = prompt(input, base);
    const captions = parseAnswer(await askModel(llm, system, user), base.slides.length);
    const primary = primaryListing(input.listings, base.device);
    const u = understand(input.listings, primary, input.extraContext);
    const problems = captionProblems(captions, base.captionLength, base.captionStyle, u, DEVICES[base.device].store);
    if (problems.length > 0) {
      logger?.warn({ problems: problems.slice(0, 5) }, 'LLM captions broke the caption rules; using the built-in captions');
      return base;
    }
    const wanted = base.captionStyle === 'aso-expert' ? 5 : 3;
    return {
      ...base,
      slides: base.slides.map((s, i) => ({
        ...s,
        headline: captions[i].headline,
        subheadline: captions[i].subheadline,
        keywords: slideKeywords(u, `${captions[i].headline} ${captions[i].subheadline ?? ''}`, wanted),
      })),
    };
  } catch (error) {
    // The message names the failure (status, timeout, parse error); the SDK never puts the key in it.
    logger?.warn(
      { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) },
      'LLM captions failed; using the built-in captions',
    );
    return base;
  }
}
