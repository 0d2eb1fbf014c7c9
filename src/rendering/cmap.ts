/**
 * Which code points a font file maps (its cmap, formats 4 and 12; TTF or zlib WOFF). The renderer
 * lints every drawn text with it (a character no font of ours maps is drawn as nothing or a box),
 * and the tests prove the fonts cover a script: skia would otherwise quietly fall back to a system
 * font, which a machine without it would show as tofu.
 */
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';

function tables(buf: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const woff = buf.toString('latin1', 0, 4) === 'wOFF';
  const count = buf.readUInt16BE(woff ? 12 : 4);
  for (let i = 0; i < count; i++) {
    const at = woff ? 44 + i * 20 : 12 + i * 16;
    const tag = buf.toString('latin1', at, at + 4);
    if (woff) {
      const [offset, comp, orig] = [buf.readUInt32BE(at + 4), buf.readUInt32BE(at + 8), buf.readUInt32BE(at + 12)];
      const raw = buf.subarray(offset, offset + comp);
      out.set(tag, comp < orig ? inflateSync(raw) : raw);
    } else {
      out.set(tag, buf.subarray(buf.readUInt32BE(at + 8), buf.readUInt32BE(at + 8) + buf.readUInt32BE(at + 12)));
    }
  }
  return out;
}

export function coverage(file: string): (cp: number) => boolean {
  return coverageOf(readFileSync(file), file);
}

export function coverageOf(font: Buffer, file = 'font'): (cp: number) => boolean {
  const cmap = tables(font).get('cmap');
  if (!cmap) throw new Error(`${file} has no cmap`);
  const subtables: { pid: number; eid: number; offset: number; format: number }[] = [];
  for (let i = 0; i < cmap.readUInt16BE(2); i++) {
    const offset = cmap.readUInt32BE(4 + i * 8 + 4);
    subtables.push({ pid: cmap.readUInt16BE(4 + i * 8), eid: cmap.readUInt16BE(4 + i * 8 + 2), offset, format: cmap.readUInt16BE(offset) });
  }
  const best = subtables.find((s) => s.format === 12) ?? subtables.find((s) => s.format === 4 && (s.pid === 3 || s.pid === 0));
  if (!best) throw new Error(`${file}: no format 4 or 12 cmap`);
  const t = cmap.subarray(best.offset);
  if (best.format === 12) {
    const groups: [number, number][] = [];
    for (let i = 0; i < t.readUInt32BE(12); i++) groups.push([t.readUInt32BE(16 + i * 12), t.readUInt32BE(20 + i * 12)]);
    return (cp) => {
      let lo = 0;
      let hi = groups.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (cp < groups[mid][0]) hi = mid - 1;
        else if (cp > groups[mid][1]) lo = mid + 1;
        else return true;
      }
      return false;
    };
  }
  const segs = t.readUInt16BE(6) / 2;
  const end = (i: number) => t.readUInt16BE(14 + i * 2);
  const start = (i: number) => t.readUInt16BE(16 + segs * 2 + i * 2);
  const delta = (i: number) => t.readInt16BE(16 + segs * 4 + i * 2);
  const rangeAt = 16 + segs * 6;
  return (cp) => {
    if (cp > 0xffff) return false;
    for (let i = 0; i < segs; i++) {
      if (end(i) < cp) continue;
      if (start(i) > cp) return false;
      const ro = t.readUInt16BE(rangeAt + i * 2);
      const glyph = ro === 0 ? (cp + delta(i)) & 0xffff : t.readUInt16BE(rangeAt + i * 2 + ro + (cp - start(i)) * 2);
      return glyph !== 0;
    }
    return false;
  };
}
