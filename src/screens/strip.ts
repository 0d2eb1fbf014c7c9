/**
 * An uploaded screen is stored without what rode along with its pixels: EXIF (a phone's GPS
 * position, its serial number), XMP, text chunks (iTXt, tEXt, zTXt: megabytes of anything) and
 * ICC profiles. The image is re-encoded from its decoded pixels, so nothing the encoder did not
 * write survives; a PNG stays lossless, a JPEG is written at a quality that is visually the same.
 */
import sharp from 'sharp';
import { MAX_SCREEN_PIXELS, type DecodedImage } from './decode.ts';

/** High enough that a screenshot's text stays crisp; 4:4:4 keeps coloured text edges clean. */
const JPEG_QUALITY = 92;

export interface StrippedImage {
  bytes: Buffer;
  width: number;
  height: number;
}

export async function stripMetadata(bytes: Buffer, contentType: DecodedImage['contentType']): Promise<StrippedImage> {
  // rotate(): the EXIF orientation goes with the EXIF, so it is applied to the pixels first; sharp
  // converts to sRGB and writes no metadata unless asked (no keepMetadata/withMetadata here).
  const image = sharp(bytes, { limitInputPixels: MAX_SCREEN_PIXELS, failOn: 'truncated' }).rotate();
  const encoded =
    contentType === 'image/png' ? image.png({ compressionLevel: 6 }) : image.jpeg({ quality: JPEG_QUALITY, chromaSubsampling: '4:4:4' });
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
  return { bytes: data, width: info.width, height: info.height };
}
