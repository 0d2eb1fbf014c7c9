import { androidpublisher, auth, type androidpublisher_v3 } from '@googleapis/androidpublisher';
import { Readable } from 'node:stream';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeGooglePlay, type FakeGooglePlayServer } from '../../src/fake-stores/google-play.ts';
import { generateServiceAccount, type ServiceAccountKey } from '../../src/fake-stores/keys.ts';
import { playToken, png, sha256 } from './helpers.ts';

const PKG = 'com.example.planner';

let fake: FakeGooglePlayServer;
let key: ServiceAccountKey;
let play: androidpublisher_v3.Androidpublisher;

/** The real client, its rootUrl at the fake, with a token from the fake's own token endpoint. */
async function client(serviceAccount: ServiceAccountKey): Promise<androidpublisher_v3.Androidpublisher> {
  const token = await playToken(serviceAccount);
  expect(token.status).toBe(200);
  const oauth = new auth.OAuth2();
  oauth.setCredentials({ access_token: token.body.access_token, expiry_date: Date.now() + token.body.expires_in * 1000 });
  // Retries off: the tests count the fake's answers one by one.
  return androidpublisher({ version: 'v3', rootUrl: `${fake.url}/`, auth: oauth, retry: false });
}

/** The status and Google error of a call the test expects to fail. */
async function failure(promise: Promise<unknown>): Promise<{ status: number; error: { status: string; errors: { reason: string }[] } }> {
  try {
    await promise;
  } catch (e) {
    const response = (e as { response?: { status: number; data: { error: { status: string; errors: { reason: string }[] } } } }).response;
    if (response) return { status: response.status, error: response.data.error };
    throw e;
  }
  throw new Error('expected the call to fail');
}

/**
 * The client's global rootUrl rewrites the API URL but not the media upload URL (googleapis-common
 * 8): an upload goes to Google unless the call's own options name the rootUrl too.
 */
const upload = async (editId: string, imageType: string, bytes: Buffer, language = 'en-US') =>
  (
    await play.edits.images.upload(
      { packageName: PKG, editId, language, imageType, media: { mimeType: 'image/png', body: Readable.from(bytes) } },
      { rootUrl: `${fake.url}/` },
    )
  ).data.image!;

// One RSA key for the file: generating one takes a second on a busy machine.
let account: ReturnType<typeof generateServiceAccount>;
beforeAll(() => {
  account = generateServiceAccount('set per test');
});

beforeEach(async () => {
  fake = await startFakeGooglePlay();
  key = { ...account.key, token_uri: fake.tokenUri };
  fake.addServiceAccount(key.client_email, account.publicKeyPem);
  fake.addApp(PKG);
  play = await client(key);
});
afterEach(() => fake.close());

