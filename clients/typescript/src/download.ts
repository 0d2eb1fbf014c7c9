/**
 * downloadSet: a succeeded job's slide PNGs and ZIP, streamed to disk through SHA-256. A file is
 * written under a temporary name and renamed only once its size and digest match the result, so a
 * file in `dir` is always a complete, verified one.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { ShotgenError, ShotgenIntegrityError } from './errors.ts';
import { slidesByLocale } from './slides.ts';
import type { Job } from './types.ts';

export interface DownloadOptions {
  signal?: AbortSignal;
  /** Called after each verified file. */
  onFile?: (file: DownloadedFile) => void;
}

export interface DownloadedFile {
  kind: 'slide' | 'archive';
  path: string;
  bytes: number;
  sha256: string;
  /** Slides: their index (1..n) and, for a set in several locales, the locale. */
  index?: number;
  locale?: string;
}

export interface DownloadedSet {
  jobId: string;
  dir: string;
  slides: DownloadedFile[];
  archive: DownloadedFile | null;
}

interface FileRef {
  url: string;
  bytes: number;
  sha256: string;
}

const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '-');

export async function downloadSet(
  fetchFile: (url: string, signal?: AbortSignal) => Promise<Response>,
  baseUrl: string,
  job: Job,
  dir: string,
  opts: DownloadOptions = {},
): Promise<DownloadedSet> {
  if (job.status !== 'succeeded' || !job.result) throw new Error(`job ${job.id} is ${job.status}: only a succeeded job has pictures`);
  const result = job.result;
  const out: DownloadedSet = { jobId: job.id, dir, slides: [], archive: null };
  await fs.mkdir(dir, { recursive: true });

  const fetchTo = async (ref: FileRef, file: string, meta: Pick<DownloadedFile, 'kind' | 'index' | 'locale'>): Promise<DownloadedFile> => {
    const url = new URL(ref.url, `${baseUrl}/`).toString();
    const response = await fetchFile(url, opts.signal);
    if (!response.ok || !response.body)
      throw ShotgenError.from(
        response,
        await response.text().then((t) => {
          try {
            return JSON.parse(t);
          } catch {
            return t;
          }
        }),
      );
    await fs.mkdir(path.dirname(file), { recursive: true });
    const partial = `${file}.part`;
    const hash = createHash('sha256');
    let bytes = 0;
    try {
      await pipeline(
        Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>),
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            hash.update(chunk);
            bytes += chunk.length;
            yield chunk;
          }
        },
        createWriteStream(partial),
        { signal: opts.signal },
      );
      const sha256 = hash.digest('hex');
      if (sha256 !== ref.sha256 || bytes !== ref.bytes) throw new ShotgenIntegrityError(url, ref, { sha256, bytes });
      await fs.rename(partial, file);
      const done: DownloadedFile = { ...meta, path: file, bytes, sha256 };
      opts.onFile?.(done);
      return done;
    } finally {
      await fs.rm(partial, { force: true });
    }
  };

  for (const group of slidesByLocale(result)) {
    for (const slide of group.slides) {
      if (!slide.image) continue;
      // Named as in the ZIP (and by fastlane): 01_, 02_ … sort in slide order.
      const name = `${String(slide.index).padStart(2, '0')}_${safe(result.device)}_${safe(slide.role)}.png`;
      const file = group.locale ? path.join(dir, safe(group.locale), name) : path.join(dir, name);
      out.slides.push(
        await fetchTo(slide.image, file, { kind: 'slide', index: slide.index, ...(group.locale ? { locale: group.locale } : {}) }),
      );
    }
  }
  if (result.archive) out.archive = await fetchTo(result.archive, path.join(dir, `${safe(job.id)}.zip`), { kind: 'archive' });
  return out;
}
