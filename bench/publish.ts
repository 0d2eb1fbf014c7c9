/**
 * `npx tsx bench/publish.ts`: publishing against the fake stores (in this process, on 127.0.0.1).
 * Reports the HTTP calls per published image on each store (App Store on both paths: screenshot
 * sets and the App Asset Library, and to a new custom product page and a new test treatment on the
 * screenshot sets), and the time to plan and to apply + verify a 10-slide set in 3
 * locales (8 on Play, plus each locale's feature graphic), first publication and a republish with
 * nothing to change.
 * Pictures are real PNGs at the device's size (1290×2796 and 1080×1920) with some noise, so the
 * upload bytes are of a realistic order.
 */
import { randomBytes } from 'node:crypto';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { newId } from '../src/core/ids.ts';
import { FileObjectStore } from '../src/objects/filesystem.ts';
import { createConnection } from '../src/publishing/connections.ts';
import { startFakeAppStoreConnect } from '../src/fake-stores/app-store-connect.ts';
import { startFakeGooglePlay } from '../src/fake-stores/google-play.ts';
import { generateAppStoreKey, generateServiceAccount } from '../src/fake-stores/keys.ts';
import { approve, insertPublication } from '../src/publishing/publications.ts';
import { advancePublication, type RunnerDeps } from '../src/publishing/runner.ts';
import type { VariantTarget } from '../src/publishing/app-store/variants.ts';
import { Keyring } from '../src/secrets/envelope.ts';
import type { Device } from '../src/core/devices.ts';
import { benchAccount, openBenchDatabase } from './setup.ts';

const LOCALES = ['en-US', 'de-DE', 'fr-FR'];
// Play takes at most 8 screenshots of a type: its set is 8 slides.
const SLIDES = { 'app-store': 10, 'google-play': 8 } as const;

async function picture(seed: number, width: number, height: number): Promise<Buffer> {
  const noise = Buffer.alloc(64 * 64 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 31 + seed * 97) & 255;
  const tile = await sharp(noise, { raw: { width: 64, height: 64, channels: 3 } })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: { r: seed % 256, g: (seed * 7) % 256, b: 90 } } })
    .composite([{ input: tile, tile: true, blend: 'over' }])
    .png()
    .toBuffer();
}

