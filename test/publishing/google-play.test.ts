import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { png, sha256 } from '../fake-stores/helpers.ts';
import { PLAY_PACKAGE, publishingHarness, succeededJob, type PublishingHarness } from './support.ts';

let p: PublishingHarness;
beforeEach(async () => {
  p = await publishingHarness();
});
afterEach(async () => p.close());

async function connect(): Promise<string> {
  const res = await p.post('/store-connections', { store: 'google-play', serviceAccount: p.serviceAccount });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json()).toMatchObject({ store: 'google-play', clientEmail: p.serviceAccount.client_email, keyId: null });
  return res.json().id;
}

async function planned(jobId: string, connectionId: string) {
  const created = await p.post('/publications', { jobId, connectionId, locales: { en: 'en-US' } });
  expect(created.statusCode, created.body).toBe(201);
  await p.drain();
  const pub = (await p.get(`/publications/${created.json().id}`)).json();
  expect(pub.status, JSON.stringify(pub.error)).toBe('awaiting_approval');
  return pub;
}

async function approveAndRun(id: string, opts: { lastAttempt?: boolean } = {}) {
  expect((await p.post(`/publications/${id}/approve`)).statusCode).toBe(202);
  await p.drain(opts);
  return (await p.get(`/publications/${id}`)).json();
}

const live = () => p.play.images(PLAY_PACKAGE, 'en-US', 'phoneScreenshots').map((i) => i.sha256);
const sums = (seeds: number[]) => Promise.all(seeds.map(async (s) => sha256(await png(s))));

