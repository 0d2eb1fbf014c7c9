/**
 * A slide's pixels to a file the store takes: an 8-bit RGB PNG written the fast way (png.ts: Up
 * filter, zlib's run-length strategy); if that is over 8 MB (a screen of photographs or noise),
 * the same PNG through sharp at a middle level, then compressed hard (level 9, adaptive filters);
 * if still over, a JPEG of high quality, which App Store Connect and Google Play both accept
 * (lower qualities only if even that is over: a screen of pure noise). Then the file is checked as
 * a store would check it, and the lint is completed.
 */
import sharp from 'sharp';
import type { Device } from '../core/devices.ts';
import { encodeRgbPng } from './png.ts';
import { checkStoreRules, MAX_BYTES } from './store-rules.ts';
import type { DrawnLint, RenderedSlide } from './types.ts';

/**
 * The first encoding, as the bench names it (png.ts). Before it, sharp's unfiltered zlib-ng
 * level 1 wrote 1.7 MB for the bench slide where this writes 0.95 MB. A file it leaves over the
 * limit is encoded again at MIDDLE_PNG_LEVEL before anything slower is tried.
 */
export const FIRST_PNG = 'Up filter, zlib runs only (Z_RLE)';
const MIDDLE_PNG_LEVEL = 6;
/** 4:4:4 chroma at quality 92: text edges stay clean. Lower steps only for pictures of noise. */
export const JPEG_QUALITY = 92;
const JPEG_QUALITIES = [JPEG_QUALITY, 80, 65, 50, 35];
const HARDER_PNG_REACH = 1.3;

export interface Raw {
  data: Buffer;
  width: number;
  height: number;
}

export async function encodeSlide(raw: Raw, device: Device, drawn: DrawnLint, maxBytes = MAX_BYTES): Promise<RenderedSlide> {
  const image = () =>
    sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 4 } })
      .removeAlpha()
      .toColourspace('srgb');
  let format: 'png' | 'jpeg' = 'png';
  let bytes = encodeRgbPng(raw.data, raw.width, raw.height);
  // Runs alone miss the repeats of a photograph that LZ77 finds: a file only they put over the
  // limit gets a middle level first.
  if (bytes.length > maxBytes) bytes = await image().png({ compressionLevel: MIDDLE_PNG_LEVEL, adaptiveFiltering: false }).toBuffer();
  // Level 9 with adaptive filters saves 10-25 % on photographs and nothing on noise, at ~8× the
  // CPU (seconds on an iPad slide): it is tried only when that saving could be enough.
  if (bytes.length > maxBytes && bytes.length <= maxBytes * HARDER_PNG_REACH)
    bytes = await image().png({ compressionLevel: 9, adaptiveFiltering: true }).toBuffer();
  // Pure noise is over 8 MB even as a JPEG of quality 92: step the quality down until it fits
  // (libjpeg-turbo; mozjpeg saves ~1 % here at 30× the time).
  for (const quality of JPEG_QUALITIES) {
    if (bytes.length <= maxBytes) break;
    format = 'jpeg';
    bytes = await image()
      .jpeg({ quality, chromaSubsampling: quality >= JPEG_QUALITY ? '4:4:4' : '4:2:0' })
      .toBuffer();
  }
  const problems = checkStoreRules(bytes, device);
  const alpha = problems.includes('has an alpha channel');
  return {
    bytes,
    format,
    lint: { width: raw.width, height: raw.height, alpha, bytes: bytes.length, format, ...drawn, problems },
  };
}
