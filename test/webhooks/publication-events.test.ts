/**
 * publication.published and publication.failed: one signed delivery per subscribed endpoint when a
 * publication reaches its final status, carrying the publication as GET shows it.
 */
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setStatus } from '../../src/publishing/publications.ts';
import { DEFAULT_TASK_SETTINGS, Tasks } from '../../src/tasks/runner.ts';
import { WebhookDispatcher } from '../../src/webhooks/dispatcher.ts';
import { createEndpoint } from '../../src/webhooks/endpoints.ts';
import { ASC_APP, publishingHarness, succeededJob, type PublishingHarness } from '../publishing/support.ts';
import { accountWithKey } from '../support/fixtures.ts';
import { until } from '../support/jobs.ts';
import { deliveryRows, startReceiver, type Receiver } from './support.ts';

const OPEN = { allowHttp: true, allowPrivate: true };

let p: PublishingHarness;
let receiver: Receiver;
let dispatcher: WebhookDispatcher;
let tasks: Tasks;
beforeEach(async () => {
  p = await publishingHarness();
  p.h.services.config.webhooks = OPEN;
  receiver = await startReceiver();
  tasks = await Tasks.start({ ...DEFAULT_TASK_SETTINGS, connectionString: p.h.t.url, pollingIntervalSeconds: 0.5 });
  dispatcher = new WebhookDispatcher(p.h.t.pool, tasks, {
    ...OPEN,
    readJob: async () => null,
    keyring: p.keyring,
    pollIntervalMs: 500,
    retryDelaysMs: [50],
  });
  await dispatcher.start();
});
afterEach(async () => {
  await tasks.stop(0);
  await receiver.close();
  await p.close();
});

async function endpoint(path: string, events?: string[]): Promise<string> {
  const res = await p.post('/webhooks', { url: receiver.url.replace('/hooks', path), ...(events ? { events } : {}) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().secret;
}

async function publication(): Promise<{ id: string; jobId: string; connectionId: string }> {
  const sc = await p.post('/store-connections', {
    store: 'app-store',
    issuerId: p.ascKey.issuerId,
    keyId: p.ascKey.keyId,
    privateKey: p.ascKey.privateKeyPem,
  });
  expect(sc.statusCode, sc.body).toBe(201);
  const jobId = await succeededJob(p, { device: 'iphone-69', seeds: [1, 2] });
  const created = await p.post('/publications', { jobId, connectionId: sc.json().id });
  expect(created.statusCode, created.body).toBe(201);
  return { id: created.json().id, jobId, connectionId: sc.json().id };
}

const received = (path: string) => receiver.received.filter((r) => r.path === path);

describe('publication webhook events', () => {
  it('sends publication.published once, signed, with the publication as GET shows it, to the endpoints that asked for it', async () => {
    const secret = await endpoint('/pubs', ['publication.published', 'publication.failed']);
    await endpoint('/jobs', ['job.succeeded', 'job.failed']);
    const everything = await endpoint('/all');
    const pub = await publication();
    await p.drain();
    expect((await p.post(`/publications/${pub.id}/approve`)).statusCode).toBe(202);
    await p.drain();
    const shown = (await p.get(`/publications/${pub.id}`)).json();
    expect(shown.status, JSON.stringify(shown.error)).toBe('published');

    await until(async () => receiver.received.length >= 2, 5_000);
    // A publication already published, run again or set again, announces nothing more.
    p.queued.push(pub.id);
    await p.drain();
    await setStatus(p.h.t.pool, pub.id, 'published');
    await dispatcher.runOnce();
    expect(received('/jobs')).toHaveLength(0);
    expect(received('/pubs')).toHaveLength(1);
    expect(received('/all')).toHaveLength(1);
    expect((await deliveryRows(p.h.t.pool)).map((r) => r.status)).toEqual(['delivered', 'delivered']);

    const body = new Webhook(secret).verify(received('/pubs')[0].body, received('/pubs')[0].headers) as Record<string, unknown>;
    expect(body.type).toBe('publication.published');
    expect(body.data).toEqual(shown);
    expect(body.data).toMatchObject({ id: pub.id, jobId: pub.jobId, connectionId: pub.connectionId, store: 'app-store', error: null });
    // Signed with each endpoint's own secret: the other's does not verify it.
    expect(() => new Webhook(everything).verify(received('/pubs')[0].body, received('/pubs')[0].headers)).toThrow();
    expect(received('/all')[0].headers['webhook-id']).toBe(received('/pubs')[0].headers['webhook-id']);
  });

  it('sends publication.failed with the error once a publication fails', async () => {
    const secret = await endpoint('/pubs', ['publication.failed']);
    const pub = await publication();
    // The store's version is in review: nothing can be planned, the publication fails.
    p.asc.setVersionState(ASC_APP, 'WAITING_FOR_REVIEW');
    await p.drain();
    await until(async () => receiver.received.length >= 1, 5_000);
    await dispatcher.runOnce();
    expect(receiver.received).toHaveLength(1);
    const body = new Webhook(secret).verify(receiver.received[0].body, receiver.received[0].headers) as {
      type: string;
      data: { id: string; status: string; error: { code: string; message: string } };
    };
    expect(body.type).toBe('publication.failed');
    expect(body.data).toMatchObject({ id: pub.id, status: 'failed', error: { code: 'store_refused' } });
    expect(body.data.error.message).toMatch(/WAITING_FOR_REVIEW/);
  });

  it('refuses an event name it does not know, and keeps publication events from another account', async () => {
    const res = await p.post('/webhooks', { url: receiver.url, events: ['publication.started'] });
    expect(res.statusCode).toBe(400);
    const other = await accountWithKey(p.h.t.pool, 'free', 'Other');
    await createEndpoint(p.h.t.pool, other.account.id, { url: receiver.url }, OPEN, p.keyring);
    const pub = await publication();
    p.asc.setVersionState(ASC_APP, 'WAITING_FOR_REVIEW');
    await p.drain();
    expect((await p.get(`/publications/${pub.id}`)).json().status).toBe('failed');
    await dispatcher.runOnce();
    expect(receiver.received).toHaveLength(0);
    expect(await deliveryRows(p.h.t.pool)).toEqual([]);
  });
});
