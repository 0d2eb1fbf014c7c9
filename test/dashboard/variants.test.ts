/**
 * Variants in the dashboard over app.inject(): the publish form's choice of a custom product page
 * or a test treatment, Submit for review on the publication, the app page's variants side by side
 * (store preview, state, publication) and Start on an approved test; another account sees none
 * of it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PageClient } from '../support/dashboard.ts';
import { ASC_APP, dashboardPublishing, finishedSet, type DashboardPublishing } from './publishing-support.ts';

let p: DashboardPublishing;
let c: PageClient;
let accountId: string;

beforeEach(async () => {
  p = await dashboardPublishing();
  c = await new PageClient(p.h.app).signUp('owner@example.com');
  accountId = (await p.h.t.pool.query(`SELECT account_id FROM users WHERE email = 'owner@example.com'`)).rows[0].account_id;
});
afterEach(async () => p.close());

async function connect(): Promise<string> {
  await c.get('/connections');
  const res = await c.postFiles(
    '/connections/app-store',
    { issuerId: p.ascKey.issuerId, keyId: p.ascKey.keyId, privateKey: p.ascKey.privateKeyPem },
    [],
  );
  return /added=(sc_[0-9A-Z]{26})/.exec(String(res.headers.location))![1];
}

/** Plans from the set's publish form, approves, runs: the publication's id. */
async function publish(job: string, fields: Record<string, string>): Promise<string> {
  await c.get(`/sets/${job}/publish`);
  const created = await c.post(`/sets/${job}/publish`, fields);
  expect(created.statusCode, created.body).toBe(303);
  const pub = /\/publications\/(pub_[0-9A-Z]{26})$/.exec(String(created.headers.location))![1];
  await p.drain();
  await c.get(`/publications/${pub}`);
  expect((await c.post(`/publications/${pub}/approve`, {})).statusCode).toBe(303);
  await p.drain();
  return pub;
}

const appOf = async (job: string) => (await p.h.t.pool.query(`SELECT app_id FROM jobs WHERE id = $1`, [job])).rows[0].app_id as string;

describe('variants in the dashboard', () => {
  it('publishes a set as a custom product page, submits it on its button, and shows it on the app page with its first three slides', async () => {
    const sc = await connect();
    const job = await finishedSet(p.h, accountId, ['Plan meals', 'Shop faster', 'Cook tonight', 'Save more'], [1, 2, 3, 4]);
    const form = await c.get(`/sets/${job}/publish`);
    expect(form.body).toContain('Where on the App Store');
    const empty = await c.post(`/sets/${job}/publish`, { connectionId: sc, target: 'custom-product-page', pageName: ' ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('give a name');

    const pub = await publish(job, { connectionId: sc, target: 'custom-product-page', pageName: 'Students' });
    const published = await c.get(`/publications/${pub}`);
    expect(published.body).toContain('custom product page <strong>Students</strong>');
    expect(published.body).toContain('Submit for review');
    expect(p.asc.reviewSubmissions(ASC_APP)).toEqual([]);

    expect((await c.post(`/publications/${pub}/submit`, {})).statusCode).toBe(303);
    expect((await c.get(`/publications/${pub}`)).body).toContain('Sent to App Review');
    expect(p.asc.reviewSubmissions(ASC_APP).map((s) => s.state)).toEqual(['WAITING_FOR_REVIEW']);

    const appPage = await c.get(`/apps/${await appOf(job)}`);
    expect(appPage.statusCode).toBe(200);
    expect(appPage.body).toContain('Variants on the App Store');
    const card = appPage.body.slice(appPage.body.indexOf('class="variants"'));
    expect(card).toContain('>Students</a>');
    expect(card).toContain('WAITING_FOR_REVIEW');
    expect(card).toContain(`href="/publications/${pub}"`);
    // The store preview: the first three slides, as a shopper sees the top of the page.
    expect(card.match(/<img src="[^"]+" alt="Slide \d/g)).toHaveLength(3);
    expect(card).toContain('alt="Slide 3: Cook tonight"');
    expect(card).not.toContain('Slide 4');
  });

  it('starts an approved test only on its button; another account sees no variant and cannot start it', async () => {
    p.asc.setVersionState(ASC_APP, 'READY_FOR_SALE');
    const sc = await connect();
    const job = await finishedSet(p.h, accountId, ['Plan meals', 'Shop faster'], [1, 2]);
    await publish(job, { connectionId: sc, target: 'experiment-treatment', experimentName: 'Spring', treatmentName: 'B' });
    const [test] = p.asc.experiments(ASC_APP);
    const app = await appOf(job);
    expect((await c.get(`/apps/${app}`)).body).not.toContain('Start the test');
    p.asc.setExperimentState(test.id, 'APPROVED');
    const approved = await c.get(`/apps/${app}`);
    expect(approved.body).toContain('Spring: B');
    expect(approved.body).toContain('Start the test');
    expect(p.asc.experiments(ASC_APP)[0].startDate).toBeNull();

    const other = await new PageClient(p.h.app).signUp('other@example.com');
    await other.get('/apps');
    expect((await other.post(`/experiments/${test.id}/start?app=${app}`, {})).statusCode).toBe(404);
    expect((await other.get(`/apps/${app}`)).statusCode).toBe(404);
    expect(p.asc.experiments(ASC_APP)[0].startDate).toBeNull();

    const started = await c.post(`/experiments/${test.id}/start?app=${app}`, {});
    expect(started.statusCode).toBe(303);
    expect(started.headers.location).toBe(`/apps/${app}#variants`);
    expect(p.asc.experiments(ASC_APP)[0].startDate).toEqual(expect.any(String));
    const running = await c.get(`/apps/${app}`);
    expect(running.body).toContain('RUNNING');
    expect(running.body).not.toContain('Start the test');
  });
});
