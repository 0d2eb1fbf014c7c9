-- Webhook deliveries run as pg-boss tasks (queue `webhook-delivery`, src/webhooks/dispatcher.ts)
-- instead of a claim loop over this table.
--
-- The task is written in the transaction that writes the delivery (which is the one that ends the
-- job or the publication), by a trigger, through pg-boss's documented raw-SQL path: an INSERT into
-- pgboss.job with the queue's own settings, as pg-boss's send() does. So a delivery never exists
-- without its task, and no code path that ends a job has to remember to enqueue anything.
-- Its singleton key is the delivery's id; the queue is `stately`, so a delivery has at most one
-- task waiting and one running.
--
-- Until the task runner has set its schema up (a fresh database, before any process started),
-- deliveries are written without a task; webhook_delivery_tasks_catch_up() gives every pending
-- delivery that has no live task one, and the runner calls it at every start.
--
-- The row stays the public record of the delivery (status, attempts, last_status, last_error);
-- next_attempt_at says when the next attempt is due. locked_by belonged to the claim loop.

ALTER TABLE webhook_deliveries DROP COLUMN locked_by;
DROP INDEX webhook_deliveries_due;

CREATE FUNCTION webhook_delivery_enqueue(delivery_id bigint, start_after timestamptz) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF to_regclass('pgboss.queue') IS NULL THEN
    RETURN;
  END IF;
  -- Dynamic: the pgboss schema may not exist when this function is created or first planned.
  EXECUTE $q$
    INSERT INTO pgboss.job (name, data, singleton_key, start_after, retry_limit, retry_delay, retry_backoff, expire_in, keep_until, policy)
    SELECT q.name, jsonb_build_object('deliveryId', $1::text), $1::text, $2, COALESCE(q.retry_limit, 2), COALESCE(q.retry_delay, 0),
      COALESCE(q.retry_backoff, false), COALESCE(q.expire_seconds * interval '1 second', interval '15 minutes'),
      $2 + COALESCE(q.retention_minutes * interval '1 minute', interval '14 days'), q.policy
    FROM pgboss.queue q WHERE q.name = 'webhook-delivery'
    ON CONFLICT DO NOTHING
  $q$ USING delivery_id, start_after;
END $$;

CREATE FUNCTION webhook_deliveries_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_delivery_enqueue(NEW.id, NEW.next_attempt_at);
  RETURN NULL;
END $$;
CREATE TRIGGER webhook_deliveries_enqueue AFTER INSERT ON webhook_deliveries
  FOR EACH ROW EXECUTE FUNCTION webhook_deliveries_enqueue();

-- Pending deliveries without a waiting or running task: written before the runner existed, or
-- left by the claim loop this replaces, or whose task pg-boss gave up on (crashes past its retries).
CREATE FUNCTION webhook_delivery_tasks_catch_up() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  d record;
  n integer := 0;
BEGIN
  IF to_regclass('pgboss.job') IS NULL THEN
    RETURN 0;
  END IF;
  FOR d IN EXECUTE $q$
    SELECT w.id, greatest(w.next_attempt_at, now()) AS due FROM webhook_deliveries w
    WHERE w.status = 'pending' AND NOT EXISTS (
      SELECT 1 FROM pgboss.job j WHERE j.name = 'webhook-delivery' AND j.singleton_key = w.id::text
        AND j.state IN ('created', 'retry', 'active'))
  $q$ LOOP
    PERFORM webhook_delivery_enqueue(d.id, d.due);
    n := n + 1;
  END LOOP;
  RETURN n;
END $$;
