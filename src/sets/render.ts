/**
 * The pictures of a planned set: pick each slide's screen (CONTRACT: the request's screenIds, else
 * the app's uploaded screens of the device's family, else the listing's screenshots), fetch or read
 * the screens, render every slide on the rendering threads, store the PNGs and the ZIP. Returns
 * the plan as completed (screens chosen) and the files to record with the job's completion.
 *
 * Files of attempt n live under jobs/<id>/a<n>/: an abandoned attempt that wakes up late writes
 * beside the winner's files, never over them.
 */
import { crc32 } from 'node:zlib';
import type { Queryable } from '../db/pool.ts';
import type { ObjectStore } from '../objects/index.ts';
import { layoutFor } from '../planning/look.ts';
import { DEVICES, type Device, type Size } from '../core/devices.ts';
import { orientationOf, ownOrientation, slideSize, type Orientation } from '../core/orientation.ts';
import { type ScreenshotSetResult, type Slide } from '../core/set.ts';
import { checkStoreRules, type RenderedSlide, type RenderPool, type SlideLint } from '../rendering/index.ts';
import { themeFor, type BrandColors, type ThemeId } from '../core/themes.ts';
import { lintWarnings } from '../rendering/warnings.ts';
import { familyScreens, screenObjects, type ScreenObject } from '../screens/screens.ts';
import { fetchStoreImage } from '../screens/store-images.ts';
import type { DrawnColours, SetBrand } from '../brand/resolve.ts';
import { lookOf } from '../rendering/themes.ts';
import { accentOf } from '../rendering/accent.ts';
import type { SlideLook } from '../rendering/types.ts';
import { featureGraphics, started, storePreview, type BrandDrawer, type BrandFiles, type BrandPictureInput } from './brand-pictures.ts';
import { PREVIEW_SLIDES } from '../rendering/store-preview.ts';
import { buildArchive, storeArchive, type ArchiveSlide } from './archive.ts';
import { keepPicture, slideFileName, type JobFile } from './files.ts';
import pLimit from 'p-limit';

/**
 * Screens read and pictures stored at most this many at once (p-limit): a 10-slide set in three
 * locales is 31 objects, and a listing's screenshots all come from one store CDN.
 */
export const IO_CONCURRENCY = 4;

export interface PictureJob {
  id: string;
  accountId: string;
  appId: string;
  attempt: number;
  device: Device;
  /** The request's screenIds, in order; null when it named none. */
  screenIds: string[] | null;
  /** The set's look and the app's colours (the brand's half of the plumbing fills them). */
  theme?: ThemeId;
  brand?: BrandColors;
}

export interface PictureDeps {
  db: Queryable;
  objects: ObjectStore;
  /** With drawBrand (a RenderPool), the feature graphic and store preview are drawn on its threads too. */
  renderer: Pick<RenderPool, 'renderSlides' | 'renderSome'> & Partial<BrandDrawer> & Partial<Pick<RenderPool, 'fit'>>;
  storeImageOrigins: string[];
  /** How long one listing screenshot may take to arrive (default 15 s). */
  storeImageTimeoutMs?: number;
  now(): Date;
}

export interface Rendered {
  result: ScreenshotSetResult;
  files: JobFile[];
}

export const attemptPrefix = (jobId: string, attempt: number) => `jobs/${jobId}/a${attempt}`;

/** The screens this job may frame, before planning: what the request named, or the family's uploads. */
export async function uploadedScreensFor(db: Queryable, job: PictureJob): Promise<ScreenObject[]> {
  if (job.screenIds) return screenObjects(db, job.accountId, job.appId, job.screenIds);
  return familyScreens(db, job.accountId, job.appId, DEVICES[job.device].family);
}

