/**
 * One publication at a time per store app: a PostgreSQL advisory lock, taken without waiting and
 * held by one connection for the whole step. A second publication of the same app does not block
 * a worker: its step ends as unavailable and the task retries it later. Play needs this because a
 * package has one open edit; App Store Connect because two runs on one app would both reorder its
 * sets (or both reserve the same library picture), and each one's verify would see the other's work.
 * A killed worker's connection closes, and the lock goes with it.
 */
import { withClient, type Db, type DbClient } from '../db/pool.ts';
import { StoreError } from './errors.ts';

export async function withStoreLock<T>(db: Db, key: string, busy: string, fn: () => Promise<T>): Promise<T> {
  return withClient(db, async (client: DbClient) => {
    const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [key]);
    if (!rows[0].ok) throw new StoreError('unavailable', busy);
    try {
      return await fn();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
    }
  });
}
