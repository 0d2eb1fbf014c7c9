/**
 * The pictures beside the slides: Google Play's feature graphic (Android sets, one per locale: a job
 * file each, named like the slides, so a publication puts every language's on Play; the first
 * locale's is the result's `featureGraphic`; every one in the ZIP where `supply` reads it) and the store
 * preview (the set in the store's search results). Drawn on a rendering thread (input.drawer):
 * on the thread that serves HTTP, their canvases (~125 ms together warm, the longest synchronous
 * stretch 140 ms) held up every request meanwhile.
 */
import type { SetBrand } from '../brand/resolve.ts';
import type { ObjectStore } from '../objects/index.ts';
import type { Listing } from '../core/listing.ts';
import { DEVICES, type Device } from '../core/devices.ts';
import { FEATURE_GRAPHIC, renderFeatureGraphic } from '../rendering/feature-graphic.ts';
import { PREVIEW_SLIDES, renderStorePreview } from '../rendering/store-preview.ts';
import { featureGraphicFileName, keepPicture, STORE_PREVIEW_NAME, type JobFile } from './files.ts';
import type { BrandTask } from '../rendering/types.ts';

/**
 * Where the brand pictures are drawn: a render pool's thread (RenderPool.drawBrand), or this
 * thread for a renderer without one (tests' fakes, scripts).
 */
export interface BrandDrawer {
  drawBrand(task: BrandTask): Promise<Buffer>;
}

export const DRAW_HERE: BrandDrawer = {
  drawBrand: (task) => (task.kind === 'feature-graphic' ? renderFeatureGraphic(task.input) : renderStorePreview(task.input)),
};

export interface BrandPictureInput {
  brand: SetBrand;
  appName: string;
  /** The line under the name in the store preview. */
  subtitle: string;
}

/** What these pictures draw of the brand: its colours and icon (a revision has no more). */
export type BrandDrawInput = Omit<BrandPictureInput, 'brand'> & {
  brand: Pick<SetBrand, 'palette' | 'icon'> & { kit?: Pick<SetBrand['kit'], 'font'> };
  /** Where to draw them; absent: this thread. */
  drawer?: BrandDrawer;
};

export interface BrandFiles {
  files: JobFile[];
  /** Extra ZIP entries (path → PNG). */
  archive: { path: string; png: Buffer }[];
}

const keep = (objects: ObjectStore, prefix: string, name: string, png: Buffer, width: number, height: number): Promise<JobFile> =>
  keepPicture(objects, prefix, name, png, 'image/png', { width, height });

/**
 * Play's feature graphic of each locale (Android devices; none for the App Store). Needs only the
 * plan, so it is drawn while the rendering threads draw the slides.
 */
export async function featureGraphics(
  objects: ObjectStore,
  prefix: string,
  device: Device,
  /** In the set's order: the first is the set's own (fileLocale null), the others under locales/. */
  locales: { locale: string; headline: string; fileLocale?: string | null }[],
  input: BrandDrawInput,
): Promise<BrandFiles> {
  const out: BrandFiles = { files: [], archive: [] };
  if (DEVICES[device].store !== 'google-play') return out;
  for (const [i, l] of locales.entries()) {
    const png = await (input.drawer ?? DRAW_HERE).drawBrand({
      kind: 'feature-graphic',
      input: {
        name: input.appName,
        headline: l.headline,
        palette: input.brand.palette,
        icon: await input.brand.icon,
        font: input.brand.kit?.font,
      },
    });
    const name = featureGraphicFileName(l.fileLocale !== undefined ? l.fileLocale : i === 0 ? null : l.locale);
    out.archive.push(graphicEntry(l.locale, png));
    out.files.push(await keep(objects, prefix, name, png, FEATURE_GRAPHIC.width, FEATURE_GRAPHIC.height));
  }
  return out;
}

/** Where fastlane supply reads a language's feature graphic (supply's metadata folder, below `android/`). */
const graphicEntry = (locale: string, png: Buffer) => ({ path: `android/${locale}/images/featureGraphic.png`, png });