/** Slide i frames uploaded screen i (cycling); a slide with its own screenId keeps it. */
export function frameUploadedScreens(slides: Slide[], uploaded: ScreenObject[]): Slide[] {
  if (uploaded.length === 0) return slides;
  return slides.map((s, i) => {
    if (s.screenId) return s;
    const layout = s.layout === 'text-only' ? layoutFor(s.role, i, true) : s.layout;
    return { ...s, screenId: uploaded[i % uploaded.length].screenId, screenshotUrl: null, layout };
  });
}

// The planner's words about the listing's screenshots (missing, landscape, borrowed from another
// family) do not apply to a set that frames the user's own screens.
const LISTING_SCREENSHOT_WARNING =
  /^(The listing has (no |\d+ screenshots? for)|The listing's .+ screenshots are all|\d+ of the listing's)/;

function applyScreens(result: ScreenshotSetResult, uploaded: ScreenObject[]): ScreenshotSetResult {
  if (uploaded.length === 0) return result;
  const framed = result.slides.filter((s) => !s.screenId).length;
  const repeats =
    uploaded.length < framed
      ? [
          `${uploaded.length} of your screens for ${framed} slides, so some appear twice; upload more screens of this family for a set without repeats.`,
        ]
      : [];
  return {
    ...result,
    warnings: [...result.warnings.filter((w) => !LISTING_SCREENSHOT_WARNING.test(w)), ...repeats],
    slides: frameUploadedScreens(result.slides, uploaded),
    ...(result.locales
      ? {
          locales: result.locales.map((l) => ({
            ...l,
            warnings: l.warnings.filter((w) => !LISTING_SCREENSHOT_WARNING.test(w)),
            slides: frameUploadedScreens(l.slides, uploaded),
          })),
        }
      : {}),
  };
}

/**
 * A screen's bytes in shared memory, filled chunk by chunk as they arrive. Posted to a rendering
 * thread for each slide that shows it, a shared buffer is not copied, where a 1.5 MB screen cost
 * the thread that answers HTTP ~5 ms a slide in the clone (and as much again joining the chunks).
 */
async function readShared(objects: ObjectStore, key: string): Promise<Buffer> {
  const found = await objects.get(key);
  if (!found) throw new Error(`object ${key} is missing`);
  const out = Buffer.from(new SharedArrayBuffer(found.bytes));
  let at = 0;
  for await (const chunk of found.body as AsyncIterable<Buffer>) {
    if (at + chunk.length > out.length) throw new Error(`object ${key} is longer than the ${found.bytes} bytes it was stored with`);
    out.set(chunk, at);
    at += chunk.length;
  }
  if (at !== out.length) throw new Error(`object ${key} ended after ${at} of its ${found.bytes} bytes`);
  return out;
}

/** A fetched screen, copied once into shared memory for the same reason. */
function shared(bytes: Buffer): Buffer {
  const out = Buffer.from(new SharedArrayBuffer(bytes.length));
  out.set(bytes);
  return out;
}

/** Uploaded screens' bytes being read, by object key. */
export type EarlyScreens = ReadonlyMap<string, Promise<Buffer>>;

/**
 * The bytes of `screens`, read now (IO_CONCURRENCY at a time) for loadScreens to take later: the
 * screens a set will most likely frame, read while it is planned instead of after (~15 ms of a
 * 10-slide set's wall time on the bench). A failed read fails the set only if it frames that screen.
 */
export function readScreensEarly(objects: ObjectStore, screens: readonly ScreenObject[]): EarlyScreens {
  const io = pLimit(IO_CONCURRENCY);
  return new Map(screens.map((s) => [s.objectKey, started(io(() => readShared(objects, s.objectKey)))]));
}

