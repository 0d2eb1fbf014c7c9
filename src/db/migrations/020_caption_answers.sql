-- The caption model's answers, by account and by what was asked (model + listings + extraContext +
-- request): a retried job replays them instead of asking the model again (src/captions/model/answer-cache.ts).
-- In PostgreSQL rather than the job row: a second job with the same listing and request (a client
-- retrying without an Idempotency-Key) is answered from here too. Kept 7 days.
CREATE TABLE caption_answers (
  account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  key text NOT NULL,
  answers jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, key)
);
CREATE INDEX caption_answers_created_at ON caption_answers (created_at);
