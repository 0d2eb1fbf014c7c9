import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppStoreTokens } from '../../src/publishing/app-store/token.ts';
import { advancePublication, RetryLater } from '../../src/publishing/runner.ts';
import { md5, png, sha256 } from '../fake-stores/helpers.ts';
import { ASC_APP, PLAY_PACKAGE, publishingHarness, succeededJob, type PublishingHarness } from './support.ts';

let p: PublishingHarness;
beforeEach(async () => {
  p = await publishingHarness();
});
afterEach(async () => p.close());

/**
 * Two approved publications of the same store app advanced at once, as two task runners would:
 * exactly one must be told to wait (RetryLater, saying why); returns both ids in the order they ran.
 */
async function raceTwo(ids: string[], why: RegExp): Promise<{ first: string; second: string }> {
  await p.drain();
  for (const id of ids) expect((await p.post(`/publications/${id}/approve`)).statusCode).toBe(202);
  p.queued.length = 0;
  const results = await Promise.allSettled(ids.map((id) => advancePublication(p.runner, id, { lastAttempt: false })));
  const waited = results.filter((r) => r.status === 'rejected');
  expect(waited).toHaveLength(1);
  expect((waited[0] as PromiseRejectedResult).reason).toBeInstanceOf(RetryLater);
  expect(String((waited[0] as PromiseRejectedResult).reason.message)).toMatch(why);
  return { first: ids[results.findIndex((r) => r.status === 'fulfilled')], second: ids[results.indexOf(waited[0])] };
}

describe('publishing under concurrency', () => {
  it('two publications of one Play package never hold two edits: the second waits for the first', async () => {
    const sc = (await p.post('/store-connections', { store: 'google-play', serviceAccount: p.serviceAccount })).json().id;
    const ids: string[] = [];
    for (const seeds of [
      [1, 2, 3],
      [4, 5],
    ]) {
      const job = await succeededJob(p, { device: 'android-phone', seeds });
      ids.push((await p.post('/publications', { jobId: job, connectionId: sc, locales: { en: 'en-US' } })).json().id);
    }
    // The task's retry runs the second once the first has committed.
    const { second } = await raceTwo(ids, /another publication is editing/);
    await advancePublication(p.runner, second);
    const last = (await p.get(`/publications/${second}`)).json();
    expect(last.status).toBe('published');
    const seeds = second === ids[0] ? [1, 2, 3] : [4, 5];
    expect(p.play.images(PLAY_PACKAGE, 'en-US', 'phoneScreenshots').map((i) => i.sha256)).toEqual(
      await Promise.all(seeds.map(async (s) => sha256(await png(s)))),
    );
  });

  // Both App Store paths take one lock per app, like Play's per package: a second publication of
  // the same app waits (its task retries) instead of reordering the sets, or reserving the same
  // library pictures, under the first.
  for (const [appStoreUpload, size] of [
    ['screenshot-sets', [64, 128]],
    ['asset-library', [1290, 2796]],
  ] as const)
    it(`two publications of one App Store app (${appStoreUpload}) never run at once: the second waits for the first`, async () => {
      const res = await p.post('/store-connections', {
        store: 'app-store',
        issuerId: p.ascKey.issuerId,
        keyId: p.ascKey.keyId,
        privateKey: p.ascKey.privateKeyPem,
        appStoreUpload,
      });
      expect(res.statusCode, res.body).toBe(201);
      const ids: string[] = [];
      for (const seeds of [
        [1, 2, 3],
        [4, 5],
      ]) {
        const job = await succeededJob(p, { device: 'iphone-69', seeds, size: [...size] });
        ids.push((await p.post('/publications', { jobId: job, connectionId: res.json().id, locales: { en: 'en-US' } })).json().id);
      }
      const { first, second } = await raceTwo(ids, /another publication is changing app/);
      expect((await p.get(`/publications/${first}`)).json().status).toBe('published');
      // The task's retry re-plans against what the first left and publishes the second's set alone.
      await advancePublication(p.runner, second);
      const last = (await p.get(`/publications/${second}`)).json();
      expect(last.status, JSON.stringify(last.error)).toBe('published');
      const want = await Promise.all((second === ids[0] ? [1, 2, 3] : [4, 5]).map(async (s) => md5(await png(s, ...size))));
      const live =
        appStoreUpload === 'asset-library'
          ? p.asc.placements(ASC_APP, 'en-US', 'IPHONE_DYNAMIC_ISLAND_LARGE_PROFILE').map((x) => x.md5)
          : p.asc.screenshots(ASC_APP, 'en-US', 'APP_IPHONE_67').map((x) => x.sourceFileChecksum);
      expect(live).toEqual(want);
    });

  it('concurrent approvals queue the work once', async () => {
    const sc = (
      await p.post('/store-connections', {
        store: 'app-store',
        issuerId: p.ascKey.issuerId,
        keyId: p.ascKey.keyId,
        privateKey: p.ascKey.privateKeyPem,
      })
    ).json().id;
    const job = await succeededJob(p, { device: 'iphone-69', seeds: [1] });
    const id = (await p.post('/publications', { jobId: job, connectionId: sc })).json().id;
    await p.drain();
    const answers = await Promise.all(Array.from({ length: 5 }, () => p.post(`/publications/${id}/approve`)));
    expect(answers.map((a) => a.statusCode)).toEqual([202, 202, 202, 202, 202]);
    expect(p.queued).toEqual([id]);
  });

  it('App Store tokens are ES256, for appstoreconnect-v1, at most 20 minutes, and reused', async () => {
    let now = Date.parse('2026-11-25T00:00:00Z');
    const tokens = new AppStoreTokens(
      { issuerId: p.ascKey.issuerId, keyId: p.ascKey.keyId, privateKey: p.ascKey.privateKeyPem },
      () => now,
    );
    const token = await tokens.token();
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256', kid: p.ascKey.keyId, typ: 'JWT' });
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ iss: p.ascKey.issuerId, aud: 'appstoreconnect-v1' });
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(20 * 60);
    expect(await tokens.token()).toBe(token);
    now += 19 * 60_000;
    expect(await tokens.token()).not.toBe(token);
  });
});
