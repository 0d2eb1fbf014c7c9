/**
 * Play keeps one feature graphic per language, so a set in several locales has one per locale: a
 * job file each (what a publication uploads), in the ZIP where `supply` reads it, and kept by a
 * revision (the parent's bytes where the locale's first headline did not change, drawn again where it did).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listJobFiles } from '../../src/sets/files.ts';
import { emptyScreenshots } from '../../src/core/listing.ts';
import { createPicturesApp, type PicturesApp } from '../sets/support.ts';
import { startFakeImageHost, type FakeImageHost } from '../support/fake-images.ts';
import { startFakeLlm, translator, type FakeLlm } from '../support/fake-llm.ts';
import { insertApp, sampleListing } from '../support/fixtures.ts';
import { scaled } from '../support/timing.ts';

let images: FakeImageHost;
let llm: FakeLlm;
let h: PicturesApp;
beforeAll(async () => {
  images = await startFakeImageHost();
  llm = await startFakeLlm(translator({ 'de-DE': (_h, i) => `Plane die Woche ${i + 1}` }));
  h = await createPicturesApp({
    llm: { baseUrl: llm.baseUrl, model: 'm', apiKey: null },
    storeImageOrigins: [images.origin],
    storeImageTimeoutMs: 2_000,
  });
});
afterAll(async () => {
  await h?.close();
  await llm?.close();
  await images?.close();
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function waitJob(jobId: string) {
  const deadline = Date.now() + scaled(120_000);
  for (;;) {
    const job = (
      await h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${jobId}`, headers: { ...h.auth, prefer: 'wait=10' } })
    ).json();
    if (job.status === 'succeeded' || job.status === 'failed') return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job.status}`);
  }
}

/** The job's feature graphics by file name, as stored (bytes checked against their rows). */
async function graphics(jobId: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const f of await listJobFiles(h.t.pool, jobId)) {
    if (!f.name.endsWith('feature-graphic.png')) continue;
    const bytes = await buffer((await h.services.objects.get(f.objectKey))!.body);
    expect(sha256(bytes)).toBe(f.sha256);
    out.set(f.name, bytes);
  }
  return out;
}

function zipped(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err);
      const out = new Map<string, Buffer>();
      file.on('entry', (e: yauzl.Entry) =>
        file.openReadStream(e, (error, stream) => {
          if (error || !stream) return reject(error);
          buffer(stream).then((b) => {
            out.set(e.fileName, b);
            file.readEntry();
          }, reject);
        }),
      );
      file.on('end', () => resolve(out));
      file.readEntry();
    });
  });
}

async function zipOf(job: { result: { archive: { url: string } } }) {
  const u = new URL(job.result.archive.url);
  return zipped((await h.app.inject({ method: 'GET', url: u.pathname + u.search })).rawPayload);
}

/** PICTURES_OUT=dir keeps the pictures for a person to look at. */
function keep(name: string, png: Buffer) {
  if (!process.env.PICTURES_OUT) return;
  mkdirSync(process.env.PICTURES_OUT, { recursive: true });
  writeFileSync(`${process.env.PICTURES_OUT}/${name}`, png);
}

const EN = 'feature-graphic.png';
const DE = 'locales/de-DE/feature-graphic.png';
const ZIP_EN = 'android/en-US/images/featureGraphic.png';
const ZIP_DE = 'android/de-DE/images/featureGraphic.png';

describe('feature graphics per locale', () => {
  it('a two-locale Android set has both locales’ graphics (job files and ZIP); a revision keeps both', async () => {
    const screenshots = emptyScreenshots();
    (screenshots as Record<string, unknown>)['android-phone'] = [1, 2].map((n) => ({
      url: images.url('yellow', n),
      width: 392,
      height: 696,
    }));
    const listing = sampleListing({
      store: 'google-play',
      storeId: 'com.pantry',
      screenshots,
      artworkUrl: `${images.origin}/image/thumb/green/icon/512x512bb.png`,
      developer: 'Pantry Labs',
    });
    const appId = await insertApp(h.t.pool, h.account.id, listing);
    const created = await h.app.inject({
      method: 'POST',
      url: '/api/v1/public/v1/screenshots',
      headers: h.auth,
      payload: { appId, device: 'android-phone', count: 2, theme: 'bold', locales: ['en-US', 'de-DE'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const parent = await waitJob(created.json().jobId);
    expect(parent.status, JSON.stringify(parent.error)).toBe('succeeded');

    const before = await graphics(parent.id);
    expect([...before.keys()].sort()).toEqual([EN, DE].sort());
    for (const [name, png] of before) {
      keep(`parent-${name.replaceAll('/', '-')}`, png);
      const meta = await sharp(png).metadata();
      expect([meta.width, meta.height, meta.hasAlpha]).toEqual([1024, 500, false]);
    }
    // Each shows its own locale's hero headline, so the two differ.
    expect(sha256(before.get(EN)!)).not.toBe(sha256(before.get(DE)!));
    // The result's featureGraphic stays the first locale's; each locale names its own.
    expect(parent.result.featureGraphic.sha256).toBe(sha256(before.get(EN)!));
    const byLocale = parent.result.locales.map((l: { featureGraphic: { sha256: string; url: string } }) => l.featureGraphic);
    expect(byLocale.map((g: { sha256: string }) => g.sha256)).toEqual([sha256(before.get(EN)!), sha256(before.get(DE)!)]);
    const linked = new URL(byLocale[1].url);
    expect(sha256((await h.app.inject({ method: 'GET', url: linked.pathname + linked.search })).rawPayload)).toBe(sha256(before.get(DE)!));
    // Each other locale's is served beside its slides, with the key (as the dashboard's plan thumbnails fetch it, signed).
    const served = await h.app.inject({ method: 'GET', url: `/api/v1/public/v1/jobs/${parent.id}/locales/de-DE/${EN}`, headers: h.auth });
    expect(served.statusCode).toBe(200);
    expect(sha256(served.rawPayload)).toBe(sha256(before.get(DE)!));
    const zip = await zipOf(parent);
    expect(sha256(zip.get(ZIP_EN)!)).toBe(sha256(before.get(EN)!));
    expect(sha256(zip.get(ZIP_DE)!)).toBe(sha256(before.get(DE)!));

    // Only de-DE's first headline changes: en-US keeps its graphic's bytes, de-DE's is drawn again.
    const revised = await h.app.inject({
      method: 'POST',
      url: `/api/v1/public/v1/jobs/${parent.id}/revisions`,
      headers: h.auth,
      payload: { slides: [{ index: 1, locale: 'de-DE', headline: 'Plane den Tag' }] },
    });
    expect(revised.statusCode, revised.body).toBe(201);
    const child = await waitJob(revised.json().jobId);
    expect(child.status, JSON.stringify(child.error)).toBe('succeeded');
    const after = await graphics(child.id);
    expect([...after.keys()].sort()).toEqual([EN, DE].sort());
    keep(`revised-${DE.replaceAll('/', '-')}`, after.get(DE)!);
    expect(sha256(after.get(EN)!)).toBe(sha256(before.get(EN)!));
    expect(sha256(after.get(DE)!)).not.toBe(sha256(before.get(DE)!));
    const childZip = await zipOf(child);
    expect(sha256(childZip.get(ZIP_EN)!)).toBe(sha256(after.get(EN)!));
    expect(sha256(childZip.get(ZIP_DE)!)).toBe(sha256(after.get(DE)!));
  });
});
