/** Queue helpers for tests: charged, queued jobs written the way the API writes them. */
import { createScreenshotSet } from '../../src/sets/create.ts';
import type { Db } from '../../src/db/pool.ts';
import type { Device } from '../../src/core/devices.ts';
import { scaled } from './timing.ts';

export async function enqueueJobs(
  db: Db,
  accountId: string,
  appId: string,
  n: number,
  device: Device = 'iphone-69',
  count = 3,
  /** Own captions on text slides: nothing to frame is needed, so workers stay off the network. */
  textOnly = false,
): Promise<string[]> {
  const ids: string[] = [];
  const request = textOnly
    ? { appId, device, slides: Array.from({ length: count }, (_, i) => ({ headline: `Plan meals, step ${i + 1}` })) }
    : { appId, device, count };
  for (let i = 0; i < n; i++) {
    const { body } = await createScreenshotSet(db, accountId, request, { now: new Date() });
    ids.push(body.jobId);
  }
  return ids;
}

export async function jobRows(db: Db) {
  const { rows } = await db.query<{ id: string; status: string; attempts: number; error: { code: string } | null; result: unknown }>(
    'SELECT id, status, attempts, error, result FROM jobs ORDER BY created_at, id',
  );
  return rows;
}

export async function ledger(db: Db, accountId: string) {
  const { rows } = await db.query<{ kind: string; job_id: string | null; amount: number }>(
    'SELECT kind, job_id, amount FROM credit_ledger WHERE account_id = $1 ORDER BY id',
    [accountId],
  );
  return rows;
}

/**
 * Polls `fn` until it returns something truthy; `timeoutMs` is the idle-machine deadline, scaled.
 * `state`, when given, is read once the deadline passes and printed in the error, so a wait that
 * fails once in many runs says what it was waiting on.
 */
export async function until<T>(
  fn: () => Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
  everyMs = 20,
  state?: () => Promise<unknown>,
): Promise<T> {
  const deadline = Date.now() + scaled(timeoutMs);
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline)
      throw new Error(`condition not met in time${state ? `: ${JSON.stringify(await state().catch((e: Error) => e.message))}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
