/**
 * Reads jobs for polling, the most frequent request. A succeeded or failed job never changes again
 * (trigger jobs_terminal_guard), nor do its files, so once seen terminal it is served from memory.
 * A pending job is always read from the database: caching it would risk showing a status older
 * than one already committed. Picture URLs are signed afresh on every read.
 */
import type { Db } from '../db/pool.ts';
import { listJobFiles, type JobFile } from './files.ts';
import { withPictures, type PictureLinks } from './present.ts';
import { expiryBucket } from './signed-urls.ts';
import { findJob, TERMINAL, type PublicJob } from './jobs.ts';

interface Entry {
  accountId: string;
  job: PublicJob;
  files: JobFile[];
  /** The job as last presented with signed links, and for which origin and expiry hour. */
  presented?: { key: string; job: PublicJob };
}

export class JobReader {
  private readonly terminal = new Map<string, Entry>();

  constructor(
    private readonly db: Db,
    private readonly maxEntries = 20_000,
  ) {}

  /** The job, or null when this account has no such job; with `links`, its pictures' URLs too. */
  async get(accountId: string, jobId: string, links?: PictureLinks): Promise<PublicJob | null> {
    const entry = await this.entry(accountId, jobId);
    return entry ? this.present(entry, links) : null;
  }

  /**
   * A finished job this process already holds, synchronously: the most frequent poll costs no
   * promise. Null when it is another account's; undefined when it must be read with get().
   */
  peek(accountId: string, jobId: string, links?: PictureLinks): PublicJob | null | undefined {
    const hit = this.terminal.get(jobId);
    if (!hit) return undefined;
    return hit.accountId === accountId ? this.present(hit, links) : null;
  }

  private present(entry: Entry, links: PictureLinks | undefined): PublicJob {
    if (!links || entry.files.length === 0) return entry.job;
    // Signed URLs change once an hour (their expiry is rounded up to the hour): a finished job
    // polled again within the hour gets the same answer, without signing every URL again.
    const key = `${links.origin}\n${expiryBucket(links.now)}`;
    if (entry.presented?.key !== key) entry.presented = { key, job: withPictures(entry.job, entry.files, links) };
    return entry.presented.job;
  }

  private async entry(accountId: string, jobId: string): Promise<Entry | null> {
    const hit = this.terminal.get(jobId);
    if (hit) return hit.accountId === accountId ? hit : null;
    const job = await findJob(this.db, accountId, jobId);
    if (!job) return null;
    const entry = { accountId, job, files: job.status === 'succeeded' ? await listJobFiles(this.db, jobId) : [] };
    if (TERMINAL.has(job.status)) {
      // Oldest first out: Map keeps insertion order.
      if (this.terminal.size >= this.maxEntries) this.terminal.delete(this.terminal.keys().next().value!);
      this.terminal.set(jobId, entry);
    }
    return entry;
  }
}
