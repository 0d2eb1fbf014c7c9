/** The caption model's figures: how long it takes, what it costs, how often its slides fail the checker. */
import { Counter, Histogram } from 'prom-client';
import { registry } from './index.ts';

export const captionModelLatency = new Histogram({
  name: 'shotgen_caption_model_seconds',
  help: 'One call to the caption model (writing, repairing or translating), answered or not.',
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60],
  registers: [registry],
});

export const captionModelTokens = new Counter({
  name: 'shotgen_caption_model_tokens_total',
  help: 'Tokens the caption model read (prompt) and wrote (completion).',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const captionModelCalls = new Counter({
  name: 'shotgen_caption_model_calls_total',
  help: 'Calls to the caption model by outcome: answered, failed (error, timeout, 5xx, bad JSON), cached (replayed for a retried job).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const captionRepairs = new Counter({
  name: 'shotgen_caption_repairs_total',
  help: 'Model-written slides sent back once with the checker’s findings.',
  registers: [registry],
});

export const captionFallbacks = new Counter({
  name: 'shotgen_caption_fallbacks_total',
  help: 'Slides the rule writer wrote because the model’s failed the checker twice or the model failed.',
  registers: [registry],
});
