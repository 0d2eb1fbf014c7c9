-- Webhooks: the endpoints an account registers, and one durable delivery per (ended job, endpoint).
--
-- The secret is kept as given (not hashed like API keys): the sender needs it to sign.
-- Deliveries are written by a trigger on job_events, in the transaction that ends the job, for
-- the endpoints subscribed at that moment; so an event is never lost between the job's end and
-- the fan-out, and the HTTP calls themselves happen later, in the workers.
-- A delivery is claimed by moving next_attempt_at past a lease (FOR UPDATE SKIP LOCKED), so a
-- worker that dies mid-call only delays it; message_id is the `webhook-id` of every attempt.

CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  url text NOT NULL CHECK (length(url) <= 2048),
  events text[] NOT NULL CHECK (cardinality(events) > 0 AND events <@ ARRAY['job.succeeded', 'job.failed']),
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id, created_at);

CREATE TABLE webhook_deliveries (
  id bigserial PRIMARY KEY,
  message_id text NOT NULL,
  event_id bigint NOT NULL REFERENCES job_events (id),
  -- Deleting an endpoint drops what is still owed to it.
  endpoint_id text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  account_id text NOT NULL REFERENCES accounts (id),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_by text,
  last_status integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (account_id, endpoint_id, id);

CREATE FUNCTION job_events_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- One id per event, shared by its endpoints (as Svix does): a receiver deduplicates on it.
  msg text := 'msg_' || replace(gen_random_uuid()::text, '-', '');
BEGIN
  INSERT INTO webhook_deliveries (message_id, event_id, endpoint_id, account_id)
    SELECT msg, NEW.id, e.id, e.account_id FROM webhook_endpoints e
    WHERE e.account_id = NEW.account_id AND NEW.type = ANY (e.events);
  RETURN NULL;
END $$;
CREATE TRIGGER job_events_fan_out AFTER INSERT ON job_events
  FOR EACH ROW EXECUTE FUNCTION job_events_fan_out();
