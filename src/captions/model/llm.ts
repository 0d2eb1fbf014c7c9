/**
 * The caption model's client: one chat completion against any OpenAI-compatible server (OpenAI,
 * Ollama, llama.cpp's server, vLLM) with a JSON-schema answer, bounded in time, retries and tokens.
 * What to ask and what to do with the answer is the writers' (./model-writer.ts, ./translate.ts).
 */
import { createHash } from 'node:crypto';
import OpenAI from 'openai';

export interface LlmSettings {
  baseUrl: string;
  model: string;
  apiKey: string | null;
  /** The whole model budget of one set (every call and retry of it), in ms; default 20 s. */
  timeoutMs?: number;
  /** LLM_VISION: the model also sees each screen's picture (downscaled to at most 768 px). */
  vision?: boolean;
}

export interface LlmLogger {
  warn(obj: object, msg: string): void;
  /** The checker's findings per slide: what a reader of the logs needs to see why a caption was refused. */
  debug?(obj: object, msg: string): void;
  /** pino's: whether debug lines are written at all (then the planning thread need not send them). */
  isLevelEnabled?(level: string): boolean;
}

export const DEFAULT_TIMEOUT_MS = 20_000;
/** A 10-slide answer with three candidates each is ~1,500 tokens; more is a model rambling. */
export const MAX_TOKENS = 3_000;

/**
 * The longest answer read (in UTF-16 units): a 10-slide answer with three long candidates each is
 * ~6,000 characters, and MAX_TOKENS of English JSON at most ~12,000. A server that sends more (it
 * ignored max_tokens, or is not a model) has failed: its answer is not parsed, let alone judged.
 */
export const MAX_ANSWER_CHARS = 16_000;

/** A part of a user message: text, or (LLM_VISION) a screen's picture as OpenAI's `image_url` content. */
export type MessagePart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string; detail?: 'low' | 'high' | 'auto' } };
export type Message = { role: 'system' | 'assistant'; content: string } | { role: 'user'; content: string | MessagePart[] };

export interface ModelAnswer {
  content: string;
  promptTokens: number;
  completionTokens: number;
  cached: boolean;
}

/**
 * Answers recorded by prompt: a retried job hands them back so the model is not asked again
 * (./answer-cache.ts keeps them in PostgreSQL). `fresh` collects what this plan asked.
 */
export interface RecordedAnswers {
  known: Record<string, string>;
  fresh: Record<string, string>;
}

export const promptKey = (model: string, messages: Message[]): string =>
  createHash('sha256')
    .update(JSON.stringify([model, messages]))
    .digest('hex');

/**
 * One chat completion with the answer's JSON schema, within `deadline` (epoch ms): the SDK retries
 * a 5xx or a dropped connection once, but never past the deadline.
 */
export async function askModel(
  llm: LlmSettings,
  messages: Message[],
  schema: { name: string; schema: Record<string, unknown> },
  deadline: number,
  recorded?: RecordedAnswers,
  /** The SDK's own retries of a 5xx or dropped connection; 0 where the caller retries itself. */
  retries = 1,
): Promise<ModelAnswer> {
  const key = promptKey(llm.model, messages);
  const known = recorded?.known[key];
  if (known !== undefined) return { content: known, promptTokens: 0, completionTokens: 0, cached: true };
  const left = deadline - Date.now();
  if (left <= 0) throw new Error('the caption model budget is spent');
  const client = new OpenAI({ baseURL: llm.baseUrl, apiKey: llm.apiKey ?? 'none', timeout: left, maxRetries: retries });
  const completion = await client.chat.completions.create(
    {
      model: llm.model,
      temperature: 0.4,
      max_tokens: MAX_TOKENS,
      messages,
      response_format: { type: 'json_schema', json_schema: { name: schema.name, strict: true, schema: schema.schema } },
    },
    { signal: AbortSignal.timeout(left) },
  );
  const content = completion.choices[0]?.message?.content ?? '';
  if (content.length > MAX_ANSWER_CHARS)
    throw new Error(`the answer is ${content.length} characters; more than ${MAX_ANSWER_CHARS} is not read`);
  if (recorded) recorded.fresh[key] = content;
  return {
    content,
    promptTokens: completion.usage?.prompt_tokens ?? 0,
    completionTokens: completion.usage?.completion_tokens ?? 0,
    cached: false,
  };
}

/** The message of a failure (status, timeout, parse error); the SDK never puts the key in it. */
export const failureOf = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));
