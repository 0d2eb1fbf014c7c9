/**
 * A ZIP of stored (uncompressed) entries, written as its parts. The set's PNGs are compressed
 * already, so the archive only frames them; yazl did that too, but computed each entry's CRC-32
 * in JavaScript, ~40 ms of CPU for a 10 MB set at the end of every render, where node:zlib's
 * crc32 takes ~2 ms. No ZIP64: a set is at most a few hundred MB in a few dozen entries, and
 * anything past the classic format's limits is refused rather than written wrong.
 */
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';

export interface ZipEntry {
  path: string;
  data: Buffer;
  /** The data's CRC-32 when the caller has it: a set's slides are checked as each one arrives. */
  crc32?: number;
}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
// Bit 11: names are UTF-8 (a locale or role is ASCII today; a path may not always be).
const UTF8 = 0x0800;
const VERSION = 20;
const LIMIT = 0xffffffff;

/** MS-DOS date and time, local as the format has it (to two seconds). */
function dosDateTime(d: Date): { date: number; time: number } {
  const year = Math.min(Math.max(d.getFullYear(), 1980), 2107);
  return {
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1),
  };
}

/** An entry's local header (with its name) and central directory record (with its name). */
function headers(path: string, size: number, crc: number, offset: number, mtime: Date): { local: Buffer; central: Buffer } {
  const { date, time } = dosDateTime(mtime);
  const name = Buffer.from(path, 'utf8');
  if (size > LIMIT || offset > LIMIT) throw new Error(`${path}: past the 4 GB a ZIP without ZIP64 can address`);
  const local = Buffer.alloc(30 + name.length);
  local.writeUInt32LE(LOCAL, 0);
  local.writeUInt16LE(VERSION, 4);
  local.writeUInt16LE(UTF8, 6);
  local.writeUInt16LE(0, 8); // stored
  local.writeUInt16LE(time, 10);
  local.writeUInt16LE(date, 12);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(size, 18);
  local.writeUInt32LE(size, 22);
  local.writeUInt16LE(name.length, 26);
  local.writeUInt16LE(0, 28);
  name.copy(local, 30);
  const header = Buffer.alloc(46 + name.length);
  header.writeUInt32LE(CENTRAL, 0);
  header.writeUInt16LE((3 << 8) | VERSION, 4); // made by: Unix, so the mode below is read
  header.writeUInt16LE(VERSION, 6);
  header.writeUInt16LE(UTF8, 8);
  header.writeUInt16LE(0, 10);
  header.writeUInt16LE(time, 12);
  header.writeUInt16LE(date, 14);
  header.writeUInt32LE(crc, 16);
  header.writeUInt32LE(size, 20);
  header.writeUInt32LE(size, 24);
  header.writeUInt16LE(name.length, 28);
  header.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file, rw-r--r--
  header.writeUInt32LE(offset, 42);
  name.copy(header, 46);
  return { local, central: header };
}

function endRecord(count: number, centralSize: number, offset: number): Buffer {
  if (count > 0xffff) throw new Error(`a ZIP without ZIP64 holds at most 65,535 entries, not ${count}`);
  if (offset > LIMIT || centralSize > LIMIT) throw new Error('past the 4 GB a ZIP without ZIP64 can address');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return end;
}

/**
 * The ZIP as its parts in order (headers, names, and each entry's own bytes, not copied): a set's
 * 10 MB copied into one fresh buffer cost 5-50 ms on the thread that serves HTTP, mostly the
 * kernel's page faults; the parts go to the object store as they are.
 */
export function zipParts(entries: ZipEntry[], mtime: Date): Buffer[] {
  if (entries.length > 0xffff) throw new Error(`a ZIP without ZIP64 holds at most 65,535 entries, not ${entries.length}`);
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const h = headers(e.path, e.data.length, e.crc32 ?? crc32(e.data), offset, mtime);
    parts.push(h.local, e.data);
    central.push(h.central);
    offset += h.local.length + e.data.length;
  }
  const centralSize = central.reduce((n, b) => n + b.length, 0);
  return [...parts, ...central, endRecord(entries.length, centralSize, offset)];
}

/** An entry whose bytes are read when the ZIP is written: its size and CRC-32 are known before. */
export interface StreamedEntry {
  path: string;
  bytes: number;
  crc32: number;
  read(): Promise<AsyncIterable<Buffer>>;
}

/** The length of the ZIP zipStream writes of these entries, before any is read. */
export function zipLength(entries: { path: string; bytes: number }[]): number {
  return entries.reduce((n, e) => n + 30 + 46 + 2 * Buffer.byteLength(e.path, 'utf8') + e.bytes, 22);
}

/**
 * A ZIP written as it is read, one entry's bytes after another, never whole in memory: its length
 * is known before the first byte (stored entries, sizes and CRCs given), so it can be sent with a
 * Content-Length. An entry that reads other than `bytes` long ends the stream with an error rather
 * than a ZIP whose offsets lie.
 */
export function zipStream(entries: StreamedEntry[], mtime: Date): { bytes: number; body: Readable } {
  let offset = 0;
  const framed = entries.map((e) => {
    const h = headers(e.path, e.bytes, e.crc32, offset, mtime);
    offset += h.local.length + e.bytes;
    return { e, ...h };
  });
  const centralSize = framed.reduce((n, f) => n + f.central.length, 0);
  const end = endRecord(entries.length, centralSize, offset);
  async function* write(): AsyncGenerator<Buffer> {
    for (const { e, local } of framed) {
      yield local;
      let n = 0;
      for await (const chunk of await e.read()) {
        n += chunk.length;
        if (n > e.bytes) break;
        yield chunk;
      }
      if (n !== e.bytes) throw new Error(`${e.path}: read ${n} bytes, ${e.bytes} expected`);
    }
    for (const f of framed) yield f.central;
    yield end;
  }
  return { bytes: offset + centralSize + end.length, body: Readable.from(write(), { objectMode: false }) };
}
