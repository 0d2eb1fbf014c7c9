/**
 * The set's ZIP, laid out as fastlane expects it, so `fastlane deliver` (App Store) or `supply`
 * (Google Play) uploads it as it is:
 *   {locale}/{index}_{device}_{role}.png                                  App Store devices
 *   android/{locale}/images/{phoneScreenshots|tenInchScreenshots}/{index}_{role}.png   Play
 * plus plan.json, the result without URLs.
 */
import yazl from 'yazl';
import { DEVICES, type Device } from '../planning/types.ts';

export interface ArchiveSlide {
  locale: string;
  index: number;
  role: string;
  png: Buffer;
}

export function archivePath(device: Device, slide: Pick<ArchiveSlide, 'locale' | 'index' | 'role'>): string {
  const index = String(slide.index).padStart(2, '0');
  const { store, family } = DEVICES[device];
  if (store === 'google-play') {
    const folder = family === 'android-tablet' ? 'tenInchScreenshots' : 'phoneScreenshots';
    return `android/${slide.locale}/images/${folder}/${index}_${slide.role}.png`;
  }
  return `${slide.locale}/${index}_${device}_${slide.role}.png`;
}

/** The whole ZIP in memory: its PNGs are in memory already, and they are stored, not recompressed. */
export function buildArchive(device: Device, slides: ArchiveSlide[], plan: unknown, mtime: Date): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const s of slides) zip.addBuffer(s.png, archivePath(device, s), { compress: false, mtime });
  zip.addBuffer(Buffer.from(`${JSON.stringify(plan, null, 2)}\n`), 'plan.json', { mtime });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}
