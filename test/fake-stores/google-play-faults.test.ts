import { createPrivateKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeGooglePlay, type FakeGooglePlayServer } from '../../src/fake-stores/google-play.ts';
import { generateAppStoreKey, generateServiceAccount, type ServiceAccountKey } from '../../src/fake-stores/keys.ts';
import { playToken, png } from './helpers.ts';

const PKG = 'com.example.planner';

let fake: FakeGooglePlayServer;
let key: ServiceAccountKey;

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
});
afterEach(() => fake.close());

/** A plain-fetch androidpublisher call; the body is JSON or, for uploads, raw bytes. */
async function api(token: string, method: string, path: string, body?: Buffer) {
  const res = await fetch(fake.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'image/png' } : {}) },
    body: body ? new Uint8Array(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

const EDITS = `/androidpublisher/v3/applications/${PKG}/edits`;

describe('fake Google Play: the token endpoint', () => {
  it('exchanges a valid assertion for a Bearer token the API accepts', async () => {
    const token = await playToken(key);
    expect(token).toMatchObject({ status: 200, body: { token_type: 'Bearer', expires_in: 3600, access_token: expect.any(String) } });
    expect((await api(token.body.access_token, 'POST', EDITS)).status).toBe(200);
  });

  it('refuses assertions with the wrong audience, lifetime, scope, key or account, in OAuth’s error shape', async () => {
    const stranger = generateServiceAccount(fake.tokenUri).key;
    const cases: [string, Promise<{ status: number; body: { error: string } }>][] = [
      ['aud is Google’s default, not the key’s token_uri', playToken(key, { audience: 'https://oauth2.googleapis.com/token' })],
      ['lives two hours', playToken(key, { lifetimeS: 7200 })],
      ['no androidpublisher scope', playToken(key, { scope: 'https://www.googleapis.com/auth/cloud-platform' })],
      ['unknown account', playToken(stranger)],
      ['signed by another key', playToken({ ...key, private_key: stranger.private_key })],
    ];
    for (const [why, answer] of cases) expect(await answer, why).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    // An ES256 assertion: a service account signs RS256 only.
    const es = await new SignJWT({ scope: 'https://www.googleapis.com/auth/androidpublisher' })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer(key.client_email)
      .setAudience(fake.tokenUri)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(createPrivateKey(generateAppStoreKey().privateKeyPem));
    const wrongAlg = await fetch(fake.tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: es }),
    });
    expect(wrongAlg.status).toBe(400);
    const wrongGrant = await fetch(fake.tokenUri, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials' }) });
    expect(await wrongGrant.json()).toMatchObject({ error: 'unsupported_grant_type' });
  });

  it('refuses the API without a valid token, and every token of a revoked account', async () => {
    expect((await api('', 'POST', EDITS)).status).toBe(401);
    const garbage = await api('ya29.made-up', 'POST', EDITS);
    expect(garbage).toMatchObject({ status: 401, body: { error: { code: 401, status: 'UNAUTHENTICATED' } } });
    const token = (await playToken(key)).body.access_token;
    fake.removeServiceAccount(key.client_email);
    expect((await api(token, 'POST', EDITS)).status).toBe(401);
    expect((await playToken(key)).body.error).toBe('invalid_grant');
  });
});

describe('fake Google Play: injected faults', () => {
  let token: string;
  beforeEach(async () => {
    token = (await playToken(key)).body.access_token;
  });

  it('answers a faulted token request in OAuth’s shape and API calls in Google’s', async () => {
    fake.fail({ method: 'POST', path: /^\/token$/, status: 503 });
    expect(await playToken(key)).toMatchObject({ status: 503, body: { error: 'SERVICE_UNAVAILABLE' } });
    fake.fail({ method: 'POST', path: /\/edits$/, status: 429, headers: { 'retry-after': '3' } });
    const limited = await api(token, 'POST', EDITS);
    expect(limited).toMatchObject({ status: 429, body: { error: { code: 429, status: 'RESOURCE_EXHAUSTED' } } });
    expect(limited.headers.get('retry-after')).toBe('3');
    // The fault held no edit open.
    expect(fake.openEdits(PKG)).toEqual([]);
  });

  it('fails uploads, lists, deletes and commits as often as asked, changing nothing', async () => {
    const edit = (await api(token, 'POST', EDITS)).body.id;
    const uploadPath = `/upload${EDITS}/${edit}/listings/en-US/phoneScreenshots?uploadType=media`;
    fake.fail({ method: 'POST', path: /^\/upload\//, status: 503, times: 2 });
    expect((await api(token, 'POST', uploadPath, await png(1))).status).toBe(503);
    expect((await api(token, 'POST', uploadPath, await png(1))).status).toBe(503);
    const image = (await api(token, 'POST', uploadPath, await png(1))).body.image;
    expect(image.sha256).toMatch(/^[0-9a-f]{64}$/);

    fake.fail({ method: 'GET', path: /\/listings\//, status: 500 });
    expect((await api(token, 'GET', `${EDITS}/${edit}/listings/en-US/phoneScreenshots`)).status).toBe(500);
    fake.fail({ method: 'DELETE', path: /\/listings\//, status: 504 });
    expect((await api(token, 'DELETE', `${EDITS}/${edit}/listings/en-US/phoneScreenshots/${image.id}`)).status).toBe(504);
    fake.fail({ method: 'POST', path: /:commit/, status: 503 });
    expect((await api(token, 'POST', `${EDITS}/${edit}:commit?changesInReviewBehavior=ERROR_IF_IN_REVIEW`)).status).toBe(503);
    expect(fake.images(PKG, 'en-US', 'phoneScreenshots')).toEqual([]);
    expect((await api(token, 'GET', `${EDITS}/${edit}/listings/en-US/phoneScreenshots`)).body.images).toHaveLength(1);
    expect((await api(token, 'POST', `${EDITS}/${edit}:commit?changesInReviewBehavior=ERROR_IF_IN_REVIEW`)).status).toBe(200);
    expect(fake.images(PKG, 'en-US', 'phoneScreenshots').map((i) => i.id)).toEqual([image.id]);

    const paths = fake.calls.map((c) => `${c.method} ${c.status} ${c.path.split('?')[0].replace(edit, 'E')}`);
    expect(paths.filter((p) => p.startsWith('POST 503 /upload'))).toHaveLength(2);
    expect(paths.at(-1)).toBe(`POST 200 ${EDITS}/E:commit`);
  });

  it('can upload and lose the answer, so a retry that does not list first duplicates the image', async () => {
    const edit = (await api(token, 'POST', EDITS)).body.id;
    const uploadPath = `/upload${EDITS}/${edit}/listings/en-US/phoneScreenshots?uploadType=media`;
    fake.fail({ method: 'POST', path: /^\/upload\//, status: 503, after: true });
    const bytes = await png(1);
    expect((await api(token, 'POST', uploadPath, bytes)).status).toBe(503);
    const listed = await api(token, 'GET', `${EDITS}/${edit}/listings/en-US/phoneScreenshots`);
    expect(listed.body.images).toHaveLength(1);
    await api(token, 'POST', uploadPath, bytes);
    expect((await api(token, 'GET', `${EDITS}/${edit}/listings/en-US/phoneScreenshots`)).body.images).toHaveLength(2);
  });

  it('opens one edit per package under concurrent inserts', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => api(token, 'POST', EDITS)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(7);
    expect(fake.openEdits(PKG)).toHaveLength(1);
  });
});
