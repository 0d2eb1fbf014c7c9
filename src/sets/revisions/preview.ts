/**
 * Previews: one slide (or the store's first three side by side) rendered with unsaved changes, at a
 * reduced size, and never stored. The editor asks for one as the user types, so a preview renders
 * only the slide asked for (sized as its whole set would be), on a thread pool of its own so queued
 * jobs never stand in its way, with the screens it frames kept in memory for the next keystroke.
 * Previews wait for that thread in ./preview-queue.ts: each account a few at a time, in turns, and
 * holding their plan only until their turn.
 */
import { resolveSetBrand } from '../../brand/resolve.ts';
import type { BrandColors, BrandFontId } from '../../core/themes.ts';
import sharp from 'sharp';
import { findApp, appNotFound, listingsOf } from '../../apps/apps.ts';
import type { Queryable } from '../../db/pool.ts';
import { isId } from '../../core/ids.ts';
import { ObjectStoreUnavailable, type ObjectStore } from '../../objects/index.ts';
import { loadScreens, sizingOf } from '../render.ts';
import { fileLocale } from '../archive.ts';
import { layoutFor, paletteFor } from '../../planning/look.ts';
import { primaryListing } from '../../core/listing.ts';
import { DEVICES, type Device } from '../../core/devices.ts';
import { slideSize, type Orientation } from '../../core/orientation.ts';
import { type ScreenshotSetResult, type Slide } from '../../core/set.ts';
import type { RenderPool } from '../../rendering/index.ts';
import { validationFailed } from '../../core/problem.ts';
import { checkScreenIds } from '../../screens/screens.ts';
import type { ThemeId } from '../../core/themes.ts';
import { DEFAULT_THEME, themeFor } from '../../core/themes.ts';
import { captionFit } from './caption-fit.ts';
import { PreviewQueue, type PreviewQueueOptions } from './preview-queue.ts';
import { applyChanges, changeErrors } from './edit.ts';
import { revisableJob, themeOf } from './revisions.ts';
import type { SlideChanges } from './types.ts';

/** A preview is a third of the device's width: enough to judge a caption, a tenth of the pixels to encode. */
export const PREVIEW_SCALE = 1 / 3;
const STORE_PREVIEW_SLIDES = 3;
const CACHED_SCREENS = 32;

export interface PreviewDeps {
  db: Queryable;
  objects: ObjectStore;
  renderer: Pick<RenderPool, 'preview' | 'close'>;
  storeImageOrigins: string[];
  /** Previews per account at once, and drawn at once (./preview-queue.ts). */
  queue?: PreviewQueueOptions;
}

/** What a preview waiting its turn holds: the slides' words and looks, no screen bytes. */
export interface PreviewPlan {
  owner: { id: string; accountId: string; appId: string };
  device: Device;
  set: Slide[];
  at: number[];
  theme: ThemeId;
  brand?: BrandColors & { font?: BrandFontId };
  /** The captions' language (line breaking and hyphenation follow it); absent: guessed from none. */
  locale?: string;
  /** A landscape set's slides are previewed turned, as they were drawn. */
  orientation?: Orientation;
  /** The store's rating the set drew under its hero (result.rating), drawn the same in the preview. */
  rating?: ScreenshotSetResult['rating'];
}

export interface JobPreview {
  jobId: string;
  /** `locale`: in a set of several locales, whose captions to draw (absent: the first locale's). */
  slide: SlideChanges & { index: number; locale?: string };
  theme?: ThemeId;
  /** `store`: the first three slides side by side, as a store page shows them. */
  view?: 'slide' | 'store';
}

export interface AppPreview {
  appId: string;
  device: Device;
  theme?: ThemeId;
  slide: SlideChanges & { headline: string };
}

export interface Preview {
  png: Buffer;
  width: number;
  height: number;
  /** Whether each caption fits, as the revision would check it. */
  fits: boolean;
}

/**
 * The slides of one locale of a set, as a revision names it (absent: the first). A preview may
 * show a look change (screen, colours) in any locale: locales share it, unlike a revision's edit
 * that names a locale, which changes captions only.
 */
