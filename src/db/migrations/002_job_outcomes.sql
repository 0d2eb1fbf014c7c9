-- What a running job reports, and what its end announces.
--
-- progress: a running job's rendered slides so far; cleared when the job ends.
-- job_events: the outbox of ended jobs. The trigger below writes it, and notifies, in the very
-- transaction that ends the job (whichever path ends it: a worker, a failure, the lease sweep), so
-- an ended job always has its event and an event always has its ended job. Webhook deliveries fan
-- out from here; long polls wake on shotgen_job_done.

ALTER TABLE jobs
  ADD COLUMN progress_done integer CHECK (progress_done >= 0),
  ADD COLUMN progress_total integer CHECK (progress_total > 0),
  ADD CONSTRAINT jobs_progress_only_while_running
    CHECK ((progress_total IS NULL AND progress_done IS NULL) OR (status = 'running' AND progress_done <= progress_total));

CREATE TABLE job_events (
  id bigserial PRIMARY KEY,
  job_id text NOT NULL REFERENCES jobs (id),
  account_id text NOT NULL REFERENCES accounts (id),
  type text NOT NULL CHECK (type IN ('job.succeeded', 'job.failed')),
  created_at timestamptz NOT NULL DEFAULT now()
);
-- A job ends once.
CREATE UNIQUE INDEX job_events_one_per_job ON job_events (job_id);
CREATE INDEX job_events_account ON job_events (account_id, id);

CREATE FUNCTION jobs_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO job_events (job_id, account_id, type) VALUES (NEW.id, NEW.account_id, 'job.' || NEW.status);
  PERFORM pg_notify('shotgen_job_done', NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER jobs_ended AFTER UPDATE OF status ON jobs
  FOR EACH ROW WHEN (NEW.status IN ('succeeded', 'failed') AND OLD.status <> NEW.status)
  EXECUTE FUNCTION jobs_ended();
