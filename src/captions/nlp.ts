/**
 * compromise (the NLP library), loaded on first use. Importing it cost a process 0.6-1.3 CPU seconds
 * at module load (its ESM sources build the lexicon model as they load), and every service child,
 * CLI command and test worker paid it although most of them never look at a caption. The one bundled
 * CommonJS build of the same version loads in about half the CPU of the ESM sources, and `require`
 * keeps every call site synchronous. Every caption module takes `nlp` from here, so a process holds
 * one copy of the model.
 */
import { createRequire } from 'node:module';
import type Nlp from 'compromise';

type NlpFn = typeof Nlp;
const require = createRequire(import.meta.url);
let loaded: NlpFn | undefined;
const load = (): NlpFn => (loaded ??= require('compromise') as NlpFn);

/** `nlp(text)`, `nlp.tokenize(text)` and `nlp.model()` as compromise has them, loading it the first time. */
export const nlp = Object.assign((text: string) => load()(text), {
  tokenize: (text: string) => load().tokenize(text),
  model: () => load().model(),
});

/**
 * Loads the model now. A served process calls it once it listens: loading takes about 200 ms of the
 * thread that answers HTTP, which otherwise fell on the first set's request and stalled every poll
 * behind it (hp2's bench: a 0.2-0.5 s event-loop delay at the first set after a start).
 */
export function preloadNlp(): void {
  load();
}

/** A term as compromise's `json()` gives it: its text, its tags and what follows it. */
export interface TaggedTerm {
  readonly text: string;
  readonly tags: readonly string[];
  readonly post?: string;
}

/**
 * The tagger's reading of `text`, sentence by sentence: `nlp(text).json()`, kept by text. A writer
 * asks about the same few hundred phrases of a listing for every voice, device, count and retry, and
 * the checker again for each caption. Tagging was about 40 % of a plan's CPU, and two thirds of it
 * went to texts tagged before in the same process. The reading depends on the text alone (nothing
 * here teaches compromise words), so a kept one is the one it would give again. Frozen, since every
 * caller shares it; bounded, oldest out: 5,000 readings (a few MB) hold a whole plan's texts many
 * times over (720 corpus plans tagged 2,074 distinct texts).
 */
const readings = new Map<string, readonly { readonly terms: readonly TaggedTerm[] }[]>();
export function taggedSentences(text: string): readonly { readonly terms: readonly TaggedTerm[] }[] {
  const kept = readings.get(text);
  if (kept) return kept;
  const json = nlp(text).json() as { terms: { text: string; tags: string[]; post?: string }[] }[];
  const reading = Object.freeze(
    json.map((s) => Object.freeze({ terms: Object.freeze(s.terms.map((t) => Object.freeze({ ...t, tags: Object.freeze([...t.tags]) }))) })),
  );
  if (readings.size >= 5_000) readings.delete(readings.keys().next().value as string);
  readings.set(text, reading);
  return reading;
}