export function localeSlides(result: ScreenshotSetResult, locale: string | undefined): Slide[] {
  if (locale === undefined) return result.slides;
  const locales = result.locales?.map((l) => l.locale);
  if (!locales) throw validationFailed([{ field: 'slide/locale', message: 'the set is in one locale: leave locale out' }]);
  const found = result.locales!.find((l) => l.locale === locale);
  if (!found) throw validationFailed([{ field: 'slide/locale', message: `must be one of the set's locales: ${locales.join(', ')}` }]);
  return found.slides;
}

export class Previewer {
  private readonly screens = new Map<string, Buffer | null>();
  readonly queue: PreviewQueue<PreviewPlan>;

  constructor(private readonly deps: PreviewDeps) {
    this.queue = new PreviewQueue((plan, signal) => this.render(plan, signal), deps.queue);
  }

  /** The preview of a set's slide; refused (429) when the account has too many on the way. */
  async forJob(accountId: string, req: JobPreview, signal?: AbortSignal): Promise<Preview> {
    const leave = this.queue.enter(accountId);
    try {
      return await this.queue.run(accountId, await this.planJob(accountId, req), signal);
    } finally {
      leave();
    }
  }

  /** The preview of a slide of a set not made yet; refused (429) as forJob. */
  async forApp(accountId: string, req: AppPreview, signal?: AbortSignal): Promise<Preview> {
    const leave = this.queue.enter(accountId);
    try {
      return await this.queue.run(accountId, await this.planApp(accountId, req), signal);
    } finally {
      leave();
    }
  }

  private async planJob(accountId: string, req: JobPreview): Promise<PreviewPlan> {
    const parent = await revisableJob(this.deps.db, accountId, req.jobId);
    const { locale, ...changes } = req.slide;
    const slides = localeSlides(parent.result, locale);
    if (req.slide.index > slides.length)
      throw validationFailed([{ field: 'slide/index', message: `the set has ${slides.length} slide${slides.length === 1 ? '' : 's'}` }]);
    const errors = changeErrors(changes, 'slide');
    if (errors.length) throw validationFailed(errors);
    if (req.slide.screenId) await checkScreenIds(this.deps.db, accountId, parent.app_id, [req.slide.screenId]);
    // Sized with its own locale's slides: the type size a set shares is each locale's own.
    const set = slides.map((s) => (s.index === req.slide.index ? applyChanges(s, changes) : s));
    const at = req.view === 'store' ? set.slice(0, STORE_PREVIEW_SLIDES).map((_, i) => i) : [req.slide.index - 1];
    const theme = req.theme ?? themeOf(parent);
    const b = parent.result.brand;
    const brand = b ? { primary: b.primary, secondary: b.secondary, accent: b.accent, font: b.font } : undefined;
    // The captions' language, as the set's render had it: the named locale, else the first set's.
    const lang = locale ?? parent.result.locales?.[0]?.locale ?? fileLocale(parent.result, null);
    const turned = sizingOf(parent.result.device, parent.result).orientation;
    return {
      owner: { id: parent.id, accountId, appId: parent.app_id },
      device: parent.result.device,
      set,
      at,
      theme,
      brand,
      locale: lang,
      ...(turned ? { orientation: turned } : {}),
      ...(parent.result.rating ? { rating: parent.result.rating } : {}),
    };
  }

  private async planApp(accountId: string, req: AppPreview): Promise<PreviewPlan> {
    if (!isId('app', req.appId)) throw appNotFound(req.appId);
    const app = await findApp(this.deps.db, accountId, req.appId);
    if (!app) throw appNotFound(req.appId);
    const errors = changeErrors(req.slide, 'slide');
    if (errors.length) throw validationFailed(errors);
    if (req.slide.screenId) await checkScreenIds(this.deps.db, accountId, app.id, [req.slide.screenId]);
    const listings = listingsOf(app, DEVICES[req.device].store);
    const primary = primaryListing(listings, req.device);
    // The colours a set of this app would get: its brand kit, else its icon's stored colours (no fetch here).
    const setBrand = await resolveSetBrand(this.deps.db, accountId, app.id, req.theme, null);
    const palette = paletteFor(setBrand?.palette ?? null, primary.name);
    const base: Slide = {
      index: 1,
      role: 'hero',
      headline: req.slide.headline,
      subheadline: null,
      keywords: [],
      screenshotUrl: null,
      layout: layoutFor('hero', 0, !!req.slide.screenId),
      background: { colors: palette.colors },
      textColor: palette.textColor,
    };
    const slide = applyChanges(base, req.slide);
    const brand = setBrand
      ? {
          primary: setBrand.palette.primary,
          secondary: setBrand.palette.secondary,
          accent: setBrand.palette.accent,
          font: setBrand.kit.font,
        }
      : undefined;
    const theme = req.theme ?? setBrand?.theme ?? DEFAULT_THEME;
    return { owner: { id: 'preview', accountId, appId: app.id }, device: req.device, set: [slide], at: [0], theme, brand };
  }

