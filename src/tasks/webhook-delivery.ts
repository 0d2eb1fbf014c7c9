/**
 * The webhook-delivery task's queuing side (its runs: src/webhooks/dispatcher.ts). A job's or a
 * publication's end writes its event and one delivery per subscribed endpoint (SQL triggers on our
 * own tables, migrations 002, 005 and 041); the code that ends it then queues each new delivery's
 * task through pg-boss's API on the same transaction (queueDeliveryTasks), so a delivery never
 * commits without its task and nothing is left to do after the commit. The task's singleton key
 * is the delivery's id, and the queue is `stately`: one attempt waiting and one running at most.
 * At start, deliveries left without a live task get one (catchUpDeliveryTasks).
 */
import type PgBoss from 'pg-boss';
import { bossWithoutConnection, onConnection, TASKS_SCHEMA, type SqlClient } from './boss.ts';
import type { TaskQueue, TaskSettings } from './runner.ts';

/** One webhook delivery's next attempt; its data is `{ deliveryId }`. */
export const DELIVERY_TASK = 'webhook-delivery';

export const deliveryQueue = (settings: TaskSettings): TaskQueue => ({
  name: DELIVERY_TASK,
  policy: 'stately',
  // Only crashes and stops come back through pg-boss's retry, and at once: the attempt a stopping
  // worker gives back is owed now, and a crash already waited out the lease.
  retryLimit: Math.max(settings.retryLimit, 10),
  retryDelay: 0,
  retryBackoff: false,
  expireInSeconds: settings.deliveryLeaseSeconds ?? 30,
});

/** What just ended, in the caller's transaction: a job, or a publication (its own event). */
export type Ended = { accountId: string; jobId: string } | { accountId: string; publicationId: string };

const task = (deliveryId: string, startAfter?: Date): PgBoss.JobInsert => ({
  name: DELIVERY_TASK,
  data: { deliveryId },
  singletonKey: deliveryId,
  ...(startAfter && { startAfter }),
});

/**
 * Queues a task for each pending delivery of what ended, on `tx` (the transaction that ended it,
 * after the statement that did: the triggers have written the deliveries by then). Due now, as
 * the deliveries are. Until the task runner has set its schema up (a new database no worker has
 * started on yet) there is nowhere to queue them: the runner's catch-up does it at its start.
 */
export async function queueDeliveryTasks(tx: SqlClient, ended: Ended): Promise<number> {
  const [column, id] = 'jobId' in ended ? ['job_id', ended.jobId] : ['publication_id', ended.publicationId];
  const { rows } = (await tx.query(
    `SELECT d.id::text AS id, to_regclass('${TASKS_SCHEMA}.job') IS NOT NULL AS ready
     FROM job_events e JOIN webhook_deliveries d ON d.event_id = e.id AND d.account_id = e.account_id
     WHERE e.${column} = $1 AND e.account_id = $2 ${column === 'job_id' ? 'AND e.publication_id IS NULL' : ''} AND d.status = 'pending'`,
    [id, ended.accountId],
  )) as { rows: { id: string; ready: boolean }[] };
  if (rows.length === 0 || !rows[0].ready) return 0;
  await bossWithoutConnection().insert(
    rows.map((r) => task(r.id)),
    { db: onConnection(tx) },
  );
  return rows.length;
}

/**
 * Gives every pending delivery without a waiting or running task one, due when the delivery is:
 * deliveries written before the runner's schema existed, or whose task pg-boss gave up on
 * (crashes past its retries). Run at the runner's start, under its setup lock, so processes
 * starting together queue each once. It reads pg-boss's table to know which tasks are live
 * (pg-boss has no look-up by key); it writes through pg-boss's API only.
 */
export async function catchUpDeliveryTasks(boss: PgBoss): Promise<number> {
  const { rows } = (await boss.getDb().executeSql(
    `SELECT w.id::text AS id, greatest(w.next_attempt_at, now()) AS due FROM webhook_deliveries w
     WHERE w.status = 'pending' AND NOT EXISTS (
       SELECT 1 FROM ${TASKS_SCHEMA}.job j WHERE j.name = $1 AND j.singleton_key = w.id::text AND j.state IN ('created', 'retry', 'active'))`,
    [DELIVERY_TASK],
  )) as { rows: { id: string; due: Date }[] };
  if (rows.length) await boss.insert(rows.map((r) => task(r.id, r.due)));
  return rows.length;
}
