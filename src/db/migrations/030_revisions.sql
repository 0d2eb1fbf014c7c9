-- Revisions: a job that re-renders a succeeded set with edits (src/revisions/). It is a job like any
-- other (queue, events, files), free, and points at the job it revises and at the set it began from,
-- so an app's list shows the chain and the hourly limits count per set without walking it.
ALTER TABLE jobs
  ADD COLUMN parent_job_id text REFERENCES jobs (id),
  ADD COLUMN root_job_id text REFERENCES jobs (id),
  ADD CONSTRAINT jobs_revision_has_root CHECK ((parent_job_id IS NULL) = (root_job_id IS NULL));
-- The limits count an account's revisions of the last hour; the chain is read by parent.
CREATE INDEX jobs_revisions_by_account ON jobs (account_id, created_at) WHERE parent_job_id IS NOT NULL;
CREATE INDEX jobs_by_parent ON jobs (parent_job_id) WHERE parent_job_id IS NOT NULL;
