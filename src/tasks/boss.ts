/**
 * pg-boss as the service sets it up: its schema, and its API on a caller's connection. pg-boss's
 * calls take a `db` option ({ executeSql }); given a transaction's client, what they write
 * commits or rolls back with the caller's own writes. That is how a task is queued atomically
 * with the row it is about, without SQL of ours writing into pg-boss's tables.
 */
import PgBoss from 'pg-boss';

/** Where pg-boss keeps its tables, in the service's own database. */
export const TASKS_SCHEMA = 'pgboss';

/** What pg-boss needs of a connection, a transaction's client included: its `db` option. */
export interface SqlClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export const onConnection = (db: SqlClient): PgBoss.Db => ({ executeSql: (text, values) => db.query(text, values) });

let offline: PgBoss | undefined;

/**
 * pg-boss's API for a process that has not started the task runner (or code that has no handle on
 * it, such as the jobs queue ending a job): an instance with no connection of its own, so every
 * call must pass `{ db: onConnection(client) }`. It starts nothing (no pool, no timers).
 */
export function bossWithoutConnection(): PgBoss {
  offline ??= new PgBoss({
    schema: TASKS_SCHEMA,
    db: { executeSql: () => Promise.reject(new Error('pg-boss without a connection: pass the db option')) },
  });
  return offline;
}
