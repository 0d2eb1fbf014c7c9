/**
 * What a worker does with a revision job: no planning; the stored plan is rendered, but only the
 * slides whose render inputs differ from the parent slide they come from. The others are the
 * parent's files, copied under this job's attempt (same bytes, same sha256: a parent's files past
 * their retention can then go without taking its revisions' with them). Then the ZIP is built.
 */
import { themeFor, type BrandFontId } from '../../core/themes.ts';
import { buffer } from 'node:stream/consumers';
import { buildArchive, storeArchive, type ArchiveSlide } from '../archive.ts';
import { revisedBrandPictures, type BrandDrawer, type BrandDrawInput } from '../brand-pictures.ts';
import { listJobFiles, sha256Hex, slideFileName, type JobFile } from '../files.ts';
import { attemptPrefix, brandDrawer, keepSlide, loadScreens, sizingOf, type PictureDeps, type PictureJob } from '../render.ts';
import type { ScreenshotSetResult, Slide } from '../../core/set.ts';
import { checkStoreRules, type RenderPool, type SlideLint } from '../../rendering/index.ts';
import type { JobContext } from '../../queue/runner.ts';
import { setMetrics } from './caption-fit.ts';
import type { StoredRevision } from './types.ts';

export type RevisionDeps = Omit<PictureDeps, 'renderer'> & { renderer: Pick<RenderPool, 'renderSome'> & Partial<BrandDrawer> };

const sameLook = (a: Slide, b: Slide) =>
  a.headline === b.headline &&
  (a.subheadline ?? null) === (b.subheadline ?? null) &&
  a.layout === b.layout &&
  a.textColor === b.textColor &&
  a.background.colors.join() === b.background.colors.join() &&
  (a.screenId ?? null) === (b.screenId ?? null) &&
  (a.screenshotUrl ?? null) === (b.screenshotUrl ?? null);

/**
 * The new positions (0-based) that must be rendered in one locale. Everything a slide's pixels
 * depend on is compared: its own look and screen, the set's type sizes (shared by every slide), the
 * theme, and in a panorama its place and the set's length.
 */
export function slidesToRender(
  device: ScreenshotSetResult['device'],
  before: Slide[],
  after: Slide[],
  rev: StoredRevision,
  font?: BrandFontId,
  locale?: string,
): { indices: number[]; wholeSet: string | null } {
  const all = after.map((_, i) => i);
  if (rev.theme !== rev.parentTheme) return { indices: all, wholeSet: 'the theme changed' };
  const was = setMetrics(device, before, font, locale);
  const is = setMetrics(device, after, font, locale);
  if (was.headlineSizes.join() !== is.headlineSizes.join() || was.subSize !== is.subSize || was.blockHeight !== is.blockHeight)
    return { indices: all, wholeSet: "the set's type size changed (every slide shares it)" };
  // A feature's product yields to the cover's (rendering/cover-lead.ts): a cover with other
  // text, or another cover, may move every feature's device.
  const cover = (m: typeof was) =>
    m.cover && [m.cover.index, m.cover.slide.headline, m.cover.slide.subheadline, m.cover.slide.layout].join('\n');
  if (cover(was) !== cover(is)) return { indices: all, wholeSet: 'the cover changed (every feature yields to it)' };
  const panorama = themeFor(rev.theme).acrossSet;
  const indices = all.filter((i) => {
    const from = rev.sources[i];
    if (from === null) return true;
    if (!sameLook(before[from - 1], after[i])) return true;
    return panorama && (from !== i + 1 || before.length !== after.length);
  });
  return { indices, wholeSet: null };
}

async function read(deps: RevisionDeps, file: JobFile): Promise<Buffer | null> {
  const found = await deps.objects.get(file.objectKey);
  if (!found) return null;
  const bytes = await buffer(found.body);
  // A file that is not what its row says is rendered again rather than passed on.
  return sha256Hex(bytes) === file.sha256 ? bytes : null;
}

type Picture = { bytes: Buffer; format: 'png' | 'jpeg'; lint: SlideLint | null };

/**
 * A revision of every locale of the set (one, unless the parent has `locales`): per locale, only
 * its changed slides are rendered; the others are that locale's parent files.
 */
