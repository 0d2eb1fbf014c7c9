-- What a create's check before the charge reads of an app's plan (src/jobs/fill-checks.ts), planned
-- when the app is created or its guidance changes, so that even its first create does not plan
-- (issue 32: 7.9-9.8 s at load 15-20). `source` names the listings and guidance they were planned
-- from (a hash), `request` the device, voice, length and count or narrative: a changed listing or
-- guidance is a new source; when one is planned, the rows of all but the one before it are deleted.
CREATE TABLE app_fill_checks (
  app_id text NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  source text NOT NULL,
  request text NOT NULL,
  facts jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (app_id, source, request)
);
