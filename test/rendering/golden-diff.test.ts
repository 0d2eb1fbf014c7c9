/** The golden comparison writes what it got and the diff beside a golden that fails, and tidies up after a pass. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { compareWithGolden } from './golden-diff.ts';

function image(width: number, height: number, paint: (x: number, y: number) => [number, number, number]) {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      [data[i], data[i + 1], data[i + 2]] = paint(x, y);
      data[i + 3] = 255;
    }
  return { data, width, height };
}

describe('compareWithGolden', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const golden = (img: { data: Buffer; width: number; height: number }) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotgen-golden-'));
    dirs.push(dir);
    const png = new PNG({ width: img.width, height: img.height });
    img.data.copy(png.data);
    const file = path.join(dir, 'case.png');
    fs.writeFileSync(file, PNG.sync.write(png));
    return file;
  };
  const blue = image(40, 80, () => [30, 60, 200]);

  it('a failed comparison leaves NAME.actual.png (what it got) and NAME.diff.png beside the golden', () => {
    const file = golden(blue);
    const got = image(40, 80, (x, y) => (x < 20 && y < 40 ? [220, 40, 40] : [30, 60, 200]));
    const r = compareWithGolden(file, got, 0.01);
    expect(r.share).toBeCloseTo(0.25, 2);
    expect(r.written.map((f) => path.basename(f))).toEqual(['case.actual.png', 'case.diff.png']);
    const actual = PNG.sync.read(fs.readFileSync(r.written[0]));
    expect(Buffer.compare(actual.data, got.data)).toBe(0);
    const diff = PNG.sync.read(fs.readFileSync(r.written[1]));
    expect([diff.width, diff.height]).toEqual([40, 80]);
  });

  it('a size mismatch writes what it got; a later pass removes both files', () => {
    const file = golden(blue);
    const r = compareWithGolden(
      file,
      image(40, 60, () => [30, 60, 200]),
      0.01,
    );
    expect(r).toMatchObject({ sameSize: false, share: 1 });
    expect(r.written.map((f) => path.basename(f))).toEqual(['case.actual.png']);
    compareWithGolden(
      file,
      image(40, 80, (x, y) => (x === 0 && y === 0 ? [0, 0, 0] : [30, 60, 200])),
      0.5,
    );
    const pass = compareWithGolden(file, blue, 0.01);
    expect(pass).toEqual({ share: 0, sameSize: true, written: [] });
    expect(fs.readdirSync(path.dirname(file))).toEqual(['case.png']);
  });
});