/** The store preview from the first locale's first slides (PREVIEW_SLIDES): drawn while the others render. */
export async function storePreview(
  objects: ObjectStore,
  prefix: string,
  device: Device,
  pngs: Buffer[],
  input: BrandDrawInput,
): Promise<BrandFiles> {
  const preview = await (input.drawer ?? DRAW_HERE).drawBrand({
    kind: 'store-preview',
    input: {
      store: DEVICES[device].store === 'google-play' ? 'google-play' : 'app-store',
      name: input.appName,
      subtitle: input.subtitle,
      palette: input.brand.palette,
      icon: await input.brand.icon,
      // The preview shows the first three; posting all ten to the thread copied ~10 MB on the
      // thread that answers HTTP.
      slides: pngs.slice(0, PREVIEW_SLIDES),
      font: input.brand.kit?.font,
    },
  });
  // The PNG's IHDR holds its size.
  return {
    files: [await keep(objects, prefix, STORE_PREVIEW_NAME, preview, preview.readUInt32BE(16), preview.readUInt32BE(20))],
    archive: [],
  };
}

/** What a revision's brand pictures are compared with: its parent's. */
export interface ParentPictures {
  /** sha256 of the parent's first three slide pictures, in order. */
  firstSlides: string[];
  /** A stored picture of the parent by file name, null when gone or not what its row says. */
  read(name: string): Promise<Buffer | null>;
}

/** One locale of a revision: its first headline now and in the parent (null when the parent had none). */
export interface RevisedLocale {
  locale: string;
  /** null for the set's first locale, whose files have no locale folder. */
  fileLocale: string | null;
  headline: string;
  parentHeadline: string | null;
}

/**
 * The feature graphics (every locale's) and store preview of a revision: the parent's bytes when
 * nothing they show changed (a graphic shows its locale's first headline, the preview the first
 * three slides as drawn, so a theme, colours, captions or order that changes them changes their
 * bytes), else drawn again. Without `input` (no brand known) a changed picture is left out rather
 * than shown stale.
 */
export async function revisedBrandPictures(
  objects: ObjectStore,
  prefix: string,
  device: Device,
  locales: RevisedLocale[],
  now: { firstSlides: { bytes: Buffer; sha256: string }[] },
  parent: ParentPictures,
  input: BrandDrawInput | null,
): Promise<BrandFiles> {
  const out: BrandFiles = { files: [], archive: [] };
  if (DEVICES[device].store === 'google-play')
    for (const l of locales) {
      const name = featureGraphicFileName(l.fileLocale);
      const same = l.headline === l.parentHeadline ? await parent.read(name) : null;
      if (same) {
        out.files.push(await keep(objects, prefix, name, same, FEATURE_GRAPHIC.width, FEATURE_GRAPHIC.height));
        out.archive.push(graphicEntry(l.locale, same));
      } else if (input) {
        const drawn = await featureGraphics(objects, prefix, device, [{ ...l }], input);
        out.files.push(...drawn.files);
        out.archive.push(...drawn.archive);
      }
    }
  const sameSlides =
    now.firstSlides.length === parent.firstSlides.length && now.firstSlides.every((s, i) => s.sha256 === parent.firstSlides[i]);
  const kept = sameSlides ? await parent.read(STORE_PREVIEW_NAME) : null;
  if (kept) out.files.push(await keep(objects, prefix, STORE_PREVIEW_NAME, kept, kept.readUInt32BE(16), kept.readUInt32BE(20)));
  else if (input)
    out.files.push(
      ...(
        await storePreview(
          objects,
          prefix,
          device,
          now.firstSlides.map((s) => s.bytes),
          input,
        )
      ).files,
    );
  return out;
}

/** The line under the app's name in the store preview: Play shows the developer, the App Store the subtitle. */
export function previewSubtitle(primary: Listing | null, fallback: string): string {
  return (primary?.store === 'google-play' ? primary.developer : primary?.subtitle || primary?.category) ?? fallback;
}

/** A promise that may settle before anyone awaits it: a rejection then is not unhandled, and is thrown when awaited. */
export function started<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}
