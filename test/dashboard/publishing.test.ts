/**
 * The dashboard's publishing pages over app.inject(): store connections (add by paste or file,
 * refused credentials, delete), publishing a set from its page, the plan, Approve, the status the
 * page's script polls; and that none of it opens to another account or to a form without its token.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/dashboard/html.ts';
import { PageClient } from '../support/dashboard.ts';
import { ASC_APP, dashboardPublishing, succeededJob, type DashboardPublishing } from './publishing-support.ts';

let p: DashboardPublishing;
let c: PageClient;
let accountId: string;

beforeEach(async () => {
  p = await dashboardPublishing();
  c = await new PageClient(p.h.app).signUp('owner@example.com');
  accountId = (await p.h.t.pool.query(`SELECT account_id FROM users WHERE email = 'owner@example.com'`)).rows[0].account_id;
});
afterEach(async () => p.close());

async function connectAppStore(client = c, key = p.ascKey): Promise<string> {
  await client.get('/connections');
  const res = await client.postFiles(
    '/connections/app-store',
    { issuerId: key.issuerId, keyId: key.keyId, privateKey: key.privateKeyPem },
    [],
  );
  expect(res.statusCode, res.body).toBe(303);
  return /added=(sc_[0-9A-Z]{26})/.exec(String(res.headers.location))![1];
}

/** POST a form as it is sent from `from` (the page whose CSRF token it carries). */
async function send(
  from: string,
  url: string,
  fields: Record<string, string | null> = {},
  client = c,
  headers: Record<string, string> = {},
) {
  await client.get(from);
  return client.post(url, fields, headers);
}

const pubIdOf = (location: unknown) => /^\/publications\/(pub_[0-9A-Z]{26})$/.exec(String(location))![1];