/** Each distinct screen once: an uploaded screen's bytes, or a listing screenshot at full size. */
export async function loadScreens(
  deps: Omit<PictureDeps, 'renderer' | 'now'>,
  job: PictureJob,
  slides: Slide[],
  signal: AbortSignal,
  early?: EarlyScreens,
): Promise<(Buffer | null)[]> {
  const ids = [...new Set(slides.map((s) => s.screenId).filter((id): id is string => !!id))];
  const keys = new Map((await screenObjects(deps.db, job.accountId, job.appId, ids)).map((s) => [s.screenId, s.objectKey]));
  const cache = new Map<string, Promise<Buffer>>(early);
  const io = pLimit(IO_CONCURRENCY);
  const once = (k: string, load: () => Promise<Buffer>) => {
    if (!cache.has(k)) cache.set(k, io(load));
    return cache.get(k)!;
  };
  return Promise.all(
    slides.map((s) => {
      if (s.screenId) {
        const key = keys.get(s.screenId);
        if (!key) throw new Error(`screen ${s.screenId} is missing`);
        return once(key, () => readShared(deps.objects, key));
      }
      if (s.screenshotUrl)
        return once(s.screenshotUrl, () =>
          fetchStoreImage(s.screenshotUrl!, { origins: deps.storeImageOrigins, timeoutMs: deps.storeImageTimeoutMs, signal }).then(shared),
        );
      return null;
    }),
  );
}

/**
 * The text and background colours the slides are drawn in, from the renderer's own lookOf with the
 * brand's colours and theme, as renderPictures passes them: with a brand the look is the same on
 * every slide, so the first one stands for the set. The result's `brand` reports these, not the
 * palette's (the dark theme draws #F5F7FA; soft lightens the background, which can take dark ink).
 */
export function drawnColours(brand: Pick<SetBrand, 'theme' | 'palette'>, first: Slide | undefined): DrawnColours {
  const colours = brandColours(brand.palette);
  const slide = first ?? { headline: '', subheadline: null, layout: 'headline-top', background: { colors: [] }, textColor: '' };
  const look = lookOf(brand.theme, slide as SlideLook, colours);
  const accent = accentOf(look.theme, colours, look.text, look.stops);
  return { textColor: look.text, background: look.stops, ...(accent ? { accent: accent.color, accentStyle: accent.style } : {}) };
}

/** The colours the renderer takes from a palette: the accent only when the brand has one. */
const brandColours = (p: SetBrand['palette']) => ({
  primary: p.primary,
  secondary: p.secondary,
  ...(p.accent ? { accent: p.accent } : {}),
});

/** What the renderer takes from the set's brand. */
const renderLook = async (brand: SetBrand) => ({
  theme: brand.theme,
  brand: brandColours(brand.palette),
  panoramic: themeFor(brand.theme).acrossSet,
  font: brand.kit.font,
  badge: brand.kit.iconBadge ? await brand.icon : null,
});

