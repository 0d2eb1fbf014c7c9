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
