import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queuePublicationStep } from '../../src/tasks/publication-step.ts';
import { Tasks } from '../../src/tasks/runner.ts';
import { until } from '../support/jobs.ts';
import { md5, png, sha256 } from '../fake-stores/helpers.ts';
import { ASC_APP, connectAppStore, PLAY_PACKAGE, type PublishingHarness, succeededJob, publishingHarness } from './support.ts';
import { scaled } from '../support/timing.ts';

const CHILD = path.resolve(import.meta.dirname, 'worker-child.mjs');

let p: PublishingHarness;
let tasks: Tasks;
const children: ChildProcess[] = [];
beforeEach(async () => {
  p = await publishingHarness();
  tasks = await Tasks.start({
    connectionString: p.h.t.url,
    leaseSeconds: 2,
    retryLimit: 30,
    // A store failure's backoff, an hour here: a dead worker's step must not wait for it.
    retryDelaySeconds: 3600,
    pollingIntervalSeconds: 0.5,
    maintenanceIntervalSeconds: 1,
  });
});
afterEach(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await tasks.stop(0);
  await p.close();
});

/**
 * A worker process, started now but held until `go()`: the next one loads while the one before it
 * runs, so each kill is followed by a fresh process without waiting for its start.
 */
function startWorker(env: Record<string, string> = {}): { go: () => ChildProcess } {
  const key = (p.keyring as unknown as { current: Buffer }).current.toString('base64');
  const child = spawn(process.execPath, [CHILD], {
    env: {
      ...process.env,
      DB_URL: p.h.t.url,
      OBJECTS_DIR: p.objectsDir,
      ASC_URL: p.asc.url,
      PLAY_URL: p.play.url,
      SECRETS_KEY: key,
      HOLD: '1',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  return { go: () => (child.stdin!.write('go\n'), child) };
}

/**
 * The killed worker's lease, ended now rather than in up to 2 s: the Google Play test below waits a
 * real lease out (renewals stop with the process); the tests that kill at every step would wait
 * it out eight times more. pg-boss's maintenance still has to find the task and retry it.
 */
async function endLease(): Promise<void> {
  const { rowCount } = await p.h.t.pool.query(
    `UPDATE pgboss.job SET started_on = now() - expire_in - interval '1 second' WHERE name = 'publication-advance' AND state = 'active'`,
  );
  expect(rowCount, 'the killed worker’s task is active').toBe(1);
}

describe('a publishing worker killed at each step of an App Store upload', () => {
  it('resumes after its lease and leaves exactly the set, in order, with no duplicate', { timeout: scaled(120_000) }, async () => {
    // The first worker loads while the set is made and rendered (it takes no task until `go`), so no
    // process start waits in front of the first step.
    let next = startWorker();
    const sc = await connectAppStore(p);
    const job = await succeededJob(p, { device: 'iphone-69', seeds: [1, 2, 3] });
    const id = (await p.post('/publications', { jobId: job, connectionId: sc })).json().id;
    await p.drain();
    p.asc.setProcessingDelayMs(400);
    p.h.services.publishing!.advance = (pubId) => queuePublicationStep(tasks, pubId);
    expect((await p.post(`/publications/${id}/approve`)).statusCode).toBe(202);

    // Each step of an upload, in the order a run meets them. The fake does the step's work and holds
    // its answer; the worker is killed while it waits, so the store changed and PostgreSQL never heard
    // of it: the worst moment, made certain rather than left to timing.
    const steps: [string, string, RegExp][] = [
      ['reserve', 'POST', /^\/v1\/appScreenshots$/],
      ['upload part', 'PUT', /^\/upload\//],
      ['commit', 'PATCH', /^\/v1\/appScreenshots\/[^/?]+$/],
      ['poll', 'GET', /^\/v1\/appScreenshots\/[^/?]+(\?|$)/],
    ];
    for (const [step, method, path] of steps) {
      const held = p.asc.hold({ method, path });
      const child = next.go();
      next = startWorker();
      await Promise.race([
        held.reached,
        new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before the ${step}`)))),
      ]);
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      await endLease();
      // The exit can be seen before the fake's end of the connection closes; answered in between,
      // the reservation counted as delivered (seen twice under load).
      await held.clientGone;
      held.release();
    }
    next.go();
    const done = await until(
      async () => {
        const pub = (await p.get(`/publications/${id}`)).json();
        return pub.status === 'published' || pub.status === 'failed' ? pub : null;
      },
      60_000,
      100,
    );
    expect(done.status, JSON.stringify(done.error)).toBe('published');
    const shots = p.asc.screenshots(ASC_APP, 'en-US', 'APP_IPHONE_67');
    expect(shots.map((s) => s.sourceFileChecksum)).toEqual(await Promise.all([1, 2, 3].map(async (s) => md5(await png(s)))));
    expect(shots.every((s) => s.assetDeliveryState === 'COMPLETE')).toBe(true);
    // Each step was cut at its answer, and the kill of the reservation left one behind that the next
    // worker found by its name and removed; no other reservation was made twice.
    const reservations = p.asc.calls.filter((c) => c.method === 'POST' && c.path === '/v1/appScreenshots');
    expect(reservations.map((c) => c.status)).toEqual([0, 201, 201, 201]);
    expect(p.asc.calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });
});

describe('a publishing worker killed in the middle of a Google Play upload', () => {
  it('has its step taken by another worker right after the lease, not after the backoff', { timeout: scaled(90_000) }, async () => {
    // Store failures would wait an hour here (RETRY_DELAY_SECONDS, and the queue's own retry before
    // leases): only a dead worker's retry that is owed at once lets this publication finish.
    const slow = { LEASE_SECONDS: '2', RETRY_DELAY_SECONDS: '3600' };
    const first = startWorker(slow);
    const second = startWorker(slow);
    const sc = await p.post('/store-connections', { store: 'google-play', serviceAccount: p.serviceAccount });
    expect(sc.statusCode, sc.body).toBe(201);
    const job = await succeededJob(p, { device: 'android-phone', seeds: [1, 2, 3] });
    const id = (await p.post('/publications', { jobId: job, connectionId: sc.json().id })).json().id;
    await p.drain();
    p.h.services.publishing!.advance = (pubId) => queuePublicationStep(tasks, pubId);
    expect((await p.post(`/publications/${id}/approve`)).statusCode).toBe(202);

    // The first upload is made in the edit; its worker is killed before it hears so.
    const held = p.play.hold({ method: 'POST', path: /^\/upload\// });
    const child = first.go();
    await Promise.race([
      held.reached,
      new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before the upload`)))),
    ]);
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    await held.clientGone;
    held.release();
    const killedAt = Date.now();
    // The held upload is recorded as unanswered once released; the other worker's calls follow it.
    await until(async () => p.play.calls.some((c) => c.path.startsWith('/upload/') && c.status === 0), 10_000);
    const callsAtKill = p.play.calls.length;
    second.go();
    // The other worker's first store call: the step resumed.
    await until(async () => p.play.calls.length > callsAtKill, 60_000, 50);
    const resumedAfterMs = Date.now() - killedAt;
    const done = await until(
      async () => {
        const pub = (await p.get(`/publications/${id}`)).json();
        return pub.status === 'published' || pub.status === 'failed' ? pub : null;
      },
      60_000,
      100,
    );
    expect(done.status, JSON.stringify(done.error)).toBe('published');
    // The 2 s lease, maintenance (every second, or two) and a half-second poll; the rest is load.
    expect(resumedAfterMs, `resumed ${resumedAfterMs} ms after the kill`).toBeLessThan(scaled(15_000));
    // pg-boss retried the task once, for the dead worker; no store failure was counted. The task is
    // marked completed after its handler returns, which can be after the status poll saw the end.
    const rows = await until(async () => {
      const { rows } = await p.h.t.pool.query<{ retry_count: number; data: object }>(
        `SELECT retry_count, data FROM pgboss.job WHERE name = 'publication-advance' AND singleton_key = $1 AND state = 'completed'`,
        [id],
      );
      return rows.length ? rows : null;
    }, 10_000);
    expect(rows).toEqual([{ retry_count: 1, data: { publicationId: id } }]);
    // The upload whose answer was lost was in an edit nothing had recorded: dropped (as a new edit
    // drops it on Play) and made again in the next; the listing holds each image once.
    const live = p.play.images(PLAY_PACKAGE, 'en-US', 'phoneScreenshots').map((i) => i.sha256);
    expect(live).toEqual(await Promise.all([1, 2, 3].map(async (s) => sha256(await png(s)))));
    expect(p.play.calls.filter((c) => c.path.startsWith('/upload/')).map((c) => c.status)).toEqual([0, 200, 200, 200]);
    expect(p.play.openEdits(PLAY_PACKAGE)).toEqual([]);
  });
});

describe('a publishing worker killed at each creation of a variant', () => {
  it('finds what the killed worker made: one test, one treatment, one localization, one page', { timeout: scaled(150_000) }, async () => {
    let next = startWorker();
    p.asc.setVersionState(ASC_APP, 'READY_FOR_SALE');
    const sc = await connectAppStore(p);
    const job = await succeededJob(p, { device: 'iphone-69', seeds: [1, 2] });
    const targets = [
      { kind: 'experiment-treatment', experiment: { name: 'Spring' }, treatment: 'B' },
      { kind: 'custom-product-page', name: 'Students' },
    ];
    const ids: string[] = [];
    for (const target of targets) ids.push((await p.post('/publications', { jobId: job, connectionId: sc, target })).json().id);
    await p.drain();
    p.h.services.publishing!.advance = (pubId) => queuePublicationStep(tasks, pubId);

    // Every creation a variant needs, each cut at its answer: the store made it, the worker never heard.
    const steps: [string, number, string, RegExp][] = [
      ['test', 0, 'POST', /^\/v2\/appStoreVersionExperiments$/],
      ['treatment', 0, 'POST', /^\/v1\/appStoreVersionExperimentTreatments$/],
      ['treatment localization', 0, 'POST', /^\/v1\/appStoreVersionExperimentTreatmentLocalizations$/],
      ['page', 1, 'POST', /^\/v1\/appCustomProductPages$/],
    ];
    const finished = async (id: string) =>
      until(
        async () => {
          const pub = (await p.get(`/publications/${id}`)).json();
          return pub.status === 'published' || pub.status === 'failed' ? pub : null;
        },
        60_000,
        100,
      );
    let approved = -1;
    for (const [step, which, method, path] of steps) {
      if (which !== approved) {
        if (approved >= 0) {
          // A worker finishes the publication before; it stops then, so the next one meets the hold.
          const finishing = next.go();
          next = startWorker();
          expect((await finished(ids[approved])).status).toBe('published');
          const stopped = new Promise((r) => finishing.once('exit', r));
          finishing.kill('SIGKILL');
          await stopped;
        }
        expect((await p.post(`/publications/${ids[which]}/approve`)).statusCode).toBe(202);
        approved = which;
      }
      const held = p.asc.hold({ method, path });
      const child = next.go();
      next = startWorker();
      await Promise.race([
        held.reached,
        new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`the worker exited (${code}) before the ${step}`)))),
      ]);
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      await endLease();
      await held.clientGone;
      held.release();
    }
    next.go();
    const done = await finished(ids[1]);
    expect(done.status, JSON.stringify(done.error)).toBe('published');
    const sums = await Promise.all([1, 2].map(async (s) => md5(await png(s))));
    const [test] = p.asc.experiments(ASC_APP);
    expect(p.asc.experiments(ASC_APP)).toHaveLength(1);
    expect(test.treatments.map((t) => [t.name, t.localizations.length])).toEqual([['B', 1]]);
    expect(p.asc.localizationScreenshots(test.treatments[0].localizations[0].id, 'APP_IPHONE_67').map((x) => x.sourceFileChecksum)).toEqual(
      sums,
    );
    const pages = p.asc.customProductPages(ASC_APP);
    expect(pages.map((x) => [x.name, x.versions.length, x.versions[0].localizations.length])).toEqual([['Students', 1, 1]]);
    expect(
      p.asc.localizationScreenshots(pages[0].versions[0].localizations[0].id, 'APP_IPHONE_67').map((x) => x.sourceFileChecksum),
    ).toEqual(sums);
  });
});
