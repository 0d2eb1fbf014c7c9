/** With the database unreachable the dashboard answers a 503 page with Retry-After, never a 500. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardPlugin } from '../../src/dashboard/index.ts';
import type { Api } from '../../src/http/services.ts';
import { expectSecurityHeaders, PageClient } from '../support/dashboard.ts';
import { serverWithDatabaseDown } from '../support/database-down.ts';

describe('the dashboard while the database is unreachable', () => {
  let app: Api;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ app, close } = await serverWithDatabaseDown({ dashboard: dashboardPlugin }));
  });
  afterAll(() => close());

  it('pages that need it answer 503 with Retry-After; the sign-in form itself still shows', async () => {
    const c = new PageClient(app);
    expect((await c.get('/sign-in')).statusCode).toBe(200);
    const signIn = await c.post('/sign-in', { email: 'a@example.com', password: 'correct horse battery' });
    expect(signIn.statusCode).toBe(503);
    expect(signIn.headers['retry-after']).toBe('2');
    expect(signIn.body).toContain('Back in a moment');
    expectSecurityHeaders(signIn);
    c.cookies.set('shotgen_session', 'A'.repeat(43));
    const keys = await c.get('/keys');
    expect(keys.statusCode).toBe(503);
    expect(keys.headers['content-type']).toMatch(/^text\/html/);
  });
});
