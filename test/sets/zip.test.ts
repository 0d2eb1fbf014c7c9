/**
 * The set's ZIP writer, read back by an independent reader (yauzl) with an independent CRC-32:
 * every entry's name, bytes, checksum and time survive, and what the classic format cannot hold is
 * refused instead of written wrong.
 */
import { buffer } from 'node:stream/consumers';
import { randomBytes } from 'node:crypto';
import yauzl from 'yauzl';
import { describe, expect, it } from 'vitest';
import { zipParts, type ZipEntry } from '../../src/sets/zip.ts';

/** The parts joined, as the object store writes them. */
const storedZip = (entries: ZipEntry[], mtime: Date) => Buffer.concat(zipParts(entries, mtime));

// The textbook bitwise CRC-32 (IEEE 802.3, reflected), so the test does not trust the writer's.
function referenceCrc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

interface Read {
  name: string;
  crc32: number;
  method: number;
  modified: Date;
  data: Buffer;
  utf8: boolean;
}

function readZip(zip: Buffer): Promise<Read[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (err, file) => {
      if (err || !file) return reject(err);
      const out: Read[] = [];
      file.on('error', reject);
      file.on('entry', (e: yauzl.Entry) =>
        file.openReadStream(e, (error, stream) => {
          if (error || !stream) return reject(error);
          buffer(stream).then((data) => {
            out.push({
              name: e.fileName,
              crc32: e.crc32,
              method: e.compressionMethod,
              modified: e.getLastModDate(),
              data,
              utf8: (e.generalPurposeBitFlag & 0x800) !== 0,
            });
            file.readEntry();
          }, reject);
        }),
      );
      file.on('end', () => resolve(out));
      file.readEntry();
    });
  });
}

describe('zipParts', () => {
  it('writes every entry stored, in order, with its bytes, CRC-32, UTF-8 name and time', async () => {
    const mtime = new Date(2026, 10, 27, 14, 35, 42);
    const entries = [
      { path: 'en-US/01_iphone-69_hero.png', data: randomBytes(200_000) },
      { path: 'android/ko-KR/images/featureGraphic.png', data: randomBytes(3) },
      { path: 'de-DE/02_iphone-69_größe.png', data: Buffer.alloc(0) },
      { path: 'plan.json', data: Buffer.from('{"a":1}\n') },
    ];
    const zip = storedZip(entries, mtime);
    const read = await readZip(zip);
    // Readers that stream (no central directory yet) trust the local headers: they say the same.
    let at = 0;
    for (const [i, r] of read.entries()) {
      expect(zip.readUInt32LE(at)).toBe(0x04034b50);
      // The time and date, as the central directory (found from the end record) has them.
      const central = zip.readUInt32LE(zip.length - 22 + 16);
      expect([zip.readUInt16LE(at + 10), zip.readUInt16LE(at + 12)]).toEqual([
        zip.readUInt16LE(central + 12),
        zip.readUInt16LE(central + 14),
      ]);
      expect(zip.readUInt32LE(at + 14)).toBe(referenceCrc32(entries[i].data));
      expect([zip.readUInt32LE(at + 18), zip.readUInt32LE(at + 22)]).toEqual([r.data.length, r.data.length]);
      at += 30 + zip.readUInt16LE(at + 26) + r.data.length;
    }
    expect(read.map((r) => r.name)).toEqual(entries.map((e) => e.path));
    for (const [i, r] of read.entries()) {
      expect(r.method).toBe(0);
      expect(r.utf8).toBe(true);
      expect(r.data.equals(entries[i].data)).toBe(true);
      expect(r.crc32).toBe(referenceCrc32(entries[i].data));
      // DOS time keeps even seconds.
      expect(r.modified.getTime()).toBe(new Date(2026, 10, 27, 14, 35, 42).getTime());
    }
  });

  it('writes a CRC-32 the caller took as it would have taken it', async () => {
    const data = randomBytes(5_000);
    const mtime = new Date(2026, 10, 27);
    const given = storedZip([{ path: 'a.png', data, crc32: referenceCrc32(data) }], mtime);
    expect(given.equals(storedZip([{ path: 'a.png', data }], mtime))).toBe(true);
    expect((await readZip(given))[0].crc32).toBe(referenceCrc32(data));
  });

  it('an empty set of entries is still a ZIP a reader opens', async () => {
    expect(await readZip(storedZip([], new Date()))).toEqual([]);
  });

  it('refuses more entries than the format without ZIP64 counts', () => {
    const many = Array.from({ length: 65_536 }, (_, i) => ({ path: `${i}`, data: Buffer.alloc(0) }));
    expect(() => storedZip(many, new Date())).toThrow(/65,535 entries/);
  });
});