const db = await openBenchDatabase();
const objectsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-bench-objects-'));
const objects = new FileObjectStore(objectsDir);
const asc = await startFakeAppStoreConnect();
const play = await startFakeGooglePlay();
try {
  const pool = db.database.pool;
  const keyring = new Keyring(randomBytes(32));
  const ascKey = generateAppStoreKey();
  asc.addKey(ascKey.issuerId, ascKey.keyId, ascKey.publicKeyPem);
  const account = await benchAccount(pool, 'publish bench', 0);
  const appStoreId = '1234567890';
  // A released 1.0 beside the editable 1.1: a product page optimization test needs one.
  asc.addApp({ appId: appStoreId, locales: LOCALES, liveVersion: true });
  const sa = generateServiceAccount(play.tokenUri);
  play.addServiceAccount(sa.key.client_email, sa.publicKeyPem);
  play.addApp('com.example.bench', { listings: LOCALES });
  const noCheck = { check: async () => undefined, allowedTokenOrigins: [new URL(play.tokenUri).origin] };
  const ascConn = await createConnection(
    pool,
    keyring,
    account.accountId,
    { store: 'app-store', issuerId: ascKey.issuerId, keyId: ascKey.keyId, privateKey: ascKey.privateKeyPem },
    noCheck,
  );
  const libraryConn = await createConnection(
    pool,
    keyring,
    account.accountId,
    {
      store: 'app-store',
      issuerId: ascKey.issuerId,
      keyId: ascKey.keyId,
      privateKey: ascKey.privateKeyPem,
      appStoreUpload: 'asset-library',
    },
    noCheck,
  );
  const playConn = await createConnection(
    pool,
    keyring,
    account.accountId,
    { store: 'google-play', serviceAccount: sa.key as unknown as Record<string, unknown> },
    noCheck,
  );
  await pool.query(
    `UPDATE apps SET android_listing = ios_listing || '{"store":"google-play","storeId":"com.example.bench"}'::jsonb WHERE id = $1`,
    [account.appId],
  );

  /** A succeeded set in LOCALES; an Android set also has each locale's feature graphic, as the renderer keeps them. */
  async function job(device: Device, width: number, height: number, slides: number): Promise<string> {
    const jobId = newId('job');
    await pool.query(
      `INSERT INTO jobs (id, account_id, app_id, status, request, result, cost, period_start)
       VALUES ($1, $2, $3, 'succeeded', $4, '{}'::jsonb, 1, date_trunc('month', now())::date)`,
      [jobId, account.accountId, account.appId, JSON.stringify({ device, locales: LOCALES })],
    );
    for (const [li, locale] of LOCALES.entries())
      for (let i = 1; i <= slides; i++) {
        const bytes = await picture(li * 100 + i, width, height);
        const name = li === 0 ? `slides/${i}.png` : `locales/${locale}/slides/${i}.png`;
        await objects.put(`b/${jobId}/${name}`, bytes, 'image/png');
        await pool.query(
          `INSERT INTO job_files (job_id, name, object_key, content_type, bytes, sha256) VALUES ($1, $2, $3, 'image/png', $4, $5)`,
          [jobId, name, `b/${jobId}/${name}`, bytes.length, createHash('sha256').update(bytes).digest('hex')],
        );
      }
    if (device.startsWith('android'))
      for (const [li, locale] of LOCALES.entries()) {
        const bytes = await picture(li * 100 + 50, 1024, 500);
        const name = li === 0 ? 'feature-graphic.png' : `locales/${locale}/feature-graphic.png`;
        await objects.put(`b/${jobId}/${name}`, bytes, 'image/png');
        await pool.query(
          `INSERT INTO job_files (job_id, name, object_key, content_type, bytes, sha256) VALUES ($1, $2, $3, 'image/png', $4, $5)`,
          [jobId, name, `b/${jobId}/${name}`, bytes.length, createHash('sha256').update(bytes).digest('hex')],
        );
      }
    return jobId;
  }

  const runner: RunnerDeps = {
    db: pool,
    objects,
    keyring,
    appStoreConnectUrl: asc.url,
    googlePlayApiUrl: play.url,
    appStore: { pollIntervalMs: 200 },
  };
  const rows: string[] = [];
  /** Per kind of call (ids and queries left out), counted over a first publication's plan, apply and verify. */
  const kinds: string[] = [];
  const kindOf = (c: { method: string; path: string }) =>
    `${c.method} ${c.path
      .split('?')[0]
      .replace(/\/upload\/[^/]+\/\d+$/, '/upload/{id}/{part}')
      .replace(/\/(edits)\/[^/:]+/, '/$1/{edit}')
      .replace(/\/applications\/[^/]+/, '/applications/{pkg}')
      .replace(/\/listings\/[^/]+\/([^/]+)\/[^/]+$/, '/listings/{lang}/$1/{image}')
      .replace(/\/listings\/[^/]+/, '/listings/{lang}')
      .replace(/\/[0-9a-f]{8}-[0-9a-f-]{27}/g, '/{id}')
      .replace(/\/\d{6,}/g, '/{id}')}`;
  const page: VariantTarget = { kind: 'custom-product-page', name: 'Bench page', promotionalText: { 'en-US': 'Plan less.' } };
  const treatment: VariantTarget = { kind: 'experiment-treatment', experiment: { name: 'Bench test' }, treatment: 'B' };
  const productPage: VariantTarget = { kind: 'product-page' };
  for (const [label, store, device, w, h, conn, storeId, calls, target] of [
    ['App Store (screenshot sets)', 'app-store', 'iphone-69', 1290, 2796, ascConn.id, appStoreId, asc.calls, productPage],
    ['App Store (asset library)', 'app-store', 'iphone-69', 1290, 2796, libraryConn.id, appStoreId, asc.calls, productPage],
    ['App Store (custom product page)', 'app-store', 'iphone-69', 1290, 2796, ascConn.id, appStoreId, asc.calls, page],
    ['App Store (test treatment)', 'app-store', 'iphone-69', 1290, 2796, ascConn.id, appStoreId, asc.calls, treatment],
    ['Google Play', 'google-play', 'android-phone', 1080, 1920, playConn.id, 'com.example.bench', play.calls, productPage],
  ] as const) {
    const jobId = await job(device, w, h, SLIDES[store]);
    for (const round of ['first', 'republish']) {
      const id = await insertPublication(pool, {
        accountId: account.accountId,
        jobId,
        connectionId: conn,
        store,
        storeAppId: storeId,
        locales: {},
        target,
      });
      const c0 = calls.length;
      const t0 = performance.now();
      await advancePublication(runner, id);
      const t1 = performance.now();
      const cPlan = calls.length;
      await approve(pool, account.accountId, id, new Date());
      await advancePublication(runner, id);
      const t2 = performance.now();
      const { rows: r } = await pool.query<{ status: string; error: unknown }>('SELECT status, error FROM publications WHERE id = $1', [
        id,
      ]);
      const { rows: n } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM publication_items WHERE publication_id = $1 AND action = 'upload'`,
        [id],
      );
      const applyCalls = calls.length - cPlan;
      rows.push(
        `| ${label} | ${round} | ${r[0].status} | ${n[0].n} | ${((t1 - t0) / 1000).toFixed(2)} s | ${((t2 - t1) / 1000).toFixed(2)} s | ${cPlan - c0} | ${applyCalls} | ${n[0].n ? (applyCalls / n[0].n).toFixed(1) : '-'} |`,
      );
      if (r[0].status !== 'published') console.error(store, round, r[0].error);
      if (round === 'first') {
        const counts = new Map<string, number>();
        for (const c of calls.slice(c0)) counts.set(kindOf(c), (counts.get(kindOf(c)) ?? 0) + 1);
        for (const [k, v] of [...counts].sort((a, b) => b[1] - a[1]))
          kinds.push(`| ${label} | \`${k}\` | ${v} | ${(v / n[0].n).toFixed(2)} |`);
        kinds.push(`| ${label} | **all** | ${calls.length - c0} | ${((calls.length - c0) / n[0].n).toFixed(2)} |`);
      }
    }
  }
  console.log(
    `10 (App Store) / 8 (Play, + each locale's feature graphic) slides × 3 locales (${LOCALES.join(', ')}), fakes on 127.0.0.1, ${os.cpus().length} cores\n`,
  );
  console.log(
    '| store | run | status | uploads | plan | apply + verify | calls (plan) | calls (apply + verify) | calls per uploaded image |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  console.log('\nFirst publication, plan + apply + verify, by kind of call:\n');
  console.log('| store | call | calls | per uploaded image |');
  console.log('|---|---|---|---|');
  for (const k of kinds) console.log(k);
} finally {
  await asc.close();
  await play.close();
  await objects.close();
  fs.rmSync(objectsDir, { recursive: true, force: true });
  await db.cleanup();
}
