/**
 * An uploaded image is decoded before anything is stored: its header alone can lie (a PNG that
 * claims 100,000 × 100,000 pixels in a few kilobytes is a decompression bomb), and a truncated
 * file only shows when its pixels are read.
 */
import sharp from 'sharp';
import { Problem } from '../core/problem.ts';

export const MAX_SCREEN_BYTES = 10 * 1024 * 1024;
export const MAX_SCREEN_PIXELS = 40_000_000;
export const MIN_SCREEN_SIDE = 320;

export interface DecodedImage {
  contentType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
}

const invalid = (detail: string) => new Problem('invalid_image', detail);

/** `minSide`: an app icon is refused below its own minimum, with that minimum named. */
export async function decodeScreen(bytes: Buffer, minSide = MIN_SCREEN_SIDE): Promise<DecodedImage> {
  let meta: sharp.Metadata;
  try {
    // limitInputPixels refuses a bomb from its header, before a single pixel is decoded.
    meta = await sharp(bytes, { limitInputPixels: MAX_SCREEN_PIXELS, failOn: 'error' }).metadata();
  } catch {
    throw invalid('The body is not a PNG or JPEG image that can be read.');
  }
  const contentType = meta.format === 'png' ? 'image/png' : meta.format === 'jpeg' ? 'image/jpeg' : null;
  if (!contentType) throw invalid(`The body is a ${meta.format ?? 'unknown'} image; send a PNG or a JPEG.`);
  const { width, height } = meta;
  if (!width || !height) throw invalid('The image has no size.');
  if (width * height > MAX_SCREEN_PIXELS)
    throw invalid(`The image has ${width}×${height} pixels; at most ${MAX_SCREEN_PIXELS / 1e6} megapixels are accepted.`);
  if (Math.min(width, height) < minSide) throw invalid(`The image is ${width}×${height}; each side must be at least ${minSide} px.`);
  try {
    // Read every pixel (into a small thumbnail, so memory stays low): a truncated or corrupt file
    // fails here, not later inside a job.
    await sharp(bytes, { limitInputPixels: MAX_SCREEN_PIXELS, failOn: 'truncated', sequentialRead: true })
      .resize(64, 64, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch {
    throw invalid('The image is truncated or corrupt.');
  }
  return { contentType, width, height };
}
