/**
 * src/screens/ocr-speedups.ts replaces two of the OCR library's methods in the reading thread: they
 * must give exactly what the library's own give, on the library's own code, for inputs of the
 * models' shapes (and the edge cases: ties, NaN, blanks, repeats). The library is found where it is
 * installed; if a version moved it, the thread reads with the library's methods and this says so.
 */
import { describe, expect, it } from 'vitest';
import { decodeText, imageToInput, ocrInternals, readDictionary } from '../../src/screens/ocr-speedups.ts';

/** A small deterministic generator: the same inputs every run. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe('the OCR speed-ups', () => {
  it('find the library laid out as they expect', async () => {
    expect(await ocrInternals()).not.toBeNull();
  });

  it('turn pixels into the model input the library does, as float32', async () => {
    const { base } = (await ocrInternals())!;
    const original = base.imageToInput as (image: object, reshape: object) => { data: number[]; width: number; height: number };
    const next = random(1);
    for (const [width, height] of [
      [32, 48],
      [97, 48],
      [480, 64],
    ]) {
      const image = { data: Uint8Array.from({ length: width * height * 4 }, () => Math.floor(next() * 256)), width, height };
      for (const reshape of [{}, { mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] }]) {
        const theirs = original.call({}, image, reshape);
        const ours = imageToInput(image, reshape);
        expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
        // The library's model input is Float32Array.from of its array.
        expect(Buffer.from(ours.data.buffer).equals(Buffer.from(Float32Array.from(theirs.data).buffer))).toBe(true);
      }
    }
  });

  it('decode the recognizer output to the library’s lines and confidences', async () => {
    const { Recognition, dictionaryPath } = (await ocrInternals())!;
    const dictionary = readDictionary(dictionaryPath);
    const library = new Recognition({ model: null, options: {} }, dictionary) as { decodeText(output: object): unknown };
    const classes = dictionary.length + 1;
    const next = random(2);
    for (const [lines, steps] of [
      [1, 40],
      [3, 25],
      [2, 1],
    ]) {
      const data = new Float32Array(lines * steps * classes);
      for (let t = 0; t < lines * steps; t++) {
        const at = t * classes;
        for (let c = 0; c < classes; c++) data[at + c] = next() * 0.01;
        // Mostly one clear winner a step, often the blank (0) or the previous step's; sometimes a tie.
        const r = next();
        const winner = r < 0.3 ? 0 : r < 0.5 && t > 0 ? -1 : 1 + Math.floor(next() * (classes - 1));
        const previous = t > 0 ? Array.from(data.subarray(at - classes, at)).indexOf(Math.max(...data.subarray(at - classes, at))) : 0;
        data[at + (winner === -1 ? previous : winner)] = 0.4 + next() * 0.6;
        if (next() < 0.1) data[at + 7] = data[at + (winner === -1 ? previous : winner)];
      }
      // A NaN step, as a broken model could give.
      data[Math.floor(next() * lines * steps) * classes + 3] = NaN;
      const output = { data, dims: [lines, steps, classes] };
      expect(decodeText(output, dictionary)).toEqual(library.decodeText(output));
    }
  });
});