export async function renderPictures(
  deps: PictureDeps,
  job: PictureJob,
  planned: ScreenshotSetResult,
  uploaded: ScreenObject[],
  defaultLocale: string,
  ctx: { signal: AbortSignal; progress(done: number, total: number): void },
  brandInput: BrandPictureInput | null = null,
  /** Screens' bytes already being read (readScreensEarly), by object key. */
  early?: EarlyScreens,
): Promise<Rendered> {
  const brandPictures = brandInput && { ...brandInput, drawer: brandDrawer(deps.renderer) };
  const brand = brandPictures?.brand ?? null;
  const result = applyScreens(planned, uploaded);
  const sets = result.locales
    ? result.locales.map((l, i) => ({ locale: l.locale, slides: l.slides, fileLocale: i === 0 ? null : l.locale }))
    : [{ locale: defaultLocale, slides: result.slides, fileLocale: null }];
  const look = brand ? await renderLook(brand) : null;
  const icon = brand ? await brand.icon : null;
  // The plan's size: the device's own, or the one the request asked for (a Mac's 2560×1600).
  const size = { width: result.width, height: result.height };
  const sized = sizingOf(job.device, size);
  const inputOf = (set: (typeof sets)[number]) => ({
    device: job.device,
    slides: set.slides,
    theme: job.theme,
    brand: job.brand,
    icon,
    locale: set.locale,
    ...(brand ? look : {}),
    ...sized,
    ...(result.rating ? { rating: result.rating } : {}),
  });
  // The first locale's type sizes are fitted on a thread while its screens are read: one after
  // the other, the fit (~10 ms) came between the last screen read and the first slide.
  const fitted = deps.renderer.fit ? started(deps.renderer.fit(inputOf(sets[0]), { signal: ctx.signal })) : undefined;
  // Every locale has the same screens in the same places: load them once.
  const screens = await loadScreens(deps, job, sets[0].slides, ctx.signal, early);
  const total = sets.reduce((n, s) => n + s.slides.length, 0);
  let done = 0;
  ctx.progress(0, total);

  const prefix = attemptPrefix(job.id, job.attempt);
  const files: JobFile[] = [];
  const archived: ArchiveSlide[] = [];
  const graphics = brandPictures
    ? started(
        featureGraphics(
          deps.objects,
          prefix,
          job.device,
          sets.map((set) => ({ locale: set.locale, headline: set.slides[0]?.headline ?? '' })),
          brandPictures,
        ),
      )
    : null;
  let preview: Promise<BrandFiles> | null = null;
  const lints = new Map<string, SlideLint[]>();
  const io = pLimit(IO_CONCURRENCY);
  for (const set of sets) {
    const store = (i: number, { bytes, format, lint, digest }: RenderedSlide) =>
      io(async () => {
        const slide = set.slides[i];
        // Never deliver a picture a store would refuse (size, alpha, bytes): that is our bug, not the user's.
        // The rendering thread checked these bytes (lint.problems) when it digested them; checking
        // again here read every chunk's CRC of the file on the thread that answers HTTP.
        const broken = digest ? lint.problems : checkStoreRules(bytes, job.device);
        if (broken.length) throw new Error(`slide ${slide.index} breaks the store rules: ${broken.join('; ')}`);
        const kept = await keepSlide(deps.objects, prefix, job.device, set, slide, { bytes, format, digest }, size);
        files.push(kept.file);
        archived.push(kept.entry);
      });
    // Each slide is stored as soon as it is drawn, while the threads draw the others: the set is
    // done when its last slide is stored, not after every slide's upload waited for the slowest
    // drawing. Handled at once (a failed store is awaited below, or after a failed render).
    const storing = new Map<number, Promise<void>>();
    // The store preview shows the first locale's first slides: it is drawn as soon as they are,
    // on a thread the set's last slides leave free, rather than after the last one (it took
    // ~70 ms of a thread, ~15 % of a 10-slide set's wall time, with both threads idle but one).
    const previewed = Math.min(PREVIEW_SLIDES, set.slides.length);
    const firsts = new Map<number, Buffer>();
    const startPreview = (pngs: Buffer[]) => {
      if (brandPictures && !preview) preview = started(storePreview(deps.objects, prefix, job.device, pngs, brandPictures));
    };
    const onSlide = (_done: number, _total: number, got?: { index: number; rendered: RenderedSlide }) => {
      ctx.progress(++done, total);
      if (!got) return;
      const stored = store(got.index, got.rendered);
      stored.catch(() => {});
      storing.set(got.index, stored);
      if (got.index < previewed) firsts.set(got.index, got.rendered.bytes);
      if (firsts.size === previewed) startPreview(Array.from({ length: previewed }, (_, i) => firsts.get(i)!));
    };
    let rendered: RenderedSlide[];
    try {
      rendered = await deps.renderer.renderSlides(
        { ...inputOf(set), screens },
        { signal: ctx.signal, onSlide, ...(set === sets[0] && fitted ? { metrics: fitted } : {}) },
      );
    } catch (error) {
      await Promise.allSettled(storing.values());
      throw error;
    }
    lints.set(
      set.locale,
      rendered.map((r) => r.lint),
    );
    // A renderer that does not hand over its slides one by one (a test's): from the whole set.
    startPreview(rendered.map((r) => r.bytes));
    // A renderer that does not hand over its slides one by one (a test's) has them stored here.
    await Promise.all(rendered.map((r, i) => storing.get(i) ?? store(i, r)));
  }
  const linted = withLint(result, sets[0].locale, lints);
  ctx.signal.throwIfAborted();
  // The ZIP holds the feature graphics (drawn first, long done) but not the store preview: it is
  // written while the preview may still be drawn, not after it.
  const drawnGraphics = await graphics;
  archived.sort((a, b) => a.locale.localeCompare(b.locale) || a.index - b.index);
  const zip = buildArchive(job.device, archived, linted, deps.now(), drawnGraphics?.archive ?? []);
  const [archive, drawnPreview] = await Promise.all([storeArchive(deps.objects, prefix, zip), preview as Promise<BrandFiles> | null]);
  files.push(...(drawnGraphics?.files ?? []), ...(drawnPreview?.files ?? []), archive);
  return { result: linted, files };
}