export async function renderRevision(
  deps: RevisionDeps,
  job: PictureJob,
  parent: ScreenshotSetResult,
  rev: StoredRevision,
  defaultLocale: string,
  ctx: JobContext,
  brandPictures: BrandDrawInput | null = null,
): Promise<{ result: ScreenshotSetResult; files: JobFile[] }> {
  const plan = rev.plan;
  const sets = plan.locales
    ? plan.locales.map((l, k) => ({
        locale: l.locale,
        slides: l.slides,
        before: parent.locales?.[k]?.slides ?? parent.slides,
        fileLocale: k === 0 ? null : l.locale,
      }))
    : [{ locale: defaultLocale, slides: plan.slides, before: parent.slides, fileLocale: null }];
  const parentFiles = new Map((await listJobFiles(deps.db, rev.parentJobId)).map((f) => [f.name, f]));
  const work = await Promise.all(
    sets.map(async (set) => {
      const { indices, wholeSet } = slidesToRender(plan.device, set.before, set.slides, rev, parent.brand?.font, set.locale);
      const pictures = new Map<number, Picture>();
      const render = new Set(indices);
      for (let i = 0; i < set.slides.length; i++) {
        if (render.has(i)) continue;
        const from = rev.sources[i]!;
        // A parent slide over the PNG limit was stored as a JPEG: it is reused as it is.
        const png = parentFiles.get(slideFileName(from, set.fileLocale));
        const file = png ?? parentFiles.get(slideFileName(from, set.fileLocale, 'jpg'));
        const bytes = file ? await read(deps, file) : null;
        if (bytes) pictures.set(i, { bytes, format: png ? 'png' : 'jpeg', lint: set.before[from - 1]?.lint ?? null });
        else render.add(i);
      }
      return { ...set, wholeSet, pictures, todo: [...render].sort((a, b) => a - b) };
    }),
  );
  const total = work.reduce((n, w) => n + w.todo.length, 0);
  let done = 0;
  ctx.progress(0, Math.max(1, total));
  // Every locale frames the same screens in the same places: each is loaded once.
  const needed = [...new Set(work.flatMap((w) => w.todo))].sort((a, b) => a - b);
  const screens = plan.slides.map(() => null as Buffer | null);
  if (needed.length) {
    const loaded = await loadScreens(
      deps,
      job,
      needed.map((i) => plan.slides[i]),
      ctx.signal,
    );
    needed.forEach((i, k) => (screens[i] = loaded[k]));
  }
  // Drawn in the parent's colours: a re-rendered slide must sit beside the reused ones.
  const b = parent.brand;
  const brand = b ? { primary: b.primary, secondary: b.secondary, ...(b.accent ? { accent: b.accent } : {}) } : undefined;
  // A set made at another of the device's sizes (a Mac's 2560×1600) is revised at that size.
  const size = { width: plan.width, height: plan.height };
  const sized = sizingOf(plan.device, size);
  for (const w of work) {
    if (!w.todo.length) continue;
    const rendered = await deps.renderer.renderSome(
      {
        device: plan.device,
        slides: w.slides,
        screens,
        theme: rev.theme,
        brand,
        font: b?.font,
        panoramic: themeFor(rev.theme).acrossSet,
        locale: w.locale,
        ...sized,
        ...(plan.rating ? { rating: plan.rating } : {}),
      },
      w.todo,
      { signal: ctx.signal, onSlide: () => ctx.progress(++done, total) },
    );
    for (const [i, r] of rendered) {
      // Checked on the rendering thread with the digest it took (lint.problems), else here.
      const broken = r.digest ? r.lint.problems : checkStoreRules(r.bytes, plan.device);
      if (broken.length) throw new Error(`slide ${i + 1} breaks the store rules: ${broken.join('; ')}`);
      w.pictures.set(i, r);
    }
  }
  ctx.signal.throwIfAborted();

  const prefix = attemptPrefix(job.id, job.attempt);
  const files: JobFile[] = [];
  const archived: ArchiveSlide[] = [];
  for (const w of work) {
    for (const [i, slide] of w.slides.entries()) {
      const kept = await keepSlide(deps.objects, prefix, plan.device, w, slide, w.pictures.get(i)!, size);
      files.push(kept.file);
      archived.push(kept.entry);
    }
  }
  const linted = (w: (typeof work)[number], warnings: string[]) => ({
    slides: w.slides.map((s, i) => {
      const lint = w.pictures.get(i)?.lint;
      return lint ? { ...s, lint } : s;
    }),
    warnings: [...warnings, ...(w.wholeSet ? [`Every slide was rendered again: ${w.wholeSet}.`] : [])],
  });
  const result: ScreenshotSetResult = {
    ...plan,
    // Also for a revision queued before its plan named its own theme.
    theme: rev.theme,
    ...linted(work[0], plan.warnings),
    ...(plan.locales ? { locales: plan.locales.map((l, k) => ({ ...l, ...linted(work[k], l.warnings) })) } : {}),
  };
  // Each locale has its feature graphic; the store preview shows the first locale, whose files come first.
  const brandOut = await revisedBrandPictures(
    deps.objects,
    prefix,
    plan.device,
    work.map((w) => ({
      locale: w.locale,
      fileLocale: w.fileLocale,
      headline: w.slides[0]?.headline ?? '',
      parentHeadline: w.before[0]?.headline ?? null,
    })),
    {
      firstSlides: files.slice(0, Math.min(3, work[0].slides.length)).map((f, i) => ({ bytes: archived[i].png, sha256: f.sha256 })),
    },
    {
      firstSlides: parent.slides
        .slice(0, 3)
        .map((s) => (parentFiles.get(slideFileName(s.index, null)) ?? parentFiles.get(slideFileName(s.index, null, 'jpg')))?.sha256 ?? ''),
      read: async (name) => {
        const file = parentFiles.get(name);
        return file ? read(deps, file) : null;
      },
    },
    brandPictures && { ...brandPictures, drawer: brandDrawer(deps.renderer) },
  );
  files.push(...brandOut.files);
  archived.sort((x, y) => x.locale.localeCompare(y.locale) || x.index - y.index);
  const zip = buildArchive(plan.device, archived, result, deps.now(), brandOut.archive);
  files.push(await storeArchive(deps.objects, prefix, zip));
  return { result, files };
}
