/**
 * What a set does before its first slide: the screens it will frame are read while it is planned
 * (readScreensEarly), and its type sizes are fitted while its screens are read (renderer.fit).
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ObjectStore } from '../../src/objects/index.ts';
import { loadScreens, readScreensEarly, renderPictures } from '../../src/sets/render.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { emptyScreenshots } from '../../src/core/listing.ts';
import type { RenderInput, RenderOptions, SetMetrics } from '../../src/rendering/types.ts';
import { fakeRenderer } from '../support/fake-renderer.ts';
import { solidPng } from '../support/fake-images.ts';
import { sampleListing } from '../support/fixtures.ts';

const job = { id: 'job_1', accountId: 'acc_1', appId: 'app_1', attempt: 1, device: 'iphone-69' as const, screenIds: null };
const uploaded = [0, 1].map((i) => ({ screenId: `scr_${i}`, family: 'iphone' as const, objectKey: `screens/${i}.png` }));
const db = {
  query: async (_sql: string, params: unknown[]) => ({
    rows: (params[0] as string[]).map((id) => ({ id, family: 'iphone', object_key: `screens/${id.slice(4)}.png` })),
  }),
};

/** An object store that logs each read and serves `bytes` for every key. */
function readsLogged(log: string[], bytes: Buffer): ObjectStore {
  return {
    async get(key: string) {
      log.push(`read ${key}`);
      return { body: Readable.from([bytes]), bytes: bytes.length };
    },
    async put() {},
  } as unknown as ObjectStore;
}

describe('a set before its first slide', () => {
  it('frames the screens read early without reading them again', async () => {
    const log: string[] = [];
    const objects = readsLogged(log, Buffer.from('screen bytes'));
    const early = readScreensEarly(objects, uploaded);
    await Promise.all(early.values());
    expect(log).toEqual(['read screens/0.png', 'read screens/1.png']);
    const slides = [0, 1, 2].map((i) => ({ ...planned().slides[0], index: i, screenId: `scr_${i}` }));
    const screens = await loadScreens(
      { db: db as never, objects, storeImageOrigins: [] },
      job,
      slides,
      new AbortController().signal,
      early,
    );
    // Only the screen not read early is read now.
    expect(log).toEqual(['read screens/0.png', 'read screens/1.png', 'read screens/2.png']);
    expect(screens.map((s) => s?.toString())).toEqual(['screen bytes', 'screen bytes', 'screen bytes']);
  });

  it('asks for the type sizes before reading the screens, and renders with them', async () => {
    const log: string[] = [];
    const objects = readsLogged(log, await solidPng(1290, 2796, 'blue'));
    const png = await solidPng(1320, 2868, 'red');
    const metrics = { headlineSizes: [1] } as unknown as SetMetrics;
    const base = fakeRenderer(({ slides }) => slides.map(() => png));
    let given: Promise<SetMetrics> | undefined;
    const renderer = {
      ...base,
      fit: async (input: Omit<RenderInput, 'screens'>) => {
        log.push(`fit ${input.slides.length} slides`);
        return metrics;
      },
      renderSlides: (input: RenderInput, opts: RenderOptions = {}) => {
        given = opts.metrics;
        return base.renderSlides(input, opts);
      },
    };
    const set = planned();
    await renderPictures(
      { db: db as never, objects, renderer, storeImageOrigins: [], now: () => new Date() },
      job,
      set,
      uploaded,
      'en-US',
      {
        signal: new AbortController().signal,
        progress: () => undefined,
      },
    );
    expect(log[0]).toBe(`fit ${set.slides.length} slides`);
    expect(log.slice(1).every((l) => l.startsWith('read '))).toBe(true);
    expect(await given).toBe(metrics);
  });
});

function planned() {
  return planScreenshotSet({
    listings: [sampleListing({ screenshots: emptyScreenshots() })],
    extraContext: null,
    request: { device: 'iphone-69', count: 3 },
  });
}