describe('store connections', () => {
  it('adds an App Store key pasted and a Play key file uploaded, lists them without secrets, and deletes one after asking', async () => {
    const sc = await connectAppStore();
    const added = await c.get(`/connections?added=${sc}`);
    expect(added.body).toContain('Connected');
    await c.postFiles('/connections/google-play', {}, [
      { field: 'serviceAccountFile', name: 'key.json', type: 'application/json', bytes: Buffer.from(JSON.stringify(p.serviceAccount)) },
    ]);
    expect(c.last!.statusCode, c.last!.body).toBe(303);
    const list = await c.get('/connections');
    expect(list.body).toContain(p.ascKey.keyId);
    expect(list.body).toContain(escapeHtml(p.serviceAccount.client_email));
    // Neither secret, nor any part of one, is ever on a page.
    for (const secret of [p.ascKey.privateKeyPem, p.serviceAccount.private_key])
      expect(list.body).not.toContain(secret.split('\n')[1].slice(0, 40));
    expect(list.body).not.toContain('PRIVATE KEY-----\n');
    const { rows } = await p.h.t.pool.query(`SELECT secret FROM store_connections`);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.secret).join()).not.toContain('PRIVATE KEY');

    const confirm = await c.get(`/connections/${sc}/delete`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Delete connection');
    expect((await c.post(`/connections/${sc}/delete`, {})).statusCode).toBe(303);

    const after = await c.get('/connections');
    expect(after.body).not.toContain(p.ascKey.keyId);
    expect(after.body).toContain(escapeHtml(p.serviceAccount.client_email));
  });

  it('offers the App Store upload path (screenshot sets by default, or the App Asset Library) and shows which one a key uses', async () => {
    const form = await c.get('/connections');
    expect(form.body).toMatch(/<input type="radio" name="appStoreUpload" value="screenshot-sets"\s+checked/);
    expect(form.body).toContain('value="asset-library"');
    const library = await c.postFiles(
      '/connections/app-store',
      { issuerId: p.ascKey.issuerId, keyId: p.ascKey.keyId, privateKey: p.ascKey.privateKeyPem, appStoreUpload: 'asset-library' },
      [],
    );
    expect(library.statusCode, library.body).toBe(303);
    const sets = await connectAppStore();
    const { rows } = await p.h.t.pool.query(`SELECT id, app_store_upload FROM store_connections ORDER BY created_at`);
    expect(rows.map((r) => r.app_store_upload)).toEqual(['asset-library', 'screenshot-sets']);
    expect(rows[1].id).toBe(sets);
    const list = await c.get('/connections');
    expect(list.body).toContain('uploads to App Asset Library');
    expect(list.body).toContain('uploads to Screenshot sets');

    // A value the form does not offer is refused, the choice kept, nothing stored.
    const odd = await c.postFiles(
      '/connections/app-store',
      { issuerId: p.ascKey.issuerId, keyId: p.ascKey.keyId, privateKey: p.ascKey.privateKeyPem, appStoreUpload: 'ftp' },
      [],
    );
    expect(odd.statusCode).toBe(400);
    expect(odd.body).toContain('Choose Screenshot sets or App Asset Library');
    expect((await p.h.t.pool.query(`SELECT count(*)::int AS n FROM store_connections`)).rows[0].n).toBe(2);
  });

  it('says what is wrong with a form, and what the store said, without storing anything or echoing the key', async () => {
    await c.get('/connections');
    const empty = await c.postFiles('/connections/app-store', { issuerId: '', keyId: 'K1', privateKey: '' }, []);
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Enter the issuer ID');
    expect(empty.body).toContain('Choose the .p8 file');
    expect(empty.body).toContain('value="K1"');

    const badPem = await c.postFiles('/connections/app-store', { issuerId: 'i', keyId: 'K1', privateKey: 'not a key' }, []);
    expect(badPem.statusCode).toBe(400);
    expect(badPem.body).toContain('must be the .p8 file');
    expect(badPem.body).toContain('aria-invalid="true"');

    // A key the store does not know: refused by the store itself.
    p.asc.removeKey(p.ascKey.keyId);
    const refused = await c.postFiles(
      '/connections/app-store',
      { issuerId: p.ascKey.issuerId, keyId: p.ascKey.keyId, privateKey: p.ascKey.privateKeyPem },
      [],
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(/refused these credentials/);
    expect(refused.body).not.toContain(p.ascKey.privateKeyPem.split('\n')[1]);

    const huge = await c.postFiles('/connections/app-store', { issuerId: 'i', keyId: 'K1' }, [
      { field: 'privateKeyFile', name: 'AuthKey.p8', type: 'application/octet-stream', bytes: Buffer.alloc(20_000, 65) },
    ]);
    expect(huge.statusCode).toBe(400);
    expect(huge.body).toContain('far longer than a .p8 key file');

    const notJson = await c.postFiles('/connections/google-play', { serviceAccount: '{ nope' }, []);
    expect(notJson.statusCode).toBe(400);
    expect(notJson.body).toContain('not a JSON key file');
    const noEmail = await c.postFiles(
      '/connections/google-play',
      { serviceAccount: JSON.stringify({ ...p.serviceAccount, client_email: '' }) },
      [],
    );
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.body).toContain('client_email is required');
    expect((await p.h.t.pool.query(`SELECT count(*)::int AS n FROM store_connections`)).rows[0].n).toBe(0);
  });

  it('asks a signed-out visitor to sign in', async () => {
    const res = await new PageClient(p.h.app).get('/connections');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/sign-in?next=%2Fconnections');
  });
});

