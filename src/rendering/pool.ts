/**
 * A pool of rendering threads. Composing a slide is CPU-bound and synchronous inside skia, so it
 * never runs on the thread that serves HTTP. Threads start on first use and end on close().
 */
import os from 'node:os';
import { Piscina } from 'piscina';
import { workerFile } from '../core/worker-file.ts';
import { configureThreadHeaps } from './thread-heap.ts';
import { ahead, LaneQueue } from './task-lanes.ts';
import { renderDuration } from '../metrics/index.ts';
import { DEVICES } from '../core/devices.ts';
import { themeFor } from '../core/themes.ts';
import { isHero } from '../core/set.ts';
import type { BrandTask, RenderedSlide, RenderInput, RenderOptions, RenderTask, SetMetrics, SlideLook } from './types.ts';
import type { WorkerSlide } from './worker.ts';

/** The render threads' nice value unless a pool is given another (RenderPoolOptions.nice). */
export const RENDER_NICE = 19;

export interface RenderPoolOptions {
  /** Rendering threads; default: the machine's cores, at most 4. */
  threads?: number;
  /** Threads kept started while idle (each costs ~200 MB with the fonts); default 0. */
  warm?: number;
  /** How long an idle thread lives (ms); default 60 s. */
  idleTimeout?: number;
  /**
   * Nice value of the render threads (Linux, per thread): 19 by default, so HTTP goes first. At 10
   * the HTTP thread, woken onto a core a render thread held, waited for it p90 1.5-4 ms (the
   * scheduler lets the running thread finish its slice, and checks at the next 4 ms tick); at 19
   * p90 0.25-0.65 ms in most runs, with sets as fast (docs/reads/2026-11-29-polls.md). On an
   * idle machine the threads still take every core HTTP leaves.
   */
  nice?: number;
}

/**
 * The bytes alone: posting a view to a thread clones its whole ArrayBuffer, and a Buffer may be a
 * slice of a much larger one (Node's pool, a request body holding every upload). A whole shared
 * buffer (the screens a set loads, render-set.ts) is posted without a copy.
 */
function ownBytes(b: Uint8Array): Uint8Array {
  return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : Uint8Array.prototype.slice.call(b);
}

/**
 * Which slides show a screen that is scaled once per thread and copied (screen-sprite.ts): one
 * that at least half the set's framed slides show. A set's loader hands the same buffer to every
 * slide of a screen (sets/render.ts loadScreens); equal bytes in other buffers are not looked for.
 * Slides reach the threads in turn, so a thread draws one such screen again and again (one for
 * the whole set, or one of two on alternate slides), and keeps its copy; a screen on fewer slides
 * (five screens over ten slides) comes back to a thread after others, and a copy drawn for it each
 * time cost ~2 ms more a slide than drawing it in place.
 */
export function sharedScreens(screens: readonly (Uint8Array | null)[]): boolean[] {
  const shows = new Map<Uint8Array, number>();
  for (const s of screens) if (s) shows.set(s, (shows.get(s) ?? 0) + 1);
  const framed = screens.filter((s) => s).length;
  return screens.map((s) => !!s && shows.get(s)! > 1 && shows.get(s)! * 2 >= framed);
}

const look = (s: SlideLook, lang?: string): SlideLook => ({
  headline: s.headline,
  subheadline: s.subheadline,
  layout: s.layout,
  background: s.background,
  textColor: s.textColor,
  ...(lang ? { lang } : {}),
  ...(s.keywords ? { keywords: s.keywords } : {}),
  ...(s.focus ? { focus: s.focus } : {}),
});

export class RenderPool {
  private readonly pool: Piscina;
  private closed = false;

  constructor(opts: RenderPoolOptions = {}) {
    const threads = Math.max(1, opts.threads ?? Math.min(4, os.availableParallelism()));
    configureThreadHeaps();
    this.pool = new Piscina({
      // The sibling worker module, and the loop that frees skia's memory (workerFile).
      ...workerFile(import.meta.url, 'worker'),
      minThreads: Math.min(threads, opts.warm ?? 0),
      maxThreads: threads,
      idleTimeout: opts.idleTimeout ?? 60_000,
      workerData: { nice: opts.nice ?? RENDER_NICE },
      // One task per thread at a time: a slide keeps a core busy from start to end.
      concurrentTasksPerWorker: 1,
      // A brand picture goes before the slides already waiting (task-lanes.ts).
      taskQueue: new LaneQueue(),
    });
  }

  get threads(): number {
    return this.pool.options.maxThreads;
  }

  /** The set's pictures (PNG, or JPEG when a PNG would pass 8 MB), in slide order. */
  async renderSet(input: RenderInput, opts: RenderOptions = {}): Promise<Buffer[]> {
    return (await this.renderSlides(input, opts)).map((s) => s.bytes);
  }

  /** The set's pictures with their format and lint, in slide order. Rejects with the signal's reason when aborted. */
  async renderSlides(input: RenderInput, opts: RenderOptions = {}): Promise<RenderedSlide[]> {
    if (this.closed) throw new Error('RenderPool is closed');
    if (!(input.device in DEVICES)) throw new Error(`unknown device ${String(input.device)}`);
    if (input.screens.length !== input.slides.length) throw new Error(`${input.slides.length} slides but ${input.screens.length} screens`);
    const { signal } = opts;
    signal?.throwIfAborted();
    try {
      return await this.run(input, opts);
    } catch (error) {
      // piscina rejects with its own AbortError; the caller gave the reason it wants to see.
      if (signal?.aborted) throw signal.reason;
      throw error;
    }
  }

