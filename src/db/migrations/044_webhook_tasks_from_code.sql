-- Webhook delivery tasks are queued by the code that ends a job or a publication, through
-- pg-boss's API, no longer by a trigger writing into pgboss.job (migration 042): that INSERT named
-- pg-boss 10's columns, which change between its majors, and pg-boss's API is the one contract it
-- keeps.
--
-- The flow of "a set ends -> its webhooks are sent", all in the transaction that ends it:
--   1. an UPDATE moves jobs.status to succeeded/failed (src/queue/queue.ts: completeJob, failJob,
--      which the lease sweep uses after a job's last attempt; revisions are jobs too), or
--      publications.status to published/failed (src/publishing/publications.ts: setStatus);
--   2. the jobs_ended (002) or publications_ended (041) trigger writes the event into job_events
--      and notifies; job_events_fan_out (005) writes one webhook_deliveries row per endpoint
--      subscribed at that moment. These triggers stay: they write only our own tables, and they
--      hold "an ended job or publication always has its event" whichever statement ends it;
--   3. the same code then queues each new delivery's task through pg-boss's API on the same
--      transaction (its `db` option; src/tasks/webhook-delivery.ts, queueDeliveryTasks): queue
--      `webhook-delivery`, singleton key the delivery's id, due now, the queue's own options.
-- So a delivery never commits without its task, and nothing is left to do after the commit.
-- Deliveries that have no live task (written before the task runner's schema existed, or whose
-- task pg-boss gave up on) get one when a task runner starts (catchUpDeliveryTasks), through
-- pg-boss's API too.

DROP TRIGGER webhook_deliveries_enqueue ON webhook_deliveries;
DROP FUNCTION webhook_deliveries_enqueue();
DROP FUNCTION webhook_delivery_tasks_catch_up();
DROP FUNCTION webhook_delivery_enqueue(bigint, timestamptz);