describe('publishing to Google Play (fake)', () => {
  it('publishes a 5-slide set in order, republishes nothing, and an edited set changes only what must', async () => {
    const sc = await connect();
    const job = await succeededJob(p, { device: 'android-phone', seeds: [1, 2, 3, 4, 5] });
    const first = await planned(job, sc);
    expect(first.plan).toMatchObject({ upload: 5, keep: 0 });
    const done = await approveAndRun(first.id);
    expect(done.status, JSON.stringify(done.error)).toBe('published');
    expect(live()).toEqual(await sums([1, 2, 3, 4, 5]));

    const again = await planned(job, sc);
    expect(again.plan).toMatchObject({ upload: 0, keep: 5, delete: 0 });
    expect((await approveAndRun(again.id)).status).toBe('published');
    expect(p.play.calls.filter((c) => c.path.includes('/upload/'))).toHaveLength(5);

    // The last slide changed: Play appends, so the first four stay and one is replaced.
    const edited = await succeededJob(p, { device: 'android-phone', seeds: [1, 2, 3, 4, 9] });
    const third = await planned(edited, sc);
    expect(third.plan).toMatchObject({ upload: 1, keep: 4, delete: 1 });
    expect((await approveAndRun(third.id)).status).toBe('published');
    expect(live()).toEqual(await sums([1, 2, 3, 4, 9]));
    expect(p.play.calls.filter((c) => c.path.includes('/upload/'))).toHaveLength(6);
  });

  it("publishes the set's feature graphic beside the screenshots, and again only when it changed", async () => {
    const sc = await connect();
    const graphic = () => p.play.images(PLAY_PACKAGE, 'en-US', 'featureGraphic').map((i) => i.sha256);
    const first = await planned(await succeededJob(p, { device: 'android-phone', seeds: [1, 2], featureGraphic: 30 }), sc);
    expect(first.plan).toMatchObject({ upload: 3 });
    expect(first.plan.items.filter((i: { slot: string }) => i.slot === 'featureGraphic')).toHaveLength(1);
    expect((await approveAndRun(first.id)).status).toBe('published');
    expect(graphic()).toEqual([sha256(await png(30, 128, 64))]);
    expect(live()).toEqual(await sums([1, 2]));

    const same = await planned(await succeededJob(p, { device: 'android-phone', seeds: [1, 2], featureGraphic: 30 }), sc);
    expect(same.plan).toMatchObject({ upload: 0, keep: 3 });
    const changed = await planned(await succeededJob(p, { device: 'android-phone', seeds: [1, 2], featureGraphic: 31 }), sc);
    expect(changed.plan).toMatchObject({ upload: 1, delete: 1, keep: 2 });
    expect((await approveAndRun(changed.id)).status).toBe('published');
    expect(graphic()).toEqual([sha256(await png(31, 128, 64))]);
    expect(live()).toEqual(await sums([1, 2]));
  });

  it('publishes each locale’s feature graphic to its own language, and republishing uploads nothing', async () => {
    const sc = await connect();
    const graphic = (language: string) => p.play.images(PLAY_PACKAGE, language, 'featureGraphic').map((i) => i.sha256);
    const twoLocales = () =>
      succeededJob(p, {
        device: 'android-phone',
        locales: ['en-US', 'de-DE'],
        seeds: [1, 2],
        featureGraphic: { 'en-US': 40, 'de-DE': 41 },
      });
    const publish = async (jobId: string) => {
      const created = await p.post('/publications', { jobId, connectionId: sc });
      expect(created.statusCode, created.body).toBe(201);
      await p.drain();
      return (await p.get(`/publications/${created.json().id}`)).json();
    };
    const first = await publish(await twoLocales());
    expect(first.status, JSON.stringify(first.error)).toBe('awaiting_approval');
    const graphics = first.plan.items.filter((i: { slot: string }) => i.slot === 'featureGraphic');
    expect(graphics.map((i: { locale: string; file: string }) => [i.locale, i.file]).sort()).toEqual([
      ['de-DE', 'locales/de-DE/feature-graphic.png'],
      ['en-US', 'feature-graphic.png'],
    ]);
    expect(first.plan).toMatchObject({ upload: 6 });
    expect((await approveAndRun(first.id)).status).toBe('published');
    expect(graphic('en-US')).toEqual([sha256(await png(40, 128, 64))]);
    expect(graphic('de-DE')).toEqual([sha256(await png(41, 128, 64))]);

    const again = await publish(await twoLocales());
    expect(again.plan).toMatchObject({ upload: 0, keep: 6, delete: 0 });
  });

  it('a review in progress fails the publication, cancels no review and leaves the live listing as it was', async () => {
    const sc = await connect();
    p.play.seedImages(PLAY_PACKAGE, 'en-US', 'phoneScreenshots', [await png(7), await png(8)]);
    const job = await succeededJob(p, { device: 'android-phone', seeds: [1, 2] });
    const pub = await planned(job, sc);
    expect(pub.plan).toMatchObject({ upload: 2, delete: 2 });
    p.play.setInReview(PLAY_PACKAGE, true);
    const done = await approveAndRun(pub.id);
    expect(done.status).toBe('failed');
    expect(done.error.message).toMatch(/Google Play refused edits.commit/);
    expect(live()).toEqual(await sums([7, 8]));
    expect(p.play.reviewsCancelled(PLAY_PACKAGE)).toBe(0);
    // The commit asked Play to refuse rather than cancel the review, and the edit was dropped.
    expect(
      p.play.calls.filter((c) => c.path.includes(':commit')).every((c) => c.path.includes('changesInReviewBehavior=ERROR_IF_IN_REVIEW')),
    ).toBe(true);
    expect(p.play.openEdits(PLAY_PACKAGE)).toEqual([]);
  });

  it('a commit whose answer was lost is retried, told the edit was already committed, and published and verified', async () => {
    const sc = await connect();
    const pub = await planned(await succeededJob(p, { device: 'android-phone', seeds: [1, 2, 3] }), sc);
    // Play commits the edit, and the answer is lost on the way (a 503 after the work).
    p.play.fail({ method: 'POST', path: /:commit/, status: 503, after: true });
    const done = await approveAndRun(pub.id);
    expect(done.status, JSON.stringify(done.error)).toBe('published');
    expect(live()).toEqual(await sums([1, 2, 3]));
    // The retry was told "This edit has already been successfully committed" (400).
    const commits = p.play.calls.filter((c) => c.path.includes(':commit'));
    expect(commits.map((c) => c.status)).toEqual([503, 400]);
    // Verify read the slot back after it.
    const after = p.play.calls.slice(p.play.calls.lastIndexOf(commits[1]) + 1);
    expect(after.some((c) => c.method === 'GET' && c.path.includes('/listings/en-US/phoneScreenshots'))).toBe(true);
    expect(p.play.calls.filter((c) => c.path.startsWith('/upload/'))).toHaveLength(3);
    expect(p.play.openEdits(PLAY_PACKAGE)).toEqual([]);
  });

  it("maps a set's locale to the app's listing of its language: no new `en` listing beside `en-US`", async () => {
    const sc = await connect();
    // The sample listing is in `en`; the app's listings are en-US, de-DE and fr-FR.
    const publish = async (jobId: string) => {
      const created = await p.post('/publications', { jobId, connectionId: sc });
      expect(created.statusCode, created.body).toBe(201);
      await p.drain();
      return (await p.get(`/publications/${created.json().id}`)).json();
    };
    const pub = await publish(await succeededJob(p, { device: 'android-phone', seeds: [1, 2], featureGraphic: 30 }));
    expect(pub.status, JSON.stringify(pub.error)).toBe('awaiting_approval');
    expect(pub.locales).toEqual({ en: 'en-US' });
    expect([...new Set(pub.plan.items.map((i: { locale: string }) => i.locale))]).toEqual(['en-US']);
    expect((await approveAndRun(pub.id)).status).toBe('published');
    expect(live()).toEqual(await sums([1, 2]));
    expect(p.play.images(PLAY_PACKAGE, 'en-US', 'featureGraphic')).toHaveLength(1);
    expect(p.play.listings(PLAY_PACKAGE)).toEqual(['en-US', 'de-DE', 'fr-FR']);
    expect(p.play.images(PLAY_PACKAGE, 'en', 'phoneScreenshots')).toEqual([]);

    // A region the app has no listing for goes to its language's; the same name wins over that.
    const regional = await publish(await succeededJob(p, { device: 'android-phone', locales: ['en-GB', 'de-DE'], seeds: [1, 2] }));
    expect(regional.locales).toEqual({ 'en-GB': 'en-US', 'de-DE': 'de-DE' });
    // A language the app has no listing in is refused, naming the listings it has.
    const japanese = await publish(await succeededJob(p, { device: 'android-phone', locales: ['ja'], seeds: [1] }));
    expect(japanese.status).toBe('failed');
    expect(japanese.error.message).toMatch(/no localization for ja \(it has en-US, de-DE, fr-FR\)/);
    // Two set locales for one listing: the user picks which.
    const twins = await publish(await succeededJob(p, { device: 'android-phone', locales: ['en-GB', 'en-AU'], seeds: [1] }));
    expect(twins.status).toBe('failed');
    expect(twins.error.message).toMatch(/en-GB and en-AU would both go to the store's en-US/);
  });

  it('an expired edit is replaced by a new one on the next run, without duplicates', async () => {
    const sc = await connect();
    const job = await succeededJob(p, { device: 'android-phone', seeds: [1, 2, 3] });
    const pub = await planned(job, sc);
    // The commit fails with 503 past the retries (4 tries): the run stops with its edit open...
    p.play.fail({ method: 'POST', path: /:commit/, status: 503, times: 4 });
    await p.post(`/publications/${pub.id}/approve`);
    await expect(p.drain({ lastAttempt: false })).rejects.toThrow(/503/);
    // ...and the edit expires before the task's retry, which starts over in a new edit.
    p.play.setEditTtlMs(1);
    await new Promise((r) => setTimeout(r, 20));
    p.play.setEditTtlMs(60 * 60_000);
    for (let i = 0; i < 3 && (await p.get(`/publications/${pub.id}`)).json().status === 'applying'; i++) {
      p.queued.push(pub.id);
      await p.drain({ lastAttempt: false }).catch(() => undefined);
    }
    expect(p.play.calls.filter((c) => c.method === 'POST' && /\/edits$/.test(c.path)).length).toBeGreaterThanOrEqual(3);
    const done = (await p.get(`/publications/${pub.id}`)).json();
    expect(done.status, JSON.stringify(done.error)).toBe('published');
    expect(live()).toEqual(await sums([1, 2, 3]));
  });

  it('a 429 whose Retry-After is past the cap fails the run as unavailable at once; the retry waits out one within it', async () => {
    const sc = await connect();
    const pub = await planned(await succeededJob(p, { device: 'android-phone', seeds: [1] }), sc);
    const commits = () => p.play.calls.filter((c) => c.path.includes(':commit')).map((c) => c.status);
    // FAST_RETRY honours 3 s at most: a minute is not waited out here, a later run tries again.
    p.play.fail({ method: 'POST', path: /:commit/, status: 429, headers: { 'Retry-After': '60' } });
    await p.post(`/publications/${pub.id}/approve`);
    await expect(p.drain({ lastAttempt: false })).rejects.toThrow(/429/);
    expect(commits()).toEqual([429]);
    p.play.fail({ method: 'POST', path: /:commit/, status: 429, headers: { 'Retry-After': '1' } });
    p.queued.push(pub.id);
    const started = performance.now();
    await p.drain();
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(commits()).toEqual([429, 429, 200]);
    expect((await p.get(`/publications/${pub.id}`)).json().status).toBe('published');
  });

  it('a service account revoked half-way through the uploads fails with store_credentials_rejected and changes nothing live', async () => {
    const sc = await connect();
    p.play.seedImages(PLAY_PACKAGE, 'en-US', 'phoneScreenshots', [await png(7), await png(8)]);
    const job = await succeededJob(p, { device: 'android-phone', seeds: [1, 2, 3] });
    const pub = await planned(job, sc);
    // The second upload is made; before it is answered, the key is revoked.
    const held = p.play.hold({ method: 'POST', path: /^\/upload\// });
    const second = p.play.hold({ method: 'POST', path: /^\/upload\// });
    void held.reached.then(() => held.release());
    void second.reached.then(() => {
      p.play.removeServiceAccount(p.serviceAccount.client_email);
      second.release();
    });
    const done = await approveAndRun(pub.id);
    expect(done.status).toBe('failed');
    expect(done.error.code).toBe('store_credentials_rejected');
    expect(p.play.calls.filter((c) => c.path.startsWith('/upload/') && c.status === 200)).toHaveLength(2);
    expect(live()).toEqual(await sums([7, 8]));
    expect(p.play.calls.some((c) => c.path.includes(':commit'))).toBe(false);
  });

  it('a revoked service account fails with store_credentials_rejected and nothing half-applied', async () => {
    const sc = await connect();
    const job = await succeededJob(p, { device: 'android-phone', seeds: [1, 2] });
    const pub = await planned(job, sc);
    p.play.removeServiceAccount?.(p.serviceAccount.client_email);
    const done = await approveAndRun(pub.id);
    expect(done.status).toBe('failed');
    expect(done.error.code).toBe('store_credentials_rejected');
    expect(live()).toEqual([]);
  });
});
