/**
 * An 8-bit RGB PNG straight from skia's opaque RGBA pixels, for the first (fast) encoding of a
 * slide. Every row gets the Up filter (the row above subtracted): a slide is mostly gradients and
 * flat UI, where Up leaves long runs of zeros, which zlib's run-length strategy packs about as
 * tight as level 1 does (965 against 967 KB on the bench slide) in less time (20 against 24 ms).
 * Filter and deflate together measured ~32 ms of CPU and 0.95 MB, against ~40 ms and 1.7 MB
 * through sharp (raw input, removeAlpha, unfiltered level 1: libvips' pipeline alone cost ~17 ms
 * before deflate started). The harder fallbacks stay with sharp (encode.ts).
 */
import os from 'node:os';
import { constants, crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const UP = 2;
const HIGH = 0x80808080;
const LOW = 0x7f7f7f7f;
const LITTLE_ENDIAN = os.endianness() === 'LE';

// The filtered rows of the last slide, kept for the next one: a fresh 11 MB buffer per slide
// costs its page faults (the kernel zeroes every page) and pushes V8 towards a major GC.
let scratch = Buffer.alloc(0);

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * Each row's bytes minus the row above's, RGB only, after a filter-type byte. Four pixels at a
 * time as 32-bit words: the per-byte subtraction without borrows between bytes (Hacker's Delight,
 * "SWAR"), then the four RGBA words packed into three RGB ones.
 */
function filterUp(rgba: Uint8Array, width: number, height: number): Buffer {
  const stride = width * 3;
  const size = (stride + 1) * height;
  if (scratch.length < size) scratch = Buffer.allocUnsafeSlow(size);
  const out = scratch.subarray(0, size);
  const aligned = rgba.byteOffset % 4 === 0 && LITTLE_ENDIAN;
  // An empty view on an unaligned buffer: the loops below then see no groups of four. One type
  // (never null) and the first row in a loop of its own keep the hot loop free of checks: it
  // measured ~11 → ~7.5 ms on the bench slide.
  const words = aligned ? new Uint32Array(rgba.buffer, rgba.byteOffset, width * height) : new Uint32Array(0);
  const quads = aligned ? width >> 2 : 0;
  const row = new Uint32Array(quads * 3);
  const rowBytes = new Uint8Array(row.buffer);
  let o = 0;
  for (let y = 0; y < height; y++) {
    out[o++] = UP;
    const base = y * width;
    let i = base;
    let r = 0;
    if (y === 0) {
      for (let q = 0; q < quads; q++, i += 4, r += 3) {
        const w1 = words[i + 1];
        const w2 = words[i + 2];
        row[r] = (words[i] & 0xffffff) | (w1 << 24);
        row[r + 1] = ((w1 >>> 8) & 0xffff) | (w2 << 16);
        row[r + 2] = ((w2 >>> 16) & 0xff) | (words[i + 3] << 8);
      }
    } else {
      for (let q = 0, j = base - width; q < quads; q++, i += 4, j += 4, r += 3) {
        let b = words[j];
        let w = words[i];
        const w0 = ((w | HIGH) - (b & LOW)) ^ ((w ^ ~b) & HIGH);
        b = words[j + 1];
        w = words[i + 1];
        const w1 = ((w | HIGH) - (b & LOW)) ^ ((w ^ ~b) & HIGH);
        b = words[j + 2];
        w = words[i + 2];
        const w2 = ((w | HIGH) - (b & LOW)) ^ ((w ^ ~b) & HIGH);
        b = words[j + 3];
        w = words[i + 3];
        const w3 = ((w | HIGH) - (b & LOW)) ^ ((w ^ ~b) & HIGH);
        row[r] = (w0 & 0xffffff) | (w1 << 24);
        row[r + 1] = ((w1 >>> 8) & 0xffff) | (w2 << 16);
        row[r + 2] = ((w2 >>> 16) & 0xff) | (w3 << 8);
      }
    }
    out.set(rowBytes, o);
    o += quads * 12;
    // The pixels past the last group of four (or all of them, on an unaligned buffer), byte by byte.
    const above = y === 0 ? -1 : base - width;
    for (let x = quads * 4; x < width; x++) {
      const s = (base + x) * 4;
      for (let c = 0; c < 3; c++) out[o++] = (rgba[s + c] - (above >= 0 ? rgba[s - width * 4 + c] : 0)) & 0xff;
    }
  }
  return out;
}

/**
 * `rgba`: width × height opaque RGBA pixels (alpha is dropped, not composited). `level`: a zlib
 * level for LZ77 matching at any distance; absent, runs only (Z_RLE), the fastest.
 */
export function encodeRgbPng(rgba: Uint8Array, width: number, height: number, level?: number): Buffer {
  if (rgba.length < width * height * 4) throw new Error(`${rgba.length} bytes for ${width}×${height} RGBA pixels`);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  // compression, filter method and interlace: 0
  const filtered = filterUp(rgba, width, height);
  const idat = level === undefined ? deflateSync(filtered, { level: 1, strategy: constants.Z_RLE }) : deflateSync(filtered, { level });
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))]);
}
