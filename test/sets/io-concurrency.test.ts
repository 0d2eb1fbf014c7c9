/** A set's screens are read and its pictures stored at most IO_CONCURRENCY at once (p-limit). */
import { fakeRenderer } from '../support/fake-renderer.ts';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ObjectStore } from '../../src/objects/index.ts';
import { IO_CONCURRENCY, renderPictures } from '../../src/sets/render.ts';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { emptyScreenshots } from '../../src/core/listing.ts';
import { solidPng } from '../support/fake-images.ts';
import { sampleListing } from '../support/fixtures.ts';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('renderPictures I/O', () => {
  it('never has more than IO_CONCURRENCY reads or writes in flight, and still uses that many', async () => {
    const png = await solidPng(1320, 2868, 'red');
    const screen = await solidPng(1290, 2796, 'blue');
    const counts = { reads: 0, maxReads: 0, writes: 0, maxWrites: 0, stored: [] as string[] };
    const objects = {
      async get() {
        counts.maxReads = Math.max(counts.maxReads, ++counts.reads);
        await pause(20);
        counts.reads--;
        return { body: Readable.from([screen]), bytes: screen.length };
      },
      async put(key: string) {
        counts.maxWrites = Math.max(counts.maxWrites, ++counts.writes);
        await pause(20);
        counts.writes--;
        counts.stored.push(key);
      },
    } as unknown as ObjectStore;
    const uploaded = Array.from({ length: 10 }, (_, i) => ({
      screenId: `scr_${i}`,
      family: 'iphone' as const,
      objectKey: `screens/${i}.png`,
    }));
    const db = {
      query: async (_sql: string, params: unknown[]) => ({
        rows: (params[0] as string[]).map((id) => ({ id, family: 'iphone', object_key: `screens/${id}.png` })),
      }),
    };
    const planned = planScreenshotSet({
      listings: [sampleListing({ screenshots: emptyScreenshots() })],
      extraContext: null,
      request: { device: 'iphone-69', count: 6 },
    });
    expect(planned.slides.length).toBeGreaterThan(IO_CONCURRENCY);
    const rendered = await renderPictures(
      {
        db: db as never,
        objects,
        renderer: fakeRenderer(({ slides }) => slides.map(() => png)),
        storeImageOrigins: [],
        now: () => new Date(),
      },
      { id: 'job_1', accountId: 'acc_1', appId: 'app_1', attempt: 1, device: 'iphone-69', screenIds: null },
      planned,
      uploaded,
      'en-US',
      { signal: new AbortController().signal, progress: () => undefined },
    );
    expect(rendered.files).toHaveLength(planned.slides.length + 1);
    expect(counts.stored).toHaveLength(planned.slides.length + 1);
    expect(counts.maxWrites).toBe(IO_CONCURRENCY);
    expect(counts.maxReads).toBe(IO_CONCURRENCY);
  });
});
