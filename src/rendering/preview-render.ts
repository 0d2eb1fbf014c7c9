/**
 * The editor's previews, on a rendering thread: the set fitted and the asked slides drawn at a
 * reduced size in one trip, their screens decoded once per thread and kept for the keystrokes that
 * follow, and a PNG compressed at zlib's fastest level (a preview is shown once and never stored).
 * Measured on the bench's iPhone slide: ~190 ms of CPU at full size then resized, against ~35 here.
 */
import { isHero } from '../core/set.ts';
import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import { themeFor } from '../core/themes.ts';
import { composeRaw, ScreenError } from './compose.ts';
import { useBrandFont } from './fonts.ts';
import { fitSet } from './layout.ts';
import { decodeScreen, type ScreenImage } from './screen-image.ts';
import type { PreviewTask } from './types.ts';

const KEPT_SCREENS = 12;
const screens = new Map<string, ScreenImage>();

async function screenOf(bytes: Uint8Array | null, key: string | null, index: number): Promise<ScreenImage | null> {
  if (!bytes) return null;
  const kept = key ? screens.get(key) : undefined;
  if (kept) {
    // Most recently used last, so the oldest is the one dropped.
    screens.delete(key!);
    screens.set(key!, kept);
    return kept;
  }
  const decoded = await decodeScreen(bytes).catch((error: unknown) => {
    throw new ScreenError(
      `the screen of slide ${index} is not a readable image: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  // The marketing-picture check reads a small copy: made once, not on every keystroke.
  let probe: ReturnType<ScreenImage['probe']> | undefined;
  const image: ScreenImage = { ...decoded, probe: () => (probe ??= decoded.probe()) };
  if (key) {
    if (screens.size >= KEPT_SCREENS) screens.delete(screens.keys().next().value!);
    screens.set(key, image);
  }
  return image;
}

/** PNGs of the slides at `task.indices`, in that order. */
export async function renderPreview(task: PreviewTask): Promise<Uint8Array[]> {
  const fitCtx = createCanvas(1, 1).getContext('2d');
  useBrandFont(fitCtx, task.font);
  const metrics = fitSet(fitCtx, task.device, task.slides, task.theme, task.orientation, task.rating);
  const colors = task.slides[0]?.background.colors ?? [];
  const out: Uint8Array[] = [];
  for (const [k, index] of task.indices.entries()) {
    const slide = task.slides[index];
    const screen = await screenOf(task.screens[k], task.screenKeys[k], index + 1);
    const raw = await composeRaw(
      {
        kind: 'slide',
        index,
        device: task.device,
        ...(task.orientation ? { orientation: task.orientation } : {}),
        slide,
        screen: task.screens[k],
        metrics,
        panorama: task.panoramic || themeFor(task.theme).acrossSet ? { index, count: task.slides.length, colors } : null,
        theme: task.theme,
        brand: task.brand,
        font: task.font,
        icon: slide.layout === 'text-only' || screen ? (task.icon ?? null) : null,
        badge: task.badge ?? null,
        // The hero's rating, as the set drew it (pool.ts gives it to the hero's slide task).
        ...(task.rating && isHero(slide.layout) ? { rating: task.rating } : {}),
        scale: task.scale,
      },
      screen,
    );
    const png = await sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 4 } })
      .removeAlpha()
      .png({ compressionLevel: 1, adaptiveFiltering: false })
      .toBuffer();
    out.push(new Uint8Array(png.buffer, png.byteOffset, png.byteLength));
  }
  return out;
}
