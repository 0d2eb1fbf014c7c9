/**
 * The readers against real store responses recorded by others (see MANIFEST.md in that folder).
 * The recordings live outside the repository; without them this tier is skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { parseAppStoreLookupBody } from '../../src/stores/app-store.ts';
import { parseGooglePlayDetailsPage } from '../../src/stores/google-play.ts';
import { createStoreReaders } from '../../src/stores/index.ts';
import type { Listing } from '../../src/core/listing.ts';
import { Problem } from '../../src/core/problem.ts';
import { startFakeStore, type FakeStore } from '../support/fake-store.ts';
import { tier } from '../support/tiers.ts';
import { scaled } from '../support/timing.ts';

const root = path.resolve(process.cwd(), '../shared/fixtures/stores');
const recordings = tier('store recordings', { available: fs.existsSync(root), missing: `${root} not found` });

const files = (dir: string, ext: string) => {
  const full = path.join(root, dir);
  return fs.existsSync(full)
    ? fs
        .readdirSync(full)
        .filter((f) => f.endsWith(ext))
        .map((f) => path.join(full, f))
    : [];
};
const read = (file: string) => fs.readFileSync(file, 'utf8');

function expectIcon(url: string) {
  expect(url).toMatch(/^https:\/\//);
  expect(url).toMatch(/512/);
  expect(() => new URL(url)).not.toThrow();
}

function expectUsable(l: Listing) {
  expect(l.name.trim()).not.toBe('');
  expect(l.category.trim()).not.toBe('');
  expectIcon(l.artworkUrl);
  for (const shots of Object.values(l.screenshots)) {
    for (const s of shots) expect(s.url).toMatch(/^https:\/\//);
  }
}

recordings('store recordings', () => {
  describe('App Store lookups', () => {
    const lookups = [...files('appstore/lookup', '.json'), ...files('appstore/derived-lookup', '.json')];
    const isAppBody = (json: Record<string, unknown>) => Array.isArray(json.results) && json.results.length > 0;

    it('has recordings to check', () => {
      expect(lookups.length).toBeGreaterThan(0);
    });

    it.each(lookups.map((f) => [path.relative(root, f), f]))('%s', (_name, file) => {
      const body = read(file);
      const json = JSON.parse(body.trim()) as Record<string, unknown>;
      if (!isAppBody(json)) {
        // The not-found (resultCount 0) and invalid-id (errorMessage) recordings.
        let error: unknown;
        try {
          parseAppStoreLookupBody(body, { id: '1', country: 'us' });
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(Problem);
        expect((error as Problem).code).toBe('store_app_not_found');
        return;
      }
      const result = (json.results as Array<Record<string, unknown>>)[0];
      const l = parseAppStoreLookupBody(body, { id: String(result.trackId), country: 'us' });
      expectUsable(l);
      expect(l.name).toBe(result.trackName);
      expect(l.category).toBe(result.primaryGenreName);
      expect(l.storeId).toBe(String(result.trackId));
      // A description in the recording is never lost (the parser may find one elsewhere too).
      const described = typeof result.description === 'string' && result.description.trim() !== '';
      expect(!described || l.description !== '').toBe(true);
      const has = (v: unknown) => Array.isArray(v) && v.length > 0;
      const isMac = result.kind === 'mac-software';
      expect(l.screenshots.iphone.length > 0).toBe(has(result.screenshotUrls) && !isMac);
      expect(l.screenshots.ipad.length > 0).toBe(has(result.ipadScreenshotUrls) && !isMac);
      expect(l.rating).toBe(typeof result.averageUserRating === 'number' ? result.averageUserRating : null);
      expect(l.price).toBe(result.price ?? 0);
    });
  });

  describe('Google Play details pages', () => {
    const pages = files('googleplay/details', '.html');
    const blobs = files('googleplay/ds-blobs', '.json');

    it('has recordings to check', () => {
      expect(pages.length).toBeGreaterThan(0);
    });

    it.each(pages.map((f) => [path.basename(f), f]))('%s', (name, file) => {
      const id = name.split('_')[0];
      const warnings: object[] = [];
      const l = parseGooglePlayDetailsPage(read(file), { id, country: 'us', language: 'en' }, { warn: (o) => void warnings.push(o) });
      expect(warnings).toEqual([]);
      expectUsable(l);
      expect(l.storeId).toBe(id);
      expect(l.categoryId).toMatch(/^[A-Z_]+$/);
      expect(l.developer).not.toBeNull();
      expect(l.currency).toMatch(/^[A-Z]{3}$/);

      // Cross-check against the page's own JSON-LD, extracted separately into ds-blobs/.
      const ldFile = blobs.find((b) => path.basename(b) === name.replace(/\.html$/, '.ld+json.json'));
      if (ldFile) {
        const ld = JSON.parse(read(ldFile)) as {
          name: string;
          applicationCategory: string;
          description?: string;
          offers?: Array<{ price: string }>;
        };
        expect(l.name).toBe(ld.name);
        expect(l.categoryId).toBe(ld.applicationCategory);
        expect(!ld.description || l.description !== '').toBe(true);
        // Without an offer the listing is free.
        expect(l.price).toBeCloseTo(ld.offers?.[0] ? Number(ld.offers[0].price) : 0, 2);
      }

      // Every screenshot in the details block lands in exactly one Android family.
      const blobFile = blobs.find((b) => /\.ds\d+\.json$/.test(b) && path.basename(b).startsWith(name.replace(/\.html$/, '.')));
      const android = l.screenshots['android-phone'].length + l.screenshots['android-tablet'].length;
      if (blobFile) {
        const shots = (JSON.parse(read(blobFile)) as unknown[][][])[1][2][78] as unknown[][] | null;
        expect(android).toBe(shots?.[0]?.length ?? 0);
      }
      expect(l.screenshots.iphone.length + l.screenshots.ipad.length).toBe(0);
    });

    describe('served by the fake store', () => {
      let store: FakeStore;
      beforeAll(async () => {
        store = await startFakeStore();
      });
      afterAll(async () => {
        await store.close();
      });

      it.each(files('googleplay/errors', '.html').map((f) => [path.basename(f), f]))(
        '%s served as 404 is store_app_not_found',
        async (_name, file) => {
          store.set('google-play', 'com.example.missing', { status: 404, body: read(file) });
          const readers = createStoreReaders({
            appStoreLookupUrl: store.appStoreLookupUrl,
            googlePlayUrl: store.googlePlayUrl,
            timeoutMs: scaled(2000),
            cacheTtlMs: 0,
          });
          const error = await readers.readGooglePlay({ id: 'com.example.missing', country: 'us', language: 'en' }).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(Problem);
          expect((error as Problem).code).toBe('store_app_not_found');
        },
      );

      it.each(
        files('appstore/lookup', '.json')
          .filter((f) => /http400/.test(f))
          .map((f) => [path.basename(f), f]),
      )('%s served as 400 is store_app_not_found', async (_name, file) => {
        store.set('app-store', '42', { status: 400, body: read(file) });
        const readers = createStoreReaders({
          appStoreLookupUrl: store.appStoreLookupUrl,
          googlePlayUrl: store.googlePlayUrl,
          timeoutMs: scaled(2000),
          cacheTtlMs: 0,
        });
        const error = await readers.readAppStore({ id: '42', country: 'us' }).catch((e: unknown) => e);
        expect((error as Problem).code).toBe('store_app_not_found');
      });

      it.each(pages.map((f) => [path.basename(f), f]))('%s read end to end', async (name, file) => {
        const id = name.split('_')[0];
        store.set('google-play', id, { body: read(file) });
        const readers = createStoreReaders({
          appStoreLookupUrl: store.appStoreLookupUrl,
          googlePlayUrl: store.googlePlayUrl,
          timeoutMs: scaled(5000),
          cacheTtlMs: 0,
        });
        expectUsable(await readers.readGooglePlay({ id, country: 'us', language: 'en' }));
      });
    });
  });
});
