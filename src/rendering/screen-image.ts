/**
 * A screen image, ready to draw. PNG, JPEG and WebP that need no EXIF rotation are decoded by skia
 * itself while drawing (measured ~80 ms less CPU per 1320×2868 screen than sharp's raw decode plus
 * putImageData); anything else (rotated photos, HEIF, TIFF, …) goes through sharp. Either way
 * sharp reads the header first, so a picture over the pixel limit is refused before decoding.
 */
import { createCanvas, Image, ImageData, type Canvas } from '@napi-rs/canvas';
import sharp from 'sharp';

/** Screens larger than this are refused before decoding (a 4K-by-8K image is already generous). */
export const MAX_SCREEN_PIXELS = 40_000_000;
/** Width of the small copy the marketing-picture check reads. */
const PROBE_WIDTH = 400;
const SKIA_FORMATS = new Set(['png', 'jpeg', 'webp']);

export interface ScreenImage {
  image: Image | Canvas;
  width: number;
  height: number;
  hasAlpha: boolean;
  /** The picture at PROBE_WIDTH px wide, RGBA. */
  probe(): { data: Uint8ClampedArray; width: number; height: number };
}

/** A screen image sharp or skia cannot read (not an image, truncated, or over MAX_SCREEN_PIXELS). */
export class ScreenError extends Error {
  override name = 'ScreenError';
}

function probeOf(image: Image | Canvas, width: number, height: number) {
  const w = Math.min(PROBE_WIDTH, width);
  const h = Math.max(1, Math.round((height * w) / width));
  const ctx = createCanvas(w, h).getContext('2d');
  ctx.drawImage(image, 0, 0, w, h);
  return { data: ctx.getImageData(0, 0, w, h).data, width: w, height: h };
}

/** `into`: a skia Image to decode into instead of a new one (see ScreenSlot). */
export async function decodeScreen(bytes: Uint8Array, into?: Image): Promise<ScreenImage> {
  const opts = { limitInputPixels: MAX_SCREEN_PIXELS, sequentialRead: true };
  const meta = await sharp(bytes, opts).metadata();
  if (!meta.width || !meta.height) throw new ScreenError('no image size in the file');
  if (meta.width * meta.height > MAX_SCREEN_PIXELS)
    throw new ScreenError(`${meta.width}×${meta.height} is over ${MAX_SCREEN_PIXELS} pixels`);
  const hasAlpha = meta.hasAlpha === true;
  if (SKIA_FORMATS.has(meta.format ?? '') && (meta.orientation ?? 1) === 1) {
    const image = into ?? new Image();
    image.src = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // Decoded off this thread; a file skia cannot read rejects or shows a size other than sharp's.
    const decoded = await image.decode().then(
      () => true,
      () => false,
    );
    if (decoded && image.width === meta.width && image.height === meta.height) {
      return { image, width: meta.width, height: meta.height, hasAlpha, probe: () => probeOf(image, meta.width!, meta.height!) };
    }
  }
  const { data, info } = await sharp(bytes, opts).rotate().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const canvas = createCanvas(info.width, info.height);
  canvas
    .getContext('2d', { alpha: hasAlpha })
    .putImageData(new ImageData(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height), 0, 0);
  return { image: canvas, width: info.width, height: info.height, hasAlpha, probe: () => probeOf(canvas, info.width, info.height) };
}

/**
 * One screen at a time decoded into the same skia Image, for a thread drawing one slide after
 * another. A new Image per screen reports its bitmap to V8 as external memory: 20 decodes of the
 * bench's screen alone set off 4 major GCs and took 31 ms of CPU each, against none and 22 ms
 * with the Image kept (a whole slide also allocates its 15 MB of pixels, and there the difference
 * was lost in the noise of a loaded machine). The screen of the same bytes as the last one is not
 * decoded again: a set showing one screen on every slide measured ~120 → ~90 ms of CPU a slide
 * through the pool.
 */
export class ScreenSlot {
  #image = new Image();
  /** A copy of the bytes last decoded here (the caller's buffer may be reused), and their screen. */
  #kept = Buffer.alloc(0);
  #keptLength = 0;
  #screen: ScreenImage | null = null;
  #busy = false;

  /**
   * The screen of `bytes`, valid until `release()`. While it is held (another slide of the same
   * thread drawing at once), a screen is decoded the ordinary way.
   */
  async take(bytes: Uint8Array): Promise<{ screen: ScreenImage; release: () => void }> {
    if (this.#busy) return { screen: await decodeScreen(bytes), release: () => {} };
    this.#busy = true;
    const release = () => {
      this.#busy = false;
    };
    try {
      if (!this.#screen || !this.#holds(bytes)) {
        this.#screen = null;
        const decoded = await decodeScreen(bytes, this.#image);
        let probe: ReturnType<ScreenImage['probe']> | undefined;
        this.#keep(bytes);
        this.#screen = { ...decoded, probe: () => (probe ??= decoded.probe()) };
      }
      return { screen: this.#screen, release };
    } catch (error) {
      release();
      throw error;
    }
  }

  #holds(bytes: Uint8Array): boolean {
    return bytes.byteLength === this.#keptLength && this.#kept.subarray(0, this.#keptLength).equals(bytes);
  }

  #keep(bytes: Uint8Array): void {
    if (this.#kept.length < bytes.byteLength) this.#kept = Buffer.allocUnsafeSlow(bytes.byteLength);
    this.#kept.set(bytes);
    this.#keptLength = bytes.byteLength;
  }
}
