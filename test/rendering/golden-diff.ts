/**
 * Compares a rendering with its golden. When they differ too much, the image the test got and a
 * diff (differing pixels in red over a faded golden) are written beside the golden, as
 * NAME.actual.png and NAME.diff.png (ignored by git), so the failure can be looked at instead of
 * re-rendered by hand; a later pass removes them.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

export interface GoldenComparison {
  /** Share of pixels that differ (1 when the sizes differ). */
  share: number;
  sameSize: boolean;
  /** Where the rendering and the diff were written when the comparison failed. */
  written: string[];
}

export function compareWithGolden(
  golden: string,
  got: { data: Buffer; width: number; height: number },
  maxShare: number,
): GoldenComparison {
  const want = PNG.sync.read(readFileSync(golden));
  const actualFile = golden.replace(/\.png$/, '.actual.png');
  const diffFile = golden.replace(/\.png$/, '.diff.png');
  const sameSize = got.width === want.width && got.height === want.height;
  const diff = new PNG({ width: got.width, height: got.height });
  const differing = sameSize
    ? pixelmatch(got.data, want.data, diff.data, got.width, got.height, { threshold: 0.1 })
    : got.width * got.height;
  const share = differing / (got.width * got.height);
  const written: string[] = [];
  for (const stale of [actualFile, diffFile]) if (existsSync(stale)) rmSync(stale);
  if (!sameSize || share >= maxShare) {
    const actual = new PNG({ width: got.width, height: got.height });
    got.data.copy(actual.data);
    writeFileSync(actualFile, PNG.sync.write(actual));
    written.push(actualFile);
    if (sameSize) {
      writeFileSync(diffFile, PNG.sync.write(diff));
      written.push(diffFile);
    }
  }
  return { share, sameSize, written };
}
