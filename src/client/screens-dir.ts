/** The screens `generate --screens DIR` uploads: every PNG and JPEG in DIR, in natural name order. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ClientFailure, EXIT } from './exit-codes.ts';

export interface ScreenFile {
  path: string;
  bytes: Uint8Array;
  contentType: 'image/png' | 'image/jpeg';
}

/** By content, not name: a .png that is a JPEG is still sent as what it is. */
function sniff(bytes: Uint8Array): ScreenFile['contentType'] | null {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return null;
}

export async function readScreens(dir: string): Promise<ScreenFile[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    throw new ClientFailure(`--screens ${dir}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such directory' : (error as Error).message}`, EXIT.usage);
  }
  const candidates = names.filter((n) => /\.(png|jpe?g)$/i.test(n)).sort(new Intl.Collator('en', { numeric: true }).compare);
  const screens: ScreenFile[] = [];
  for (const name of candidates) {
    const file = path.join(dir, name);
    const bytes = new Uint8Array(await fs.readFile(file));
    const contentType = sniff(bytes);
    if (!contentType) throw new ClientFailure(`--screens: ${file} is neither a PNG nor a JPEG`, EXIT.usage);
    screens.push({ path: file, bytes, contentType });
  }
  if (screens.length === 0) throw new ClientFailure(`--screens ${dir}: no .png or .jpg files in it`, EXIT.usage);
  if (screens.length > 10) throw new ClientFailure(`--screens ${dir}: ${screens.length} images; a set frames at most 10`, EXIT.usage);
  return screens;
}
