/** The screens `generate --screens DIR` uploads: every PNG and JPEG in DIR, in natural name order. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ClientFailure, EXIT } from './exit-codes.ts';

/** What the service takes as a screen (src/screens/decode.ts): PNG and JPEG, nothing else. */
export type ScreenContentType = 'image/png' | 'image/jpeg';

export interface ScreenFile {
  path: string;
  bytes: Uint8Array;
  contentType: ScreenContentType;
}

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) => signature.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** By content, not name: a .png that is a JPEG is still sent as what it is. Null for anything else. */
export function sniffScreenType(bytes: Uint8Array): ScreenContentType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  return null;
}

/** Images the service refuses, named so that a refusal can say what to convert from. */
const OTHER_IMAGES: { name: string; test: (bytes: Uint8Array) => boolean }[] = [
  { name: 'WebP', test: (b) => startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8) },
  { name: 'GIF', test: (b) => startsWith(b, ascii('GIF8')) },
  {
    name: 'HEIC',
    test: (b) => startsWith(b, ascii('ftyp'), 4) && /^(heic|heix|hevc|mif1|msf1)$/.test(String.fromCharCode(...b.subarray(8, 12))),
  },
  { name: 'AVIF', test: (b) => startsWith(b, ascii('ftypavi'), 4) },
  { name: 'TIFF', test: (b) => startsWith(b, ascii('II*\0')) || startsWith(b, ascii('MM\0*')) },
  { name: 'BMP', test: (b) => startsWith(b, ascii('BM')) },
];

/** Why bytes that sniffScreenType refused cannot be a screen; `what` names them ("path: x.png", "base64: the image"). */
export function notAScreen(bytes: Uint8Array, what: string): string {
  const other = OTHER_IMAGES.find((f) => f.test(bytes));
  return `${what} is neither a PNG nor a JPEG${other ? ` (it looks like ${other.name})` : ''}; upload a PNG or a JPEG`;
}

export async function readScreens(dir: string): Promise<ScreenFile[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    throw new ClientFailure(
      `--screens ${dir}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such directory' : (error as Error).message}`,
      EXIT.usage,
    );
  }
  const candidates = names.filter((n) => /\.(png|jpe?g)$/i.test(n)).sort(new Intl.Collator('en', { numeric: true }).compare);
  const screens: ScreenFile[] = [];
  for (const name of candidates) {
    const file = path.join(dir, name);
    const bytes = new Uint8Array(await fs.readFile(file));
    const contentType = sniffScreenType(bytes);
    if (!contentType) throw new ClientFailure(`--screens: ${notAScreen(bytes, file)}`, EXIT.usage);
    screens.push({ path: file, bytes, contentType });
  }
  if (screens.length === 0) throw new ClientFailure(`--screens ${dir}: no .png or .jpg files in it`, EXIT.usage);
  if (screens.length > 10) throw new ClientFailure(`--screens ${dir}: ${screens.length} images; a set frames at most 10`, EXIT.usage);
  return screens;
}
