/**
 * What the stores accept, checked on the file's bytes themselves (a PNG's header and chunk list,
 * a JPEG's frame header), so a job can refuse to deliver a picture a store would reject. The sizes
 * each App Store slot accepts are the devices' `accepts` (core/set.ts).
 */
import { crc32 } from 'node:zlib';
import { DEVICES, type Device } from '../core/devices.ts';

export const MAX_BYTES = 8 * 1024 * 1024;
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface PngInfo {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  chunks: string[];
}

function readPng(png: Buffer): PngInfo | string {
  if (png.length < 33 || !png.subarray(0, 8).equals(SIGNATURE)) return 'not a PNG file';
  const chunks: string[] = [];
  let off = 8;
  while (off + 12 <= png.length) {
    const len = png.readUInt32BE(off);
    const type = png.toString('latin1', off + 4, off + 8);
    if (off + 12 + len > png.length) return `truncated ${type} chunk`;
    if (crc32(png.subarray(off + 4, off + 8 + len)) !== png.readUInt32BE(off + 8 + len)) return `bad CRC in ${type} chunk`;
    chunks.push(type);
    off += 12 + len;
    if (type === 'IEND') break;
  }
  if (chunks[0] !== 'IHDR') return 'the first chunk is not IHDR';
  if (chunks.at(-1) !== 'IEND') return 'no IEND chunk: the file is truncated';
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), bitDepth: png[24], colourType: png[25], chunks };
}

/** Size, precision and components of a baseline or progressive JPEG (its first SOF segment). */
function readJpeg(jpg: Buffer): { width: number; height: number; bitDepth: number; components: number } | string {
  if (jpg.length < 4 || jpg[0] !== 0xff || jpg[1] !== 0xd8) return 'not a JPEG file';
  if (jpg[jpg.length - 2] !== 0xff || jpg[jpg.length - 1] !== 0xd9) return 'no EOI marker: the file is truncated';
  let off = 2;
  while (off + 4 <= jpg.length && jpg[off] === 0xff) {
    const marker = jpg[off + 1];
    const len = jpg.readUInt16BE(off + 2);
    // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      if (off + 10 > jpg.length) break;
      return { bitDepth: jpg[off + 4], height: jpg.readUInt16BE(off + 5), width: jpg.readUInt16BE(off + 7), components: jpg[off + 9] };
    }
    off += 2 + len;
  }
  return 'no frame header in the JPEG';
}

/** The store rules a PNG or JPEG breaks for a device; empty when it passes. */
export function checkStoreRules(file: Buffer, device: Device): string[] {
  const spec = DEVICES[device];
  if (!spec) return [`unknown device ${String(device)}`];
  const isJpeg = file[0] === 0xff && file[1] === 0xd8;
  const problems: string[] = [];
  let w: number;
  let h: number;
  if (isJpeg) {
    const info = readJpeg(file);
    if (typeof info === 'string') return [info];
    if (info.bitDepth !== 8) problems.push(`bit depth ${info.bitDepth}, not 8`);
    if (info.components !== 3) problems.push(`${info.components} colour components, not RGB`);
    ({ width: w, height: h } = info);
  } else {
    const info = readPng(file);
    if (typeof info === 'string') return [info];
    if (info.bitDepth !== 8) problems.push(`bit depth ${info.bitDepth}, not 8`);
    if (info.colourType === 4 || info.colourType === 6 || info.chunks.includes('tRNS')) problems.push('has an alpha channel');
    else if (info.colourType !== 2) problems.push(`colour type ${info.colourType}, not RGB`);
    ({ width: w, height: h } = info);
  }
  if (file.length > MAX_BYTES) problems.unshift(`${file.length} bytes is over the 8 MB limit`);
  if (spec.store === 'app-store') {
    const sizes: readonly (readonly [number, number])[] = spec.accepts.length ? spec.accepts : [[spec.width, spec.height]];
    if (!sizes.some(([a, b]) => (w === a && h === b) || (w === b && h === a))) {
      problems.push(
        `${w}×${h} is not a size the ${spec.slot} slot accepts (${sizes.map(([a, b]) => `${a}×${b}`).join(', ')}, or landscape)`,
      );
    }
  } else {
    const [short, long] = w < h ? [w, h] : [h, w];
    if (short < 320 || long > 3840) problems.push(`${w}×${h}: Google Play needs each side between 320 and 3840 px`);
    if (long > 2 * short) problems.push(`${w}×${h}: Google Play needs the long side at most twice the short one`);
  }
  return problems;
}