  /**
   * Only the slides at `indices` (0-based), sized and placed as in the whole set (its shared type
   * sizes): a revision re-renders what changed and keeps the other slides' files. `screens` needs
   * entries at those indices only.
   */
  async renderSome(input: RenderInput, indices: number[], opts: RenderOptions = {}): Promise<Map<number, RenderedSlide>> {
    if (this.closed) throw new Error('RenderPool is closed');
    if (!(input.device in DEVICES)) throw new Error(`unknown device ${String(input.device)}`);
    opts.signal?.throwIfAborted();
    try {
      const rendered = await this.run(input, opts, indices);
      return new Map(indices.map((i, k) => [i, rendered[k]]));
    } catch (error) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      throw error;
    }
  }

  /**
   * The editor's preview: the slides at `indices` (0-based) at `scale` of the device's size, as
   * PNGs in that order, fitted with the whole set in the same trip to a thread. `screenKeys` name
   * the screens (unchanged bytes for the same key) so the thread decodes each once.
   */
  async preview(
    input: RenderInput,
    indices: number[],
    scale: number,
    screenKeys: (string | null)[],
    opts: RenderOptions = {},
  ): Promise<Buffer[]> {
    if (this.closed) throw new Error('RenderPool is closed');
    if (!(input.device in DEVICES)) throw new Error(`unknown device ${String(input.device)}`);
    const { signal } = opts;
    signal?.throwIfAborted();
    const task: RenderTask = {
      kind: 'preview',
      device: input.device,
      ...(input.orientation ? { orientation: input.orientation } : {}),
      slides: input.slides.map((s) => look(s, input.locale)),
      indices,
      screens: indices.map((i) => {
        const s = input.screens[i];
        return s ? ownBytes(s) : null;
      }),
      screenKeys,
      scale,
      panoramic: input.panoramic === true,
      theme: input.theme,
      brand: input.brand,
      font: input.font,
      icon: input.icon ? ownBytes(input.icon) : null,
      badge: input.badge ? ownBytes(input.badge) : null,
      ...(input.rating ? { rating: input.rating } : {}),
    };
    try {
      const pngs = (await this.pool.run(task, { signal })) as Uint8Array[];
      return pngs.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength));
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw error;
    }
  }

  /** A brand picture (feature graphic, store preview) drawn on a thread, as a PNG. */
  async drawBrand(task: BrandTask): Promise<Buffer> {
    if (this.closed) throw new Error('RenderPool is closed');
    // The icon may be a slice of a larger buffer (a response body): post its own bytes only.
    const icon = task.input.icon ? (ownBytes(task.input.icon) as Buffer) : null;
    // Ahead of the set's waiting slides: the threads then end the set together (task-lanes.ts).
    const own = ahead({ ...task, input: { ...task.input, icon } } as BrandTask);
    const png = (await this.pool.run(own)) as Uint8Array;
    return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  }

  /**
   * The set's type sizes, which every slide's task carries, fitted on a thread: a caller that
   * has the slides before their screens asks for them meanwhile and passes them on
   * (RenderOptions.metrics) instead of waiting for the fit after the screens.
   */
  fit(input: Omit<RenderInput, 'screens'>, opts: { signal?: AbortSignal } = {}): Promise<SetMetrics> {
    if (this.closed) return Promise.reject(new Error('RenderPool is closed'));
    const slides = input.slides.map((s) => look(s, input.locale));
    const turned = input.orientation ? { orientation: input.orientation } : {};
    const fit: RenderTask = {
      kind: 'fit',
      device: input.device,
      ...turned,
      slides,
      theme: input.theme,
      font: input.font,
      rating: input.rating ?? null,
    };
    return this.pool.run(fit, { signal: opts.signal }) as Promise<SetMetrics>;
  }

  private async run(input: RenderInput, opts: RenderOptions, only?: number[]): Promise<RenderedSlide[]> {
    const { signal } = opts;
    const endTimer = renderDuration.startTimer({ device: input.device });
    const slides = input.slides.map((s) => look(s, input.locale));
    const { theme, brand } = input;
    const icon = input.icon ? ownBytes(input.icon) : null;
    const badge = input.badge ? ownBytes(input.badge) : null;
    const turned = input.orientation ? { orientation: input.orientation } : {};
    const metrics = await (opts.metrics ?? this.fit(input, { signal }));
    const total = slides.length;
    const colors = slides[0]?.background.colors ?? [];
    const wanted = only ?? slides.map((_, i) => i);
    const shared = sharedScreens(input.screens);
    let done = 0;
    const rendered = await Promise.all(
      wanted.map(async (index) => {
        const slide = slides[index];
        const screen = input.screens[index];
        const task: RenderTask = {
          kind: 'slide',
          index,
          device: input.device,
          ...turned,
          slide,
          screen: screen ? ownBytes(screen) : null,
          ...(shared[index] ? { screenShared: true } : {}),
          metrics,
          panorama: input.panoramic || themeFor(theme).acrossSet ? { index, count: total, colors } : null,
          theme,
          brand,
          font: input.font,
          // Only a slide that may become a text slide needs it (a screen may turn out a marketing picture).
          icon: slide.layout === 'text-only' || screen ? icon : null,
          badge,
          ...(input.size ? { size: input.size } : {}),
          ...(input.rating && isHero(slide.layout) ? { rating: input.rating } : {}),
        };
        const out = (await this.pool.run(task, { signal })) as WorkerSlide;
        const rendered = { ...out, bytes: Buffer.from(out.bytes.buffer, out.bytes.byteOffset, out.bytes.byteLength) };
        opts.onSlide?.(++done, wanted.length, { index, rendered });
        return rendered;
      }),
    );
    // Completed sets only: an aborted or failed render is not a duration.
    endTimer();
    return rendered;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.destroy();
  }
}