describe('publishing a set', () => {
  it('from the set: pick a connection, read the plan with the slides, approve, and see it published', async () => {
    const sc = await connectAppStore();
    const job = await succeededJob(p, { device: 'iphone-69', seeds: [1, 2, 3], accountId });
    const form = await c.get(`/sets/${job}/publish`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain(`value="${sc}"`);
    const created = await send(`/sets/${job}/publish`, `/sets/${job}/publish`, { connectionId: sc });
    expect(created.statusCode, created.body).toBe(303);
    const pub = pubIdOf(created.headers.location);

    const planning = await c.get(`/publications/${pub}`);
    expect(planning.body).toContain('Planning');
    expect(planning.body).toContain(`data-publication="/publications/${pub}/status"`);
    expect(planning.body).toContain(`href="/publications/${pub}">refresh it</a>`);
    expect(planning.body).not.toContain('Approve and publish');

    await p.drain();
    const planned = await c.get(`/publications/${pub}`);
    expect(planned.body).toContain('Waiting for your approval');
    expect(planned.body).toContain('en-US · iPhone 6.9″ and 6.7″');
    expect(planned.body.match(/class="action upload"/g)).toHaveLength(3);
    // Thumbnails: the set's own slides, through the API's signed URLs.
    const thumbs = [...planned.body.matchAll(/<img class="thumb" src="([^"]+)"/g)].map((m) => m[1].replaceAll('&amp;', '&'));
    expect(thumbs).toHaveLength(3);
    const picture = await p.h.app.inject({ url: thumbs[0] });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/png');
    // Nothing polls while waiting for a decision.
    expect(planned.body).not.toContain('data-publication=');

    const status = await c.get(`/publications/${pub}/status`);
    expect(status.json()).toMatchObject({ status: 'awaiting_approval', progress: { done: 0, total: 3 } });
    expect(status.json().items.map((i: { label: string }) => i.label)).toEqual(['Not started', 'Not started', 'Not started']);

    const approved = await send(`/publications/${pub}`, `/publications/${pub}/approve`);
    expect(approved.statusCode).toBe(303);
    expect(approved.headers.location).toBe(`/publications/${pub}`);
    expect((await c.get(`/publications/${pub}/status`)).json()).toMatchObject({ status: 'applying', label: 'Publishing' });
    // Approving again (a second click, a resubmitted form) changes nothing.
    expect((await send(`/publications/${pub}`, `/publications/${pub}/approve`)).statusCode).toBe(303);
    expect(p.queued).toEqual([pub]);

    await p.drain();
    const done = await c.get(`/publications/${pub}`);
    expect(done.body).toContain('Published');
    expect(done.body.match(/data-state="done"/g)).toHaveLength(3);
    expect((await c.get(`/publications/${pub}/status`)).json().progress).toMatchObject({ done: 3, total: 3 });
    expect(p.asc.screenshots(ASC_APP, 'en-US', 'APP_IPHONE_67')).toHaveLength(3);

    // Published again: everything kept, and the set's page lists both.
    const again = pubIdOf((await send(`/sets/${job}/publish`, `/sets/${job}/publish`, { connectionId: sc })).headers.location);
    await p.drain();
    const second = await c.get(`/publications/${again}`);
    expect(second.body.match(/class="action keep"/g)).toHaveLength(3);
    expect(second.body).toContain('0 uploads, 0 moves, 0 deletions');
    const listed = await c.get(`/sets/${job}/publish`);
    expect(listed.body).toContain(`href="/publications/${pub}"`);
    expect(listed.body).toContain(`href="/publications/${again}"`);

    // An edited set: two slides swapped, one new, one left over on the store.
    const edited = await succeededJob(p, { device: 'iphone-69', seeds: [2, 1, 9], accountId });
    const third = pubIdOf((await send(`/sets/${edited}/publish`, `/sets/${edited}/publish`, { connectionId: sc })).headers.location);
    await p.drain();
    const changed = (await c.get(`/publications/${third}`)).body;
    expect(changed).toContain('1 upload, 2 moves, 1 deletion');
    expect(changed.match(/class="action (\w+)"/g)).toEqual([
      'class="action reorder"',
      'class="action reorder"',
      'class="action upload"',
      'class="action delete"',
    ]);
    expect(changed).toContain('Image now on the store');
  });

  it('refuses what cannot be published, saying why', async () => {
    const job = await succeededJob(p, { device: 'iphone-69', seeds: [1], accountId });
    const none = await c.get(`/sets/${job}/publish`);
    expect(none.body).toContain('there is no App Store Connect connection yet');
    expect(none.body).toContain('href="/connections"');

    await c.get('/connections');
    await c.postFiles('/connections/google-play', { serviceAccount: JSON.stringify(p.serviceAccount) }, []);
    expect(c.last!.statusCode, c.last!.body).toBe(303);
    const play = (await p.h.t.pool.query(`SELECT id FROM store_connections`)).rows[0].id;
    await c.get(`/sets/${job}/publish`);
    const wrongStore = await c.post(`/sets/${job}/publish`, { connectionId: play });
    expect(wrongStore.statusCode).toBe(400);
    expect(wrongStore.body).toContain('is a google-play connection');

    const sc = await connectAppStore();
    const pub = pubIdOf((await send(`/sets/${job}/publish`, `/sets/${job}/publish`, { connectionId: sc })).headers.location);
    // Still planning: there is nothing to approve yet.
    const early = await send(`/publications/${pub}`, `/publications/${pub}/approve`);
    expect(early.statusCode).toBe(409);
    expect(early.body).toContain('not ready yet');

    // A store that will not take screenshots now: the page says why, offers nothing to approve, and stops polling.
    await p.drain();
    p.asc.setVersionState(ASC_APP, 'WAITING_FOR_REVIEW');
    const refusedPub = pubIdOf((await send(`/sets/${job}/publish`, `/sets/${job}/publish`, { connectionId: sc })).headers.location);
    await p.drain();
    const failed = await c.get(`/publications/${refusedPub}`);
    expect(failed.body).toContain('badge failed');
    expect(failed.body).toMatch(/no iOS version whose screenshots can be edited/);
    expect(failed.body).not.toContain('Approve and publish');
    expect(failed.body).not.toContain('data-publication=');
  });
});

describe('security', () => {
  it('another account’s connection, set and publication are 404 on every page and action', async () => {
    const sc = await connectAppStore();
    const job = await succeededJob(p, { device: 'iphone-69', seeds: [1, 2], accountId });
    const pub = pubIdOf((await send(`/sets/${job}/publish`, `/sets/${job}/publish`, { connectionId: sc })).headers.location);
    await p.drain();

    const other = await new PageClient(p.h.app).signUp('other@example.com');
    for (const url of [`/connections/${sc}/delete`, `/publications/${pub}`, `/publications/${pub}/status`, `/sets/${job}/publish`]) {
      const res = await other.get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain(p.ascKey.keyId);
    }
    expect((await send('/connections', `/connections/${sc}/delete`, {}, other)).statusCode).toBe(404);
    expect((await send('/connections', `/publications/${pub}/approve`, {}, other)).statusCode).toBe(404);
    expect((await send('/connections', `/sets/${job}/publish`, { connectionId: sc }, other)).statusCode).toBe(404);
    // Their own set with the first account's connection: as if it did not exist.
    const otherId = (await p.h.t.pool.query(`SELECT account_id FROM users WHERE email = 'other@example.com'`)).rows[0].account_id;
    const theirJob = await succeededJob(p, { device: 'iphone-69', seeds: [7], accountId: otherId });
    await other.get(`/sets/${theirJob}/publish`);
    const borrowed = await other.post(`/sets/${theirJob}/publish`, { connectionId: sc });
    expect(borrowed.statusCode).toBe(404);
    expect(borrowed.body).toContain(`No store connection ${sc} on this account`);

    const { rows } = await p.h.t.pool.query(`SELECT status, (SELECT count(*)::int FROM store_connections) AS n FROM publications`);
    expect(rows).toEqual([{ status: 'awaiting_approval', n: 1 }]);
  });

  it('refuses every publishing form without its CSRF token', async () => {
    const sc = await connectAppStore();
    const job = await succeededJob(p, { device: 'iphone-69', seeds: [1], accountId });
    const pub = pubIdOf((await send(`/sets/${job}/publish`, `/sets/${job}/publish`, { connectionId: sc })).headers.location);
    await p.drain();
    await c.get('/connections');
    const forged = await c.postFiles(
      '/connections/app-store',
      { _csrf: null, issuerId: p.ascKey.issuerId, keyId: p.ascKey.keyId, privateKey: p.ascKey.privateKeyPem },
      [],
    );
    expect(forged.statusCode).toBe(403);
    for (const url of [`/publications/${pub}/approve`, `/connections/${sc}/delete`, `/sets/${job}/publish`]) {
      const res = await c.post(url, { _csrf: null, connectionId: sc });
      expect(res.statusCode, url).toBe(403);
      expect(res.body).toContain('Form expired');
    }
    const crossSite = await send(`/publications/${pub}`, `/publications/${pub}/approve`, {}, c, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    const { rows } = await p.h.t.pool.query(
      `SELECT (SELECT count(*)::int FROM store_connections) AS connections, (SELECT count(*)::int FROM publications) AS publications,
         (SELECT status FROM publications) AS status`,
    );
    expect(rows[0]).toEqual({ connections: 1, publications: 1, status: 'awaiting_approval' });
  });
});
