-- Publication events for webhooks: publication.published and publication.failed.
--
-- They share job_events (the outbox the webhook fan-out trigger reads) rather than a second
-- outbox, so deliveries, retries and signing stay one mechanism. A publication event carries
-- the publication's id, and its job_id is the publication's job (which keeps job_id NOT NULL);
-- "one event per job" now holds for job events only, "one per publication" for the others.
-- The trigger fires in the transaction that moves the publication to its final status, whichever
-- step moves it, and a publication reaches one final status once: one event, one delivery per
-- subscribed endpoint.

ALTER TABLE job_events ADD COLUMN publication_id text REFERENCES publications (id);
ALTER TABLE job_events DROP CONSTRAINT job_events_type_check;
ALTER TABLE job_events ADD CONSTRAINT job_events_type_check CHECK (
  (publication_id IS NULL AND type IN ('job.succeeded', 'job.failed'))
  OR (publication_id IS NOT NULL AND type IN ('publication.published', 'publication.failed'))
);
DROP INDEX job_events_one_per_job;
CREATE UNIQUE INDEX job_events_one_per_job ON job_events (job_id) WHERE publication_id IS NULL;
CREATE UNIQUE INDEX job_events_one_per_publication ON job_events (publication_id) WHERE publication_id IS NOT NULL;

-- Existing endpoints keep the events they chose: a receiver written for jobs is not sent
-- publications it never asked for.
ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_events_check;
ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_events_check CHECK (
  cardinality(events) > 0
  AND events <@ ARRAY['job.succeeded', 'job.failed', 'publication.published', 'publication.failed']
);

CREATE FUNCTION publications_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO job_events (job_id, account_id, type, publication_id)
    VALUES (NEW.job_id, NEW.account_id, 'publication.' || NEW.status, NEW.id)
    ON CONFLICT (publication_id) WHERE publication_id IS NOT NULL DO NOTHING;
  -- Wakes the webhook dispatchers; long polls wait on job ids, so a publication id wakes none.
  PERFORM pg_notify('shotgen_job_done', NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER publications_ended AFTER UPDATE OF status ON publications
  FOR EACH ROW WHEN (NEW.status IN ('published', 'failed') AND OLD.status <> NEW.status)
  EXECUTE FUNCTION publications_ended();
