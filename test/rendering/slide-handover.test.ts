/**
 * A set's slides are handed over one by one as the threads finish them, and renderPictures stores
 * each at once instead of waiting for the whole set to be drawn.
 */
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { planScreenshotSet } from '../../src/planning/plan.ts';
import { RenderPool, type RenderedSlide, type RenderInput, type RenderOptions } from '../../src/rendering/index.ts';
import { emptyScreenshots } from '../../src/core/listing.ts';
import { sampleListing } from '../support/fixtures.ts';
import { keysOnlyStore, renderPlannedSet, screen, slide } from './support.ts';

const pool = new RenderPool({ threads: 2 });
afterAll(() => pool.close());

describe('slides handed over as they are drawn', () => {
  it('gives onSlide each slide with its place in the set, the same bytes the set returns', async () => {
    const shot = await screen();
    const slides = [slide(0, 'One', 'headline-top'), slide(1, 'Two', 'text-only'), slide(2, 'Three', 'headline-bottom')];
    const got = new Map<number, RenderedSlide>();
    const all = await pool.renderSlides(
      { device: 'android-phone', slides, screens: [shot, null, shot] },
      { onSlide: (_done, _total, s) => s && got.set(s.index, s.rendered) },
    );
    expect([...got.keys()].sort()).toEqual([0, 1, 2]);
    all.forEach((r, i) => expect(got.get(i)!.bytes.equals(r.bytes)).toBe(true));
  });

  it("hands over each slide's SHA-256 and CRC-32 taken on its thread, which the stored files and ZIP use", async () => {
    const shot = await screen();
    const all = await pool.renderSlides({ device: 'android-phone', slides: [slide(0, 'One', 'headline-top')], screens: [shot] });
    const [r] = all;
    expect(r.digest).toEqual({ sha256: createHash('sha256').update(r.bytes).digest('hex'), crc32: crc32(r.bytes) });
    expect(r.lint.problems).toEqual([]);
    const planned = planScreenshotSet({
      listings: [sampleListing({ screenshots: emptyScreenshots() })],
      extraContext: null,
      request: { device: 'android-phone', count: 3 },
    });
    const stored: string[] = [];
    // A renderer whose digests are wrong: the stored files must carry them, proving they are not taken again.
    const renderer = {
      // No onSlide: the slides are stored as this returns them.
      async renderSlides(input: RenderInput) {
        const drawn = await pool.renderSlides(input);
        return drawn.map((d) => ({ ...d, digest: { sha256: 'f'.repeat(64), crc32: d.digest!.crc32 } }));
      },
      renderSome: pool.renderSome.bind(pool),
    };
    const done = await renderPlannedSet(
      planned,
      keysOnlyStore(stored, () => screen()),
      renderer,
    );
    const slideFiles = done.files.filter((f) => f.name.startsWith('slides/'));
    expect(slideFiles).toHaveLength(3);
    for (const f of slideFiles) expect(f.sha256).toBe('f'.repeat(64));
  });

  it('stores a slide while the others are still being drawn', async () => {
    const planned = planScreenshotSet({
      listings: [sampleListing({ screenshots: emptyScreenshots() })],
      extraContext: null,
      request: { device: 'android-phone', count: 3 },
    });
    const stored: string[] = [];
    const objects = keysOnlyStore(stored, () => screen());
    // The real pool draws every slide; this renderer holds the set back until the first slide
    // it handed over is stored, as a slow last slide would.
    const renderer = {
      async renderSlides(input: RenderInput, opts: RenderOptions = {}) {
        const all = await pool.renderSlides(input);
        opts.onSlide?.(1, all.length, { index: 0, rendered: all[0] });
        // Until the first slide is stored, however long a loaded machine takes: the test's timeout
        // reports a store that never happens while the rest are held back.
        while (stored.length === 0) await new Promise((r) => setTimeout(r, 10));
        all.slice(1).forEach((rendered, i) => opts.onSlide?.(i + 2, all.length, { index: i + 1, rendered }));
        return all;
      },
      renderSome: pool.renderSome.bind(pool),
    };
    // Reaching here at all shows the first slide was stored while the others were held back.
    const done = await renderPlannedSet(planned, objects, renderer);
    // Each slide once (none stored again after the set came back), and the ZIP.
    const slidesStored = stored.filter((k) => !k.endsWith('.zip'));
    expect(new Set(slidesStored).size).toBe(slidesStored.length);
    expect(slidesStored).toHaveLength(planned.slides.length);
    expect(done.files).toHaveLength(planned.slides.length + 1);
  });
});
