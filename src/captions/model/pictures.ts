/**
 * The screens as the caption model sees them with LLM_VISION: each uploaded file downscaled so its
 * longer side is at most 768 px (what a vision model reads at low detail anyway, and a few tens of
 * KB a screen rather than MBs), as a JPEG data URL for OpenAI's `image_url` content.
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { ScreenPicture } from './request.ts';

export const MAX_PICTURE_SIDE = 768;

/** The pictures, numbered as the request's `screens` are (the i-th file is screen i + 1); an unreadable file is left out. */
export async function screenPictures(files: Uint8Array[]): Promise<ScreenPicture[]> {
  const out: ScreenPicture[] = [];
  for (const [i, file] of files.entries()) {
    if (file.length === 0) continue;
    try {
      const image = await loadImage(Buffer.from(file));
      const scale = Math.min(1, MAX_PICTURE_SIDE / Math.max(image.width, image.height));
      const w = Math.max(1, Math.round(image.width * scale));
      const h = Math.max(1, Math.round(image.height * scale));
      const canvas = createCanvas(w, h);
      canvas.getContext('2d').drawImage(image, 0, 0, w, h);
      const jpeg = await canvas.encode('jpeg', 80);
      out.push({ screen: i + 1, url: `data:image/jpeg;base64,${jpeg.toString('base64')}` });
    } catch {
      // A file the decoder cannot read: the model still has the screen's text.
    }
  }
  return out;
}
