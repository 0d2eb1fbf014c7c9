/**
 * The external-PostgreSQL tier: with TEST_DATABASE_URL (CI sets it) every test that loops over
 * testServers() runs on that server as well as on the embedded one. This file only makes the tier
 * visible: it fails in CI without the server, and says what was skipped elsewhere.
 */
import pg from 'pg';
import { expect, it } from 'vitest';
import { testServers } from '../support/db.ts';
import { tier } from '../support/tiers.ts';

const external = testServers().find((s) => s.name === 'external');

tier('external PostgreSQL', {
  available: external !== undefined,
  missing: 'TEST_DATABASE_URL is not set, so only the embedded server was tested',
})('the external PostgreSQL server', () => {
  it('answers, and holds the migrated template the tests clone', async () => {
    const c = new pg.Client({ connectionString: external!.adminUrl });
    await c.connect();
    try {
      const { rows } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_database WHERE datname = $1', [external!.template]);
      expect(rows[0].n).toBe(1);
    } finally {
      await c.end();
    }
  });
});
