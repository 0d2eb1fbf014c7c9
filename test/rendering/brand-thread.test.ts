/**
 * The feature graphic and the store preview are drawn on a rendering thread, not on the thread
 * that serves HTTP, and come out the same there as drawn here.
 */
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { accessible } from '../../src/brand/palette.ts';
import { DEFAULT_BRAND_KIT } from '../../src/brand/kit.ts';
import { DRAW_HERE } from '../../src/sets/brand-pictures.ts';
import { keysOnlyStore, renderPlannedSet } from './support.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { RenderPool } from '../../src/rendering/index.ts';
import type { BrandTask, RenderInput, RenderOptions } from '../../src/rendering/types.ts';
import { emptyScreenshots } from '../../src/core/listing.ts';
import { solidPng } from '../support/fake-images.ts';
import { sampleListing } from '../support/fixtures.ts';

const pool = new RenderPool({ threads: 2 });
afterAll(() => pool.close());

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const palette = accessible('#0F766E', '#134E4A');

describe('brand pictures on a rendering thread', () => {
  it('draws the feature graphic and the store preview as this thread does, byte for byte', async () => {
    const icon = await solidPng(512, 512, 'orange');
    const slides = await Promise.all(['red', 'green', 'blue'].map((c) => solidPng(1290, 2796, c)));
    const tasks: BrandTask[] = [
      { kind: 'feature-graphic', input: { name: 'Pantry', headline: 'Plan every meal', palette, icon } },
      { kind: 'store-preview', input: { store: 'app-store', name: 'Pantry', subtitle: 'Food & Drink', palette, icon, slides } },
    ];
    for (const task of tasks) {
      const there = await pool.drawBrand(task);
      expect(there.subarray(1, 4).toString()).toBe('PNG');
      expect(sha(there)).toBe(sha(await DRAW_HERE.drawBrand(task)));
    }
  });

  it("a set's brand pictures go to the renderer's threads when it has them", async () => {
    const planned = planScreenshotSet({
      listings: [sampleListing({ store: 'google-play', storeId: 'com.pantry', screenshots: emptyScreenshots() })],
      extraContext: null,
      request: { device: 'android-phone', count: 3 },
    });
    const stored: string[] = [];
    const objects = keysOnlyStore(stored, async () => Buffer.alloc(0));
    const drawn: string[] = [];
    const renderer = {
      renderSlides: pool.renderSlides.bind(pool),
      renderSome: pool.renderSome.bind(pool),
      drawBrand: (task: BrandTask) => {
        drawn.push(task.kind);
        return pool.drawBrand(task);
      },
    };
    const brand = {
      theme: 'soft' as const,
      palette,
      source: 'icon' as const,
      kit: DEFAULT_BRAND_KIT,
      icon: solidPng(512, 512, 'orange'),
      warning: null,
    };
    const done = await renderPlannedSet(planned, objects, renderer, { brand, appName: 'Pantry', subtitle: 'Pantry Labs' });
    expect(drawn.sort()).toEqual(['feature-graphic', 'store-preview']);
    expect(done.files.map((f) => f.name)).toEqual(expect.arrayContaining(['feature-graphic.png', 'store-preview.png']));
  });

  it('draws the store preview once the first three slides are drawn, not after the last', async () => {
    const planned = planScreenshotSet({
      listings: [sampleListing({ store: 'google-play', storeId: 'com.pantry', screenshots: emptyScreenshots() })],
      extraContext: null,
      request: { device: 'android-phone', count: 6 },
    });
    const objects = keysOnlyStore([], async () => Buffer.alloc(0));
    const events: string[] = [];
    const renderer = {
      // The pool's slides, handed over one by one in their order: when the preview is asked for
      // is then the same on every run.
      renderSlides: async (input: RenderInput, opts: RenderOptions = {}) => {
        const rendered = await pool.renderSlides(input, { signal: opts.signal });
        for (const [index, r] of rendered.entries()) {
          // A turn of the event loop between slides, as the pool's own hand-overs have.
          await new Promise((resolve) => setImmediate(resolve));
          events.push(`slide ${index}`);
          opts.onSlide?.(index + 1, rendered.length, { index, rendered: r });
        }
        return rendered;
      },
      renderSome: pool.renderSome.bind(pool),
      drawBrand: (task: BrandTask) => {
        events.push(task.kind);
        return pool.drawBrand(task);
      },
    };
    const brand = {
      theme: 'soft' as const,
      palette,
      source: 'icon' as const,
      kit: DEFAULT_BRAND_KIT,
      icon: solidPng(64, 64, 'orange'),
      warning: null,
    };
    const done = await renderPlannedSet(planned, objects, renderer, { brand, appName: 'Pantry', subtitle: 'Pantry Labs' });
    expect(events.filter((e) => e.startsWith('slide'))).toHaveLength(6);
    expect(events.indexOf('store-preview')).toBe(events.indexOf('slide 2') + 1);
    expect(done.files.map((f) => f.name)).toContain('store-preview.png');
  });
});
