/**
 * The model path measured with recorded answers (issue 33, item 5), for `npm run eval:captions`:
 *   --record DIR  every request the model writer sends is written to DIR/<key>.json (and answered
 *                 with a 500, so the rule writer fills the set and the run goes on);
 *   --replay DIR  each request is answered from ./model-answers/<key>.json, answers written once,
 *                 by a capable model, to exactly these requests; one without an answer (a repair
 *                 turn the recorded first answers now cause) is written to DIR as --record does.
 * <key> is the answer cache's own key of the request (src/captions/model/llm.ts promptKey), so an
 * answer belongs to one request, word for word: change the prompt and the answers must be written
 * again. Both run on SAMPLE only, the sets a reader reads.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promptKey, type Message } from '../../../src/captions/model/llm.ts';
import type { CaptionLength, CaptionStyle } from '../../../src/core/set.ts';
import type { FakeReply } from '../../support/fake-llm.ts';

export const ANSWERS = new URL('./model-answers/', import.meta.url).pathname;
export const MODEL = 'recorded';

/** The tuned listings read (held-out ones never: the answers are written by reading the requests). */
export const SAMPLE = [
  'streakly',
  'inkwell',
  'blockfall',
  'darkroom',
  'pennywise',
  'kraftwerk-de',
  'cuisine-fr',
  'lingolens',
  'podnest',
  'cartwheel',
  'taskforge',
  'scanly',
];
/** Per listing: the defaults (aso-expert, short), and for every other one a long set in a voice taken in turn. */
export function sampleSets(id: string): { captionStyle: CaptionStyle; captionLength: CaptionLength }[] {
  const k = SAMPLE.indexOf(id);
  const voices: CaptionStyle[] = ['minimal', 'playful', 'bold', 'professional', 'aso-expert', 'minimal'];
  return [
    { captionStyle: 'aso-expert', captionLength: 'short' },
    ...(k % 2 === 0 ? [{ captionStyle: voices[k / 2], captionLength: 'long' as const }] : []),
  ];
}

export interface Replayer {
  reply: (body: Record<string, unknown>) => FakeReply;
  /** Requests written to the directory (no answer yet), and requests answered. */
  written: number;
  answered: number;
}

export function replayer(dir: string, replay: boolean): Replayer {
  mkdirSync(dir, { recursive: true });
  const r: Replayer = {
    written: 0,
    answered: 0,
    reply: (body) => {
      const messages = body.messages as Message[];
      const key = promptKey(String(body.model), messages);
      const answer = path.join(ANSWERS, `${key}.json`);
      if (replay && existsSync(answer)) {
        r.answered++;
        return { content: (JSON.parse(readFileSync(answer, 'utf8')) as { answer: unknown }).answer };
      }
      const file = path.join(dir, `${key}.json`);
      if (!existsSync(file)) {
        writeFileSync(file, `${JSON.stringify({ key, messages }, null, 1)}\n`);
        r.written++;
      }
      return { status: 500, raw: '{"error":{"message":"no recorded answer"}}' };
    },
  };
  return r;
}
