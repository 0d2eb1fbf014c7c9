import { describe, expect } from 'vitest';
import { claimJobs, completeJob, failJob } from '../../src/sets/job-queue.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { saveJobFiles } from '../../src/sets/files.ts';
import { RenderPool } from '../../src/rendering/index.ts';
import { Previewer } from '../../src/sets/revisions/preview.ts';
import { solidPng } from '../support/fake-images.ts';
import type { TestApp } from '../support/app.ts';
import { it } from '../support/context.ts';
import { ContractChecker, type Answer } from '../support/contract.ts';
import { accountWithKey, insertApp, sampleListing } from '../support/fixtures.ts';
import { enqueueJobs } from '../support/jobs.ts';
import { callPublishingOperations } from '../publishing/contract-calls.ts';

const BASE = '/api/v1';

/**
 * Every route of the served document, called for real (happy and error answers), each answer
 * checked against the document the same server serves.
 */
describe('every response matches the served OpenAPI document', () => {
  /** The document the app serves, and a caller that checks each answer against it. */
  const checked = async (h: TestApp) => {
    const contract = new ContractChecker((await h.app.inject({ method: 'GET', url: `${BASE}/public/openapi.json` })).json());
    const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', template: string, url: string, opts: CallOptions = {}) =>
      callChecked(h, contract, method, template, url, opts);
    return { contract, call };
  };

  type CallOptions = { headers?: Record<string, string>; body?: unknown };
  const callChecked = async (
    h: TestApp,
    contract: ContractChecker,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    template: string,
    url: string,
    opts: CallOptions,
  ): Promise<Answer> => {
    const res = await h.app.inject({
      method,
      url: BASE + url,
      headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(opts.headers ?? h.auth) },
      ...(opts.body !== undefined ? { payload: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) } : {}),
    });
    contract.check(method, template, res);
    return res;
  };

  it('for every operation, success and errors alike', async ({ api: h }) => {
    const { call, contract } = await checked(h);
    const none = { headers: {} as Record<string, string> };
    // Apps
    const created = await call('POST', '/public/v1/apps', '/public/v1/apps', {
      body: { iosUrl: 'https://apps.apple.com/us/app/pocket-planner/id1234567890' },
    });
    expect(created.statusCode).toBe(200);
    await call('POST', '/public/v1/apps', '/public/v1/apps', { body: { iosUrl: 'https://example.com/x' } });
    await call('POST', '/public/v1/apps', '/public/v1/apps', { body: '{nope' });
    await call('POST', '/public/v1/apps', '/public/v1/apps', { ...none, body: {} });
    const listing = { name: 'Fernly', description: 'Get watering reminders for every plant.', category: 'Lifestyle' };
    const own = await call('POST', '/public/v1/apps', '/public/v1/apps', { body: { listing } });
    expect(own.statusCode).toBe(200);
    const ownId = JSON.parse(own.body).appId as string;
    await call('POST', '/public/v1/apps', '/public/v1/apps', { body: { listing: { ...listing, category: 'Gardening' } } });
    const patched = await call('PATCH', '/public/v1/apps/{appId}', `/public/v1/apps/${ownId}`, {
      body: { iosUrl: 'https://apps.apple.com/us/app/pocket-planner/id1234567890' },
    });
    expect(patched.statusCode).toBe(200);
    await call('PATCH', '/public/v1/apps/{appId}', `/public/v1/apps/${ownId}`, { body: { listing } });
    await call('PATCH', '/public/v1/apps/{appId}', '/public/v1/apps/app_01ARZ3NDEKTSV4RRFFQ69G5FAV', {
      body: { iosUrl: 'https://apps.apple.com/app/id1' },
    });

    // Screenshot sets
    const appId = JSON.parse(created.body).appId as string;
    const set = await call('POST', '/public/v1/screenshots', '/public/v1/screenshots', {
      // As many slides as the fixture's short listing supports (more is 422 cannot_fill_set, checked below).
      body: { appId, device: 'iphone-69', count: 1 },
      headers: { ...h.auth, 'idempotency-key': 'k1' },
    });
    expect(set.statusCode).toBe(201);
    await call('POST', '/public/v1/screenshots', '/public/v1/screenshots', {
      body: { appId: 'app_01ARZ3NDEKTSV4RRFFQ69G5FAV', device: 'iphone-69' },
    });
    await call('POST', '/public/v1/screenshots', '/public/v1/screenshots', { body: { appId, device: 'nokia' } });
    const unfillable = await call('POST', '/public/v1/screenshots', '/public/v1/screenshots', {
      body: { appId, device: 'iphone-69', count: 10 },
    });
    expect(unfillable.statusCode).toBe(422);
    const poor = await accountWithKey(h.t.pool);
    const poorApp = await insertApp(h.t.pool, poor.account.id);
    for (let i = 0; i < 11; i++) {
      const res = await call('POST', '/public/v1/screenshots', '/public/v1/screenshots', {
        body: { appId: poorApp, device: 'iphone-69' },
        headers: { authorization: `Bearer ${poor.key}` },
      });
      if (res.statusCode === 402) break;
    }
    expect(contract.seen.get('POST /public/v1/screenshots')).toContain(402);
    const estimate = (body: object, headers = h.auth) =>
      call('POST', '/public/v1/screenshots/estimate', '/public/v1/screenshots/estimate', { body, headers });
    expect((await estimate({ appId, device: 'iphone-69', count: 1 })).statusCode).toBe(200);
    expect((await estimate({ appId, device: 'iphone-69', count: 10 })).statusCode).toBe(422);
    expect((await estimate({ appId: poorApp, device: 'iphone-69' }, { authorization: `Bearer ${poor.key}` })).statusCode).toBe(402);
    expect((await estimate({ appId, device: 'iphone-69', dryRun: true })).statusCode).toBe(400);

    // Jobs: queued, succeeded (a real plan), failed, unknown
    const queuedId = JSON.parse(set.body).jobId as string;
    const queued = await call('GET', '/public/v1/jobs/{id}', `/public/v1/jobs/${queuedId}`);
    expect(JSON.parse(queued.body).status).toBe('queued');
    const otherApp = await insertApp(h.t.pool, h.account.id);
    const [doneId, failedId] = await enqueueJobs(h.t.pool, h.account.id, otherApp, 2);
    await claimJobs(h.t.pool, 'w', 100, 60_000);
    const result = planScreenshotSet({ listings: [sampleListing()], extraContext: null, request: { device: 'iphone-69', count: 3 } });
    const png = await solidPng(1320, 2868, 'red');
    const files = [
      'slides/1.png',
      'locales/de-DE/slides/1.png',
      'archive.zip',
      'feature-graphic.png',
      'locales/de-DE/feature-graphic.png',
      'store-preview.png',
    ].map((name) => ({
      name,
      objectKey: `jobs/${doneId}/a1/${name}`,
      contentType: name.endsWith('.zip') ? 'application/zip' : 'image/png',
      bytes: png.length,
      sha256: 'a'.repeat(64),
      width: 1320,
      height: 2868,
    }));
    for (const f of files) await h.services.objects.put(f.objectKey, png, f.contentType);
    await completeJob(h.t.pool, 'w', doneId, { result, save: (tx) => saveJobFiles(tx, doneId, files) });
    await failJob(h.t.pool, failedId, 'w', { code: 'planning_failed', message: 'nothing to plan', retryable: false });
    expect(JSON.parse((await call('GET', '/public/v1/jobs/{id}', `/public/v1/jobs/${doneId}`)).body).status).toBe('succeeded');
    // Twice: the second answer comes from the finished-job cache.
    await call('GET', '/public/v1/jobs/{id}', `/public/v1/jobs/${doneId}`);
    expect(JSON.parse((await call('GET', '/public/v1/jobs/{id}', `/public/v1/jobs/${failedId}`)).body).status).toBe('failed');
    await call('GET', '/public/v1/jobs/{id}', '/public/v1/jobs/job_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    await call('GET', '/public/v1/jobs/{id}', `/public/v1/jobs/${doneId}`, { headers: { authorization: `Bearer ${poor.key}` } });

    // Screens: raw image bodies
    const raw = async (
      method: 'POST' | 'PUT' | 'GET' | 'DELETE',
      template: string,
      url: string,
      payload?: Buffer,
      type = 'image/png',
      headers: Record<string, string> = h.auth,
    ) => {
      const res = await h.app.inject({
        method,
        url: BASE + url,
        headers: { ...headers, ...(payload ? { 'content-type': type } : {}) },
        ...(payload ? { payload } : {}),
      });
      contract.check(method, template, res);
      return res;
    };
    const screens = '/public/v1/apps/{appId}/screens';
    const shot = await raw('POST', screens, `/public/v1/apps/${appId}/screens`, await solidPng(400, 860, 'green'));
    expect(shot.statusCode).toBe(201);
    await raw('POST', screens, `/public/v1/apps/${appId}/screens`, Buffer.from('not an image'));
    await raw('POST', screens, `/public/v1/apps/${appId}/screens`, Buffer.from('{}'), 'application/json');
    await raw('POST', screens, `/public/v1/apps/app_01ARZ3NDEKTSV4RRFFQ69G5FAV/screens`, await solidPng(400, 860, 'green'));
    await raw('GET', screens, `/public/v1/apps/${appId}/screens`);
    await raw('GET', screens, `/public/v1/apps/${poorApp}/screens`);
    const screenId = JSON.parse(shot.body).screenId as string;
    await raw('DELETE', `${screens}/{screenId}`, `/public/v1/apps/${appId}/screens/${screenId}`, undefined, undefined, {
      authorization: `Bearer ${poor.key}`,
    });
    expect((await raw('DELETE', `${screens}/{screenId}`, `/public/v1/apps/${appId}/screens/${screenId}`)).statusCode).toBe(204);

    // The app's icon: uploaded, refused, served with the key and signed, not modified, refused
    const icon = '/public/v1/apps/{appId}/icon';
    const withIcon = await raw('PUT', icon, `/public/v1/apps/${ownId}/icon`, await solidPng(512, 512, 'green'));
    expect(withIcon.statusCode).toBe(200);
    await raw('PUT', icon, `/public/v1/apps/${ownId}/icon`, await solidPng(512, 400, 'green'));
    await raw('PUT', icon, `/public/v1/apps/${ownId}/icon`, Buffer.from('{}'), 'application/json');
    await raw('PUT', icon, '/public/v1/apps/app_01ARZ3NDEKTSV4RRFFQ69G5FAV/icon', await solidPng(512, 512, 'green'));
    const iconUrl = new URL(JSON.parse(withIcon.body).artworkUrl);
    expect((await raw('GET', icon, iconUrl.pathname.slice(BASE.length) + iconUrl.search, undefined, undefined, {})).statusCode).toBe(200);
    const keyedIcon = await raw('GET', icon, `/public/v1/apps/${ownId}/icon`);
    await raw('GET', icon, `/public/v1/apps/${ownId}/icon`, undefined, undefined, {
      ...h.auth,
      'if-none-match': String(keyedIcon.headers.etag),
    });
    await raw('GET', icon, `/public/v1/apps/${ownId}/icon?expires=1&sig=${'A'.repeat(43)}`, undefined, undefined, {});
    await raw('GET', icon, `/public/v1/apps/${appId}/icon`);

    // Pictures of the succeeded job: with the key, signed, not modified, refused
    const pictures = JSON.parse((await call('GET', '/public/v1/jobs/{id}', `/public/v1/jobs/${doneId}`)).body).result;
    const slideUrl = new URL(pictures.slides[0].image.url);
    const slide = '/public/v1/jobs/{id}/slides/{file}';
    expect((await raw('GET', slide, slideUrl.pathname.slice(BASE.length) + slideUrl.search, undefined, undefined, {})).statusCode).toBe(
      200,
    );
    const keyed = await raw('GET', slide, `/public/v1/jobs/${doneId}/slides/1.png`);
    await raw('GET', slide, `/public/v1/jobs/${doneId}/slides/1.png`, undefined, undefined, {
      ...h.auth,
      'if-none-match': String(keyed.headers.etag),
    });
    await raw('GET', slide, `/public/v1/jobs/${doneId}/slides/1.png?expires=1&sig=${'A'.repeat(43)}`, undefined, undefined, {});
    await raw('GET', slide, `/public/v1/jobs/${doneId}/slides/2.png`);
    await raw('GET', slide, `/public/v1/jobs/${doneId}/slides/1.png`, undefined, undefined, {});
    const locale = '/public/v1/jobs/{id}/locales/{locale}/slides/{file}';
    expect((await raw('GET', locale, `/public/v1/jobs/${doneId}/locales/de-DE/slides/1.png`)).statusCode).toBe(200);
    await raw('GET', locale, `/public/v1/jobs/${doneId}/locales/fr-FR/slides/1.png`);
    const archive = '/public/v1/jobs/{id}/archive.zip';
    expect((await raw('GET', archive, `/public/v1/jobs/${doneId}/archive.zip`)).statusCode).toBe(200);
    await raw('GET', archive, `/public/v1/jobs/${failedId}/archive.zip`);
    for (const name of ['feature-graphic.png', 'store-preview.png']) {
      const template = `/public/v1/jobs/{id}/${name}`;
      expect((await raw('GET', template, `/public/v1/jobs/${doneId}/${name}`)).statusCode).toBe(200);
      await raw('GET', template, `/public/v1/jobs/${failedId}/${name}`);
    }
    const localeGraphic = '/public/v1/jobs/{id}/locales/{locale}/feature-graphic.png';
    expect((await raw('GET', localeGraphic, `/public/v1/jobs/${doneId}/locales/de-DE/feature-graphic.png`)).statusCode).toBe(200);
    await raw('GET', localeGraphic, `/public/v1/jobs/${doneId}/locales/fr-FR/feature-graphic.png`);

    // Brand kit
    const brand = '/public/v1/apps/{appId}/brand';
    expect((await call('PUT', brand, `/public/v1/apps/${appId}/brand`, { body: { defaultTheme: 'dark' } })).statusCode).toBe(200);
    await call('PUT', brand, `/public/v1/apps/${appId}/brand`, { body: { colors: { primary: '#000080', secondary: '#FFFF00' } } });
    await call('PUT', brand, `/public/v1/apps/${poorApp}/brand`, { body: {} });
    expect((await call('GET', brand, `/public/v1/apps/${appId}/brand`)).statusCode).toBe(200);
    await call('GET', brand, `/public/v1/apps/${poorApp}/brand`);
    await call('GET', brand, `/public/v1/apps/${appId}/brand`, none);

    // Revisions: of the succeeded job, of a queued one, a body the schema refuses
    const revisions = '/public/v1/jobs/{id}/revisions';
    const revised = await call('POST', revisions, `/public/v1/jobs/${doneId}/revisions`, {
      body: { slides: [{ index: 1, headline: 'Plan Meals' }] },
    });
    expect(revised.statusCode).toBe(201);
    await call('POST', revisions, `/public/v1/jobs/${queuedId}/revisions`, { body: { theme: 'dark' } });
    await call('POST', revisions, `/public/v1/jobs/${doneId}/revisions`, { body: { slides: [{ index: 0 }] } });
    // Previews: this server renders none (503), then one that does; the listing's screenshots are out of reach (a dark glass)
    const previews = '/public/v1/previews';
    await call('POST', previews, previews, { body: { jobId: doneId, slide: { index: 1 } } });
    h.services.previews = new Previewer({
      db: h.t.pool,
      objects: h.services.objects,
      renderer: new RenderPool({ threads: 1 }),
      storeImageOrigins: [],
    });
    const previewed = await call('POST', previews, previews, { body: { jobId: doneId, slide: { index: 1, headline: 'Plan Meals' } } });
    expect(previewed.statusCode).toBe(200);
    await call('POST', previews, previews, { body: { jobId: queuedId, slide: { index: 1 } } });
    await call('POST', previews, previews, { body: { appId, device: 'iphone-69', slide: {} } });
    await h.services.previews.close();

    // Narratives and account
    await call('GET', '/public/v1/narratives', '/public/v1/narratives');
    await call('GET', '/public/v1/narratives', '/public/v1/narratives', { headers: { 'x-api-key': 'sk_live_nope' } });
    await call('GET', '/public/v1/account', '/public/v1/account');
    await call('GET', '/public/v1/account', '/public/v1/account', none);

    // Webhooks
    const hook = await call('POST', '/public/v1/webhooks', '/public/v1/webhooks', {
      body: { url: 'https://example.com/hooks', events: ['job.failed'] },
    });
    expect(hook.statusCode).toBe(201);
    await call('POST', '/public/v1/webhooks', '/public/v1/webhooks', { body: { url: 'https://127.0.0.1/hooks' } });
    await call('POST', '/public/v1/webhooks', '/public/v1/webhooks', { ...none, body: { url: 'https://example.com/hooks' } });
    await call('GET', '/public/v1/webhooks', '/public/v1/webhooks');
    await call('GET', '/public/v1/webhooks', '/public/v1/webhooks', none);
    const hookId = JSON.parse(hook.body).id as string;
    await call('DELETE', '/public/v1/webhooks/{id}', `/public/v1/webhooks/${hookId}`, { headers: { authorization: `Bearer ${poor.key}` } });
    expect((await call('DELETE', '/public/v1/webhooks/{id}', `/public/v1/webhooks/${hookId}`)).statusCode).toBe(204);

    await callPublishingOperations(h, call);

    // Every documented operation was answered with a success and with an error.
    for (const op of contract.operations()) {
      const statuses = [...(contract.seen.get(op) ?? [])];
      expect(
        statuses.some((s) => s < 300),
        `${op}: a success`,
      ).toBe(true);
      expect(
        statuses.some((s) => s >= 400),
        `${op}: an error`,
      ).toBe(true);
    }
  });

  it('catches an answer that breaks the document', async ({ api: h }) => {
    const { contract } = await checked(h);
    const bad = {
      statusCode: 200,
      headers: { 'content-type': 'application/json', 'x-request-id': 'req_x' },
      body: JSON.stringify({ id: 'acc_x', name: 'A', plan: 'free', credits: { allowance: 'fifty' } }),
    };
    expect(() => contract.check('GET', '/public/v1/account', bad)).toThrow(/credits/);
    expect(() => contract.check('GET', '/public/v1/account', { ...bad, statusCode: 418 })).toThrow(/418/);
  });
});

describe('response schemas are enforced, not documentation', () => {
  it('drops members the schema does not have and refuses a body that lacks required ones', async ({ api: h }) => {
    const [jobId] = await enqueueJobs(h.t.pool, h.account.id, await insertApp(h.t.pool, h.account.id), 1);
    const real = await h.services.jobs.get(h.account.id, jobId);
    h.services.jobs.get = async () => ({ ...real!, internalNote: 'leaked', request: { secret: true } }) as never;
    const res = await h.app.inject({ method: 'GET', url: `${BASE}/public/v1/jobs/${jobId}`, headers: h.auth });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual([
      'createdAt',
      'error',
      'id',
      'parentJobId',
      'progress',
      'result',
      'status',
      'updatedAt',
    ]);
    const { status: _dropped, ...withoutStatus } = real!;
    h.services.jobs.get = async () => withoutStatus as never;
    const broken = await h.app.inject({ method: 'GET', url: `${BASE}/public/v1/jobs/${jobId}`, headers: h.auth });
    expect(broken.statusCode).toBe(500);
    expect(broken.json().code).toBe('internal_error');
  });
});
