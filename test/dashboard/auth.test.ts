import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { createDashboardApp, PageClient } from '../support/dashboard.ts';

const PASSWORD = 'correct horse battery';

describe('dashboard sign up, sign in, sign out', () => {
  let h: TestApp;
  afterEach(async () => h?.close());

  const sessionCookie = (res: { cookies: unknown[] }, name = 'shotgen_session') =>
    (res.cookies as { name: string; value: string; httpOnly?: boolean; sameSite?: string; secure?: boolean; path?: string }[]).find(
      (c) => c.name === name,
    );

  it('sign up creates an account on the free plan and signs in with an HttpOnly, SameSite=Lax cookie', async () => {
    h = await createDashboardApp();
    const c = new PageClient(h.app);
    await c.get('/sign-up');
    const res = await c.post('/sign-up', { email: 'Owner@Example.com', password: PASSWORD });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/keys?welcome=1');
    const cookie = sessionCookie(res)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.secure).toBeFalsy();
    const { rows } = await h.t.pool.query(`SELECT u.email, a.plan_id, u.password_hash FROM users u JOIN accounts a ON a.id = u.account_id`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: 'Owner@Example.com', plan_id: 'free' });
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
    // Only the digest of the session token is stored.
    const stored = await h.t.pool.query('SELECT token_hash FROM sessions');
    expect(stored.rows[0].token_hash).toEqual(createHash('sha256').update(cookie.value).digest());
    const keys = await c.get('/keys');
    expect(keys.statusCode).toBe(200);
    expect(keys.body).toContain('Owner@Example.com');
  });

  it('cookies are Secure with the __Host- prefix when PUBLIC_URL is https', async () => {
    h = await createDashboardApp({ config: { publicUrl: 'https://shots.example.com' } });
    const c = new PageClient(h.app);
    const form = await c.get('/sign-up');
    expect(sessionCookie(form, '__Host-shotgen_csrf')).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
    const res = await c.post('/sign-up', { email: 'a@example.com', password: PASSWORD });
    expect(sessionCookie(res, '__Host-shotgen_session')).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(res.headers['strict-transport-security']).toMatch(/max-age=/);
  });

  it('refuses a second sign-up with the same email in any letter case, and bad fields with messages', async () => {
    h = await createDashboardApp();
    await new PageClient(h.app).signUp('a@example.com');
    const c = new PageClient(h.app);
    await c.get('/sign-up');
    const dup = await c.post('/sign-up', { email: 'A@EXAMPLE.com', password: PASSWORD });
    expect(dup.statusCode).toBe(400);
    expect(dup.body).toContain('already registered');
    await c.get('/sign-up');
    const bad = await c.post('/sign-up', { email: 'not-an-email', password: 'short' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('must be an email address');
    expect(bad.body).toContain('at least 10 characters');
    expect(bad.body).toContain('aria-invalid="true"');
    expect((await h.t.pool.query('SELECT count(*)::int AS n FROM users')).rows[0].n).toBe(1);
  });

  it('sign in with the right password, sign out ends the session on the server', async () => {
    h = await createDashboardApp();
    await new PageClient(h.app).signUp('b@example.com');
    const c = new PageClient(h.app);
    expect((await c.get('/keys')).headers.location).toBe('/sign-in?next=%2Fkeys');
    await c.get('/sign-in');
    const wrong = await c.post('/sign-in', { email: 'b@example.com', password: 'wrong password!' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('do not match');
    const ok = await c.post('/sign-in', { email: 'B@example.com', password: PASSWORD, next: '/usage' });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/usage');
    const token = c.cookies.get('shotgen_session')!;
    expect((await c.get('/usage')).statusCode).toBe(200);
    const out = await c.post('/sign-out', {});
    expect(out.statusCode).toBe(303);
    expect(c.cookies.has('shotgen_session')).toBe(false);
    // The old token no longer works even if replayed.
    c.cookies.set('shotgen_session', token);
    expect((await c.get('/usage')).statusCode).toBe(303);
  });

  it('never redirects off-site after sign-in', async () => {
    h = await createDashboardApp();
    await new PageClient(h.app).signUp('c@example.com');
    for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      const c = new PageClient(h.app);
      await c.get('/sign-in');
      const res = await c.post('/sign-in', { email: 'c@example.com', password: PASSWORD, next });
      expect(res.headers.location).toBe('/keys');
    }
  });

  it('session fixation: a pre-set session cookie is never adopted, and sign-in issues a new token', async () => {
    h = await createDashboardApp();
    await new PageClient(h.app).signUp('d@example.com');
    const c = new PageClient(h.app);
    const planted = 'A'.repeat(43);
    c.cookies.set('shotgen_session', planted);
    expect((await c.get('/keys')).statusCode).toBe(303);
    await c.get('/sign-in');
    await c.post('/sign-in', { email: 'd@example.com', password: PASSWORD });
    const issued = c.cookies.get('shotgen_session')!;
    expect(issued).not.toBe(planted);
    const stored = await h.t.pool.query('SELECT 1 FROM sessions WHERE token_hash = $1', [createHash('sha256').update(planted).digest()]);
    expect(stored.rowCount).toBe(0);
    // Signing in again while signed in rotates: the previous token dies, a new one is issued.
    await c.get('/sign-in');
    const again = new PageClient(h.app);
    again.cookies.set('shotgen_session', issued);
    await again.get('/keys');
    await again.post('/sign-in', { email: 'd@example.com', password: PASSWORD });
    const rotated = again.cookies.get('shotgen_session')!;
    expect(rotated).not.toBe(issued);
    const old = new PageClient(h.app);
    old.cookies.set('shotgen_session', issued);
    expect((await old.get('/keys')).statusCode).toBe(303);
  });

  it('an expired session signs no one in', async () => {
    h = await createDashboardApp();
    const c = await new PageClient(h.app).signUp('e@example.com');
    await h.t.pool.query(`UPDATE sessions SET expires_at = now() - interval '1 second'`);
    expect((await c.get('/keys')).headers.location).toBe('/sign-in?next=%2Fkeys');
  });

  it('sign-up is a 404 when SIGNUP_ENABLED is false; sign in still works', async () => {
    h = await createDashboardApp({ config: { signupEnabled: false } });
    const c = new PageClient(h.app);
    expect((await c.get('/sign-up')).statusCode).toBe(404);
    await c.get('/sign-in');
    expect(c.last!.body).not.toContain('/sign-up');
    expect((await c.post('/sign-up', { email: 'f@example.com', password: PASSWORD })).statusCode).toBe(404);
    expect((await h.t.pool.query('SELECT count(*)::int AS n FROM users')).rows[0].n).toBe(0);
  });
});