  /** Its turn: the screens are read now, not while it waited. */
  private async render(
    { owner, device, set, at, theme, brand, locale, orientation, rating }: PreviewPlan,
    signal?: AbortSignal,
  ): Promise<Preview> {
    const screens = await this.screensOf(owner, device, set, at, signal);
    const keys = at.map((i) => (screens[i] ? this.keyOf(owner.accountId, set[i]) : null));
    const small = await this.deps.renderer.preview(
      {
        device,
        ...(orientation ? { orientation } : {}),
        slides: set,
        screens,
        theme,
        brand: brand && { primary: brand.primary, secondary: brand.secondary, ...(brand.accent ? { accent: brand.accent } : {}) },
        font: brand?.font,
        panoramic: themeFor(theme).acrossSet,
        locale,
        ...(rating ? { rating } : {}),
      },
      at,
      PREVIEW_SCALE,
      keys,
      { signal },
    );
    const { width, height } = slideSize(device, orientation);
    const w = Math.round(width * PREVIEW_SCALE);
    const h = Math.round(height * PREVIEW_SCALE);
    const fits = at.every((i) => {
      const f = captionFit(device, set[i].headline, set[i].subheadline, brand?.font);
      return f.headline.fits && (f.subheadline?.fits ?? true);
    });
    if (small.length === 1) return { png: small[0], width: w, height: h, fits };
    const gap = Math.round(w * 0.04);
    const total = small.length * w + (small.length - 1) * gap;
    const png = await sharp({ create: { width: total, height: h, channels: 3, background: '#F2F2F7' } })
      .composite(small.map((input, k) => ({ input, left: k * (w + gap), top: 0 })))
      .png({ compressionLevel: 1 })
      .toBuffer();
    return { png, width: total, height: h, fits };
  }

  /** The screens of the slides to draw, from memory when a recent preview loaded them. */
  private async screensOf(
    owner: { id: string; accountId: string; appId: string },
    device: Device,
    set: Slide[],
    at: number[],
    signal?: AbortSignal,
  ): Promise<(Buffer | null)[]> {
    const key = (s: Slide) => this.keyOf(owner.accountId, s);
    const missing = at.filter((i) => !this.screens.has(key(set[i])));
    const job = { ...owner, attempt: 1, device, screenIds: null };
    const signalOf = signal ?? new AbortController().signal;
    await Promise.all(
      missing.map(async (i) => {
        // A listing screenshot the store will not serve now leaves the glass dark in the preview
        // (the job retries it); it is not kept, so the next preview asks again.
        const bytes = await loadScreens(this.deps, job, [set[i]], signalOf).then(
          (b) => b[0],
          (error: unknown) => {
            if (error instanceof ObjectStoreUnavailable) throw error;
            return undefined;
          },
        );
        if (bytes === undefined) return;
        if (this.screens.size >= CACHED_SCREENS) this.screens.delete(this.screens.keys().next().value!);
        this.screens.set(key(set[i]), bytes);
      }),
    );
    return set.map((s, i) => (at.includes(i) ? (this.screens.get(key(s)) ?? null) : null));
  }

  /** A screen's bytes never change under its id (an upload gets a new one), nor a listing screenshot's under its URL. */
  private keyOf(accountId: string, s: Slide): string {
    return `${accountId}:${s.screenId ?? s.screenshotUrl ?? ''}`;
  }

  close(): Promise<void> {
    return this.deps.renderer.close();
  }
}