describe('fake Google Play: edits and listing images through @googleapis/androidpublisher', () => {
  it('uploads into an edit and makes the images live at commit, in order, with their sha256', async () => {
    const edit = (await play.edits.insert({ packageName: PKG })).data;
    expect(edit.id).toMatch(/^\d+$/);
    expect(Number(edit.expiryTimeSeconds)).toBeGreaterThan(Date.now() / 1000);
    const empty = await play.edits.images.list({ packageName: PKG, editId: edit.id!, language: 'en-US', imageType: 'phoneScreenshots' });
    expect(empty.data.images).toBeUndefined();

    const files = await Promise.all([1, 2, 3].map((n) => png(n)));
    const uploaded = [];
    for (const bytes of files) uploaded.push(await upload(edit.id!, 'phoneScreenshots', bytes));
    const feature = await upload(edit.id!, 'featureGraphic', await png(9, 1024, 500));
    expect(uploaded.map((i) => i.sha256)).toEqual(files.map(sha256));
    expect(uploaded[0]).toMatchObject({
      id: expect.any(String),
      sha1: expect.stringMatching(/^[0-9a-f]{40}$/),
      url: expect.stringContaining(fake.url),
    });
    // Nothing is live before the commit.
    expect(fake.images(PKG, 'en-US', 'phoneScreenshots')).toEqual([]);

    const listed = await play.edits.images.list({ packageName: PKG, editId: edit.id!, language: 'en-US', imageType: 'phoneScreenshots' });
    expect(listed.data.images!.map((i) => i.id)).toEqual(uploaded.map((i) => i.id));

    const committed = await play.edits.commit({ packageName: PKG, editId: edit.id!, changesInReviewBehavior: 'ERROR_IF_IN_REVIEW' });
    expect(committed.data.id).toBe(edit.id);
    expect(fake.images(PKG, 'en-US', 'phoneScreenshots')).toEqual(uploaded.map((i) => ({ id: i.id, sha256: i.sha256, url: i.url })));
    expect(fake.images(PKG, 'en-US', 'featureGraphic').map((i) => i.id)).toEqual([feature.id]);
    expect(fake.images(PKG, 'de-DE', 'phoneScreenshots')).toEqual([]);
    const served = await fetch(uploaded[1].url!);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(files[1])).toBe(true);
    // A committed edit answers as Play's does, to a second commit (a retry whose answer was lost) and to anything else.
    for (const again of [
      play.edits.commit({ packageName: PKG, editId: edit.id!, changesInReviewBehavior: 'ERROR_IF_IN_REVIEW' }),
      play.edits.get({ packageName: PKG, editId: edit.id! }),
    ]) {
      const refused = await failure(again);
      expect(refused.status).toBe(400);
      expect(refused.error).toMatchObject({
        code: 400,
        message: 'This edit has already been successfully committed, please create a new Edit.',
        errors: [{ reason: 'editAlreadyCommitted' }],
      });
    }
    // An edit that never was is 404.
    expect((await failure(play.edits.get({ packageName: PKG, editId: '123' }))).status).toBe(404);
  });

  it("holds the app's store listings like a real app's, and an image for a new language makes that listing", async () => {
    const other = 'com.example.listed';
    fake.addApp(other, { listings: ['en-US', 'de-DE'] });
    const edit = (await play.edits.insert({ packageName: other })).data.id!;
    const listed = await play.edits.listings.list({ packageName: other, editId: edit });
    expect(listed.data.listings!.map((l) => l.language)).toEqual(['en-US', 'de-DE']);
    expect((await play.edits.listings.get({ packageName: other, editId: edit, language: 'de-DE' })).data.language).toBe('de-DE');
    expect((await failure(play.edits.listings.get({ packageName: other, editId: edit, language: 'fr-FR' }))).status).toBe(404);
    // An upload to `en` (not `en-US`) makes an `en` listing, live once committed: what Play did to sets published as `en`.
    await play.edits.images.upload(
      {
        packageName: other,
        editId: edit,
        language: 'en',
        imageType: 'phoneScreenshots',
        media: { mimeType: 'image/png', body: Readable.from(await png(1)) },
      },
      { rootUrl: `${fake.url}/` },
    );
    expect(fake.listings(other)).toEqual(['en-US', 'de-DE']);
    await play.edits.commit({ packageName: other, editId: edit });
    expect(fake.listings(other)).toEqual(['en-US', 'de-DE', 'en']);
    // An app added without listings has its default language's, en-US.
    expect(fake.listings(PKG)).toEqual(['en-US']);
  });

  it('seeds live images that an edit lists with their sha256', async () => {
    const files = [await png(1), await png(2)];
    const ids = fake.seedImages(PKG, 'de-DE', 'tenInchScreenshots', files);
    expect(fake.images(PKG, 'de-DE', 'tenInchScreenshots').map((i) => [i.id, i.sha256])).toEqual(
      ids.map((id, i) => [id, sha256(files[i])]),
    );
    const edit = (await play.edits.insert({ packageName: PKG })).data.id!;
    const listed = await play.edits.images.list({ packageName: PKG, editId: edit, language: 'de-DE', imageType: 'tenInchScreenshots' });
    expect(listed.data.images!.map((i) => i.sha256)).toEqual(files.map(sha256));
  });

  it('deletes one image or all of a type within an edit; deleting the edit discards its changes', async () => {
    let edit = (await play.edits.insert({ packageName: PKG })).data.id!;
    const first = await upload(edit, 'phoneScreenshots', await png(1));
    const second = await upload(edit, 'phoneScreenshots', await png(2));
    await play.edits.commit({ packageName: PKG, editId: edit });

    edit = (await play.edits.insert({ packageName: PKG })).data.id!;
    await play.edits.images.delete({
      packageName: PKG,
      editId: edit,
      language: 'en-US',
      imageType: 'phoneScreenshots',
      imageId: first.id!,
    });
    const missing = await failure(
      play.edits.images.delete({ packageName: PKG, editId: edit, language: 'en-US', imageType: 'phoneScreenshots', imageId: first.id! }),
    );
    expect(missing.status).toBe(404);
    await play.edits.delete({ packageName: PKG, editId: edit });
    expect(fake.images(PKG, 'en-US', 'phoneScreenshots').map((i) => i.id)).toEqual([first.id, second.id]);

    edit = (await play.edits.insert({ packageName: PKG })).data.id!;
    const deleted = await play.edits.images.deleteall({ packageName: PKG, editId: edit, language: 'en-US', imageType: 'phoneScreenshots' });
    expect(deleted.data.deleted!.map((i) => i.id)).toEqual([first.id, second.id]);
    const third = await upload(edit, 'phoneScreenshots', await png(3));
    await play.edits.commit({ packageName: PKG, editId: edit });
    expect(fake.images(PKG, 'en-US', 'phoneScreenshots').map((i) => i.id)).toEqual([third.id]);
  });

  it('holds eight screenshots per type, one feature graphic, and only PNG or JPEG', async () => {
    const edit = (await play.edits.insert({ packageName: PKG })).data.id!;
    for (let n = 0; n < 8; n++) await upload(edit, 'sevenInchScreenshots', await png(n));
    const ninth = await failure(upload(edit, 'sevenInchScreenshots', await png(8)));
    expect(ninth).toMatchObject({ status: 400, error: { errors: [{ reason: 'imageLimitExceeded' }] } });
    await upload(edit, 'featureGraphic', await png(1, 1024, 500));
    expect((await failure(upload(edit, 'featureGraphic', await png(2, 1024, 500)))).status).toBe(400);
    const text = await failure(upload(edit, 'tenInchScreenshots', Buffer.from('not an image')));
    expect(text.error.errors[0].reason).toBe('imageInvalid');
    const badType = await failure(
      play.edits.images.list({ packageName: PKG, editId: edit, language: 'en-US', imageType: 'bigScreenshots' }),
    );
    expect(badType.status).toBe(400);
  });

  it('holds PNGs to Play’s sizes when asked to check', async () => {
    fake.setDimensionCheck(true);
    const edit = (await play.edits.insert({ packageName: PKG })).data.id!;
    await upload(edit, 'phoneScreenshots', await png(1, 1080, 1920));
    for (const [type, w, h] of [
      ['phoneScreenshots', 200, 400],
      ['phoneScreenshots', 1320, 2868],
      ['tenInchScreenshots', 4000, 3000],
      ['featureGraphic', 1024, 512],
    ] as const) {
      const refused = await failure(upload(edit, type, await png(2, w, h)));
      expect(refused, `${type} ${w}x${h}`).toMatchObject({ status: 400, error: { errors: [{ reason: 'imageInvalid' }] } });
    }
    await upload(edit, 'featureGraphic', await png(3, 1024, 500));
  });

  it('keeps one open edit per package', async () => {
    fake.addApp('com.example.other');
    const edit = (await play.edits.insert({ packageName: PKG })).data.id!;
    const second = await failure(play.edits.insert({ packageName: PKG }));
    expect(second).toMatchObject({ status: 409, error: { errors: [{ reason: 'editAlreadyOpen' }] } });
    expect(fake.openEdits(PKG)).toEqual([edit]);
    // Another package is not held up, and a deleted edit frees the package.
    await play.edits.insert({ packageName: 'com.example.other' });
    await play.edits.delete({ packageName: PKG, editId: edit });
    const next = (await play.edits.insert({ packageName: PKG })).data.id!;
    expect(fake.openEdits(PKG)).toEqual([next]);
    expect((await failure(play.edits.insert({ packageName: 'com.example.unknown' }))).status).toBe(404);
  });

  it('expires edits: every call on an expired edit is refused and a new edit can be opened', async () => {
    const edit = (await play.edits.insert({ packageName: PKG })).data.id!;
    await upload(edit, 'phoneScreenshots', await png(1));
    fake.setEditTtlMs(30);
    await new Promise((resolve) => setTimeout(resolve, 60));
    const next = await png(2);
    for (const call of [
      () => play.edits.get({ packageName: PKG, editId: edit }),
      () => play.edits.images.list({ packageName: PKG, editId: edit, language: 'en-US', imageType: 'phoneScreenshots' }),
      () => upload(edit, 'phoneScreenshots', next),
      () => play.edits.commit({ packageName: PKG, editId: edit }),
    ]) {
      expect(await failure(call())).toMatchObject({
        status: 400,
        error: { status: 'FAILED_PRECONDITION', errors: [{ reason: 'editExpired' }] },
      });
    }
    expect(fake.images(PKG, 'en-US', 'phoneScreenshots')).toEqual([]);
    fake.setEditTtlMs(60 * 60 * 1000);
    expect((await play.edits.insert({ packageName: PKG })).data.id).not.toBe(edit);
  });

  it('refuses a commit with ERROR_IF_IN_REVIEW while the app is in review, and counts a cancelled review otherwise', async () => {
    fake.setInReview(PKG, true);
    const edit = (await play.edits.insert({ packageName: PKG })).data.id!;
    await upload(edit, 'phoneScreenshots', await png(1));
    const refused = await failure(play.edits.commit({ packageName: PKG, editId: edit, changesInReviewBehavior: 'ERROR_IF_IN_REVIEW' }));
    expect(refused).toMatchObject({ status: 400, error: { status: 'FAILED_PRECONDITION', errors: [{ reason: 'changesInReview' }] } });
    expect(fake.images(PKG, 'en-US', 'phoneScreenshots')).toEqual([]);
    expect(fake.reviewsCancelled(PKG)).toBe(0);
    // The edit stays open: the caller decides.
    expect((await play.edits.get({ packageName: PKG, editId: edit })).data.id).toBe(edit);
    await play.edits.commit({ packageName: PKG, editId: edit });
    expect(fake.reviewsCancelled(PKG)).toBe(1);
    expect(fake.images(PKG, 'en-US', 'phoneScreenshots')).toHaveLength(1);
  });
});
