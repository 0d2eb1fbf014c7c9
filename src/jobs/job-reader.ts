/**
 * Reads jobs for polling, the most frequent request. A succeeded or failed job never changes again
 * (trigger jobs_terminal_guard), so once seen terminal it is served from memory. A pending job is
 * always read from the database: caching it would risk showing a status older than one already
 * committed.
 */
import type { Db } from '../db/pool.ts';
import { findJob, TERMINAL, type PublicJob } from './jobs.ts';

interface Entry {
  accountId: string;
  job: PublicJob;
}

export class JobReader {
  private readonly terminal = new Map<string, Entry>();

  constructor(private readonly db: Db, private readonly maxEntries = 20_000) {}

  /** The job, or null when this account has no such job. */
  async get(accountId: string, jobId: string): Promise<PublicJob | null> {
    const hit = this.terminal.get(jobId);
    if (hit) return hit.accountId === accountId ? hit.job : null;
    const job = await findJob(this.db, accountId, jobId);
    if (!job) return null;
    if (TERMINAL.has(job.status)) {
      // Oldest first out: Map keeps insertion order.
      if (this.terminal.size >= this.maxEntries) this.terminal.delete(this.terminal.keys().next().value!);
      this.terminal.set(jobId, { accountId, job });
    }
    return job;
  }
}
