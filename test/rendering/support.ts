/** Slides and screens for the rendering tests, made here so the tests need no fixture files. */
import { Readable } from 'node:stream';
import sharp from 'sharp';
import type { ObjectStore } from '../../src/objects/index.ts';
import type { BrandPictureInput } from '../../src/sets/brand-pictures.ts';
import { renderPictures, type PictureDeps } from '../../src/sets/render.ts';
import type { ScreenshotSetResult, Slide } from '../../src/core/set.ts';

export function slide(index: number, headline: string, layout: string, extra: Partial<Slide> = {}): Slide {
  return {
    index,
    role: index === 0 ? 'hero' : 'feature',
    headline,
    subheadline: null,
    keywords: [],
    screenshotUrl: layout === 'text-only' ? null : `https://example.com/${index}.png`,
    layout,
    background: { colors: ['#4F46E5', '#7C3AED'] },
    textColor: '#FFFFFF',
    ...extra,
  };
}

/** A recognisable fake app screen: a coloured page with cards, as PNG bytes. */
export function screen(width = 660, height = 1434, colour = '#3B82F6'): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="${colour}"/>
    <rect x="6%" y="10%" width="88%" height="14%" rx="24" fill="#FFFFFF"/>
    <rect x="6%" y="28%" width="88%" height="55%" rx="24" fill="#DBEAFE"/>
    <circle cx="50%" cy="92%" r="4%" fill="#F59E0B"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * renderPictures for one planned set with no database and the given store and renderer: what the
 * worker does with a job's set, minus the job.
 */
export function renderPlannedSet(
  planned: ScreenshotSetResult,
  objects: ObjectStore,
  renderer: PictureDeps['renderer'],
  brand: BrandPictureInput | null = null,
) {
  return renderPictures(
    { db: { query: async () => ({ rows: [] }) } as never, objects, renderer, storeImageOrigins: [], now: () => new Date() },
    { id: 'job_1', accountId: 'acc_1', appId: 'app_1', attempt: 1, device: planned.device, screenIds: null },
    planned,
    [],
    'en-US',
    { signal: new AbortController().signal, progress: () => {} },
    brand,
  );
}

/** An object store that keeps only the keys it was given, in order. */
export function keysOnlyStore(stored: string[], get: () => Promise<Buffer>): ObjectStore {
  return {
    async get() {
      return { body: Readable.from([await get()]), bytes: 0 };
    },
    async put(key: string) {
      stored.push(key);
    },
  } as unknown as ObjectStore;
}