/**
 * What the renderer is told of a set's size: a landscape set's slides are drawn turned
 * (orientation), and a size other than the drawn one (a Mac's 2560×1600) is scaled to.
 */
export function sizingOf(device: Device, size: Size): { orientation?: Orientation; size?: Size } {
  const orientation = orientationOf(size);
  const drawn = slideSize(device, orientation);
  return {
    ...(orientation !== ownOrientation(device) ? { orientation } : {}),
    ...(size.width !== drawn.width || size.height !== drawn.height ? { size } : {}),
  };
}

/** Each slide with its lint, and the lint's findings among the set's warnings. */
function withLint(result: ScreenshotSetResult, first: string, lints: Map<string, SlideLint[]>): ScreenshotSetResult {
  const lintOf = (locale: string, slides: Slide[]) => slides.map((s, i) => ({ ...s, lint: lints.get(locale)?.[i] }));
  const warn = (locale: string, slides: Slide[], warnings: string[]) => [
    ...warnings,
    ...lintWarnings(
      slides.map((s) => s.index),
      lints.get(locale) ?? [],
    ),
  ];
  return {
    ...result,
    slides: lintOf(first, result.slides),
    warnings: warn(first, result.slides, result.warnings),
    ...(result.locales
      ? {
          locales: result.locales.map((l) => ({
            ...l,
            slides: lintOf(l.locale, l.slides),
            warnings: warn(l.locale, l.slides, l.warnings),
          })),
        }
      : {}),
  };
}

/**
 * One rendered slide stored under the attempt's prefix: its file, and its ZIP entry with the CRC-32
 * the rendering thread took (else taken now), a slide at a time (the whole set's 10 MB in one turn
 * at the end held the thread that answers HTTP for ~5 ms). A set and a revision store their slides
 * the same way.
 */
export async function keepSlide(
  objects: ObjectStore,
  prefix: string,
  device: Device,
  set: { locale: string; fileLocale: string | null },
  slide: Pick<Slide, 'index' | 'role'>,
  { bytes, format, digest }: Pick<RenderedSlide, 'bytes' | 'format' | 'digest'>,
  size: Size = DEVICES[device],
): Promise<{ file: JobFile; entry: ArchiveSlide }> {
  const ext = format === 'jpeg' ? 'jpg' : 'png';
  const { width, height } = size;
  const file = await keepPicture(
    objects,
    prefix,
    slideFileName(slide.index, set.fileLocale, ext),
    bytes,
    `image/${format}`,
    { width, height },
    digest?.sha256,
  );
  const entry: ArchiveSlide = {
    locale: set.locale,
    index: slide.index,
    role: slide.role,
    png: bytes,
    ext,
    crc32: digest?.crc32 ?? crc32(bytes),
  };
  return { file, entry };
}

/** The renderer's threads when it can draw brand pictures; else (tests' fakes) this thread. */
export function brandDrawer(renderer: Partial<BrandDrawer>): BrandDrawer | undefined {
  return renderer.drawBrand ? { drawBrand: (task) => renderer.drawBrand!(task) } : undefined;
}
