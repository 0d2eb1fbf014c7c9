import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { revokeApiKey } from '../../src/accounts/api-keys.ts';
import { claimJobs, completeJob } from '../../src/jobs/queue.ts';
import type { ScreenshotSetResult } from '../../src/planning/types.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { insertApp } from '../support/fixtures.ts';
import { enqueueJobs } from '../support/jobs.ts';

const RESULT = { device: 'iphone-69', width: 1320, height: 2868, narrativeId: null, captionStyle: 'aso-expert', captionLength: 'short', slides: [], warnings: [] } as unknown as ScreenshotSetResult;

/** What must not differ between the two paths (the request id and the date always do). */
const comparable = (res: Response, body: string) => {
  const headers = Object.fromEntries([...res.headers].filter(([k]) => k !== 'x-request-id' && k !== 'date'));
  return { status: res.status, headers, body };
};

describe('the polling fast path over real HTTP', () => {
  let h: TestApp;
  let base: string;
  beforeEach(async () => {
    h = await createTestApp();
    base = `${await h.app.listen({ port: 0, host: '127.0.0.1' })}/api/v1/public/v1`;
  });
  afterEach(async () => h.close());

  const get = async (path: string, headers: Record<string, string> = h.auth) => {
    const res = await fetch(base + path, { headers });
    return { res, body: await res.text() };
  };

  it('answers a cached finished job exactly as Fastify does, without Fastify', async () => {
    const appId = await insertApp(h.t.pool, h.account.id);
    const [jobId] = await enqueueJobs(h.t.pool, h.account.id, appId, 1);
    await claimJobs(h.t.pool, 'w', 1, 60_000);
    await completeJob(h.t.pool, 'w', jobId, RESULT);

    const viaFastify = vi.spyOn(h.services.jobs, 'getJson');
    const first = await get(`/jobs/${jobId}`);
    expect(viaFastify).toHaveBeenCalledTimes(1);
    const second = await get(`/jobs/${jobId}`);
    expect(viaFastify).toHaveBeenCalledTimes(1);
    expect(comparable(second.res, second.body)).toEqual(comparable(first.res, first.body));
    expect(second.res.headers.get('x-request-id')).toMatch(/^req_[0-9A-Z]{26}$/);
    expect(JSON.parse(second.body)).toMatchObject({ id: jobId, status: 'succeeded' });
  });

  it('keeps Fastify’s connection timeouts on the server it builds for the fast path', () => {
    expect(h.app.server.keepAliveTimeout).toBe(72_000);
    expect(h.app.server.requestTimeout).toBe(0);
    expect(h.app.server.timeout).toBe(0);
  });

  it('answers a cached account view exactly as Fastify does', async () => {
    const viaFastify = vi.spyOn(h.services.accountViews, 'get');
    const first = await get('/account');
    const second = await get('/account', { 'x-api-key': h.key });
    expect(viaFastify).toHaveBeenCalledTimes(1);
    expect(comparable(second.res, second.body)).toEqual(comparable(first.res, first.body));
  });

  it('leaves everything unusual to Fastify', async () => {
    await get('/account');
    const viaFastify = vi.spyOn(h.services.accountViews, 'get');
    const unusual: Array<[string, Record<string, string>, number]> = [
      ['/account?x=1', h.auth, 200],
      ['/account/', h.auth, 404],
      ['/account', { authorization: `Basic ${h.key}` }, 401],
      ['/account', { authorization: `Bearer ${h.key} extra` }, 401],
      ['/account', { authorization: `Bearer ${h.key}`, 'x-api-key': `${h.key}x` }, 401],
    ];
    for (const [path, headers, status] of unusual) expect((await get(path, headers)).res.status, path).toBe(status);
    // The one 200 above came through Fastify's handler, not from memory.
    expect(viaFastify).toHaveBeenCalledTimes(1);
    // Errors always come from Fastify, as problems.
    const missing = await get('/account', {});
    expect(missing.res.status).toBe(401);
    expect(missing.res.headers.get('content-type')).toMatch(/problem\+json/);
  });

  it('never serves a key once its revocation has been delivered', async () => {
    await get('/account');
    const delivered = new Promise<void>((resolve) => h.notifications.subscribe('shotgen_api_keys', { onNotify: () => resolve() }));
    await revokeApiKey(h.t.pool, h.keyId);
    await delivered;
    const after = await get('/account');
    expect(after.res.status).toBe(401);
    expect(JSON.parse(after.body).code).toBe('revoked_api_key');
  });
});
