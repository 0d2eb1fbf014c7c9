/**
 * The caption model's answers in PostgreSQL (migration 020), per account and per what was asked:
 * the planning thread gets the recorded answers of an earlier attempt and hands back the new ones.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/pool.ts';
import type { LlmSettings } from './llm.ts';
import type { PlanInput } from '../../core/set.ts';

const KEEP_DAYS = 7;

export interface AnswerCache {
  get(accountId: string, key: string): Promise<Record<string, string>>;
  put(accountId: string, key: string, answers: Record<string, string>): Promise<void>;
}

/** What was asked: the model and everything the prompts are built from. */
export const answersKey = (llm: LlmSettings, input: PlanInput): string =>
  createHash('sha256')
    .update(JSON.stringify([llm.model, llm.baseUrl, input.listings, input.extraContext, input.request]))
    .digest('hex');

export function pgAnswerCache(db: Queryable): AnswerCache {
  return {
    async get(accountId, key) {
      const { rows } = await db.query<{ answers: Record<string, string> }>(
        `SELECT answers FROM caption_answers WHERE account_id = $1 AND key = $2 AND created_at > now() - make_interval(days => $3)`,
        [accountId, key, KEEP_DAYS],
      );
      return rows[0]?.answers ?? {};
    },
    async put(accountId, key, answers) {
      await db.query(
        `INSERT INTO caption_answers (account_id, key, answers) VALUES ($1, $2, $3::jsonb)
         ON CONFLICT (account_id, key) DO UPDATE SET answers = caption_answers.answers || EXCLUDED.answers, created_at = now()`,
        [accountId, key, JSON.stringify(answers)],
      );
      // A few expired rows at a time: the table stays small without a sweeper of its own.
      await db.query(
        `DELETE FROM caption_answers WHERE (account_id, key) IN
           (SELECT account_id, key FROM caption_answers WHERE created_at < now() - make_interval(days => $1) LIMIT 50)`,
        [KEEP_DAYS],
      );
    },
  };
}
