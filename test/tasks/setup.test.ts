import { describe, expect, it } from 'vitest';
import { DEFAULT_TASK_SETTINGS, Tasks } from '../../src/tasks/runner.ts';
import { createTestDatabase } from '../support/db.ts';
import { scaled } from '../support/timing.ts';

describe('the task runner of a split deployment', () => {
  // Without its setup lock this failed about one start in twelve with "deadlock detected"
  // (pg-boss's create_queue is not locked); CI lost two process tests to it.
  it('starts in three processes at once on a new database, every time', { timeout: scaled(120_000) }, async () => {
    for (let round = 0; round < 4; round++) {
      const db = await createTestDatabase();
      try {
        const started = await Promise.allSettled([0, 1, 2].map(() => Tasks.start({ ...DEFAULT_TASK_SETTINGS, connectionString: db.url })));
        await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.stop(0) : undefined)));
        expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'started'))).toEqual(['started', 'started', 'started']);
        const { rows } = await db.pool.query<{ name: string }>('SELECT name FROM pgboss.queue ORDER BY name');
        expect(rows.map((r) => r.name)).toEqual(['publication-advance', 'retention', 'webhook-delivery']);
      } finally {
        await db.drop();
      }
    }
  });
});
