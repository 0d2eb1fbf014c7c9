/**
 * Reads jobs for polling, the most frequent request. A succeeded or failed job never changes again
 * (trigger jobs_terminal_guard), so once seen terminal it is served from memory, already
 * serialised. A pending job is always read from the database: caching it would risk showing a
 * status older than one already committed.
 */
import type { Db } from '../db/pool.ts';
import { findJob, TERMINAL, type PublicJob } from './jobs.ts';

interface Entry {
  accountId: string;
  job: PublicJob;
  /** The response body. A string, not a Buffer: node:http sends a string body together with the
   *  headers in one write, a Buffer as a second chunk (measured: the socket write dominated). */
  json: string;
}

export class JobReader {
  private readonly terminal = new Map<string, Entry>();

  constructor(private readonly db: Db, private readonly maxEntries = 20_000) {}

  /** A finished job's answer from memory, or undefined (then ask getJson). Synchronous. */
  peekFinished(accountId: string, jobId: string): string | undefined {
    const hit = this.terminal.get(jobId);
    return hit && hit.accountId === accountId ? hit.json : undefined;
  }

  /** The job and its JSON, or null when this account has no such job. */
  async getJson(accountId: string, jobId: string): Promise<{ job: PublicJob; json: string } | null> {
    const hit = this.terminal.get(jobId);
    if (hit) return hit.accountId === accountId ? hit : null;
    const job = await findJob(this.db, accountId, jobId);
    if (!job) return null;
    const entry = { accountId, job, json: JSON.stringify(job) };
    if (TERMINAL.has(job.status)) {
      // Oldest first out: Map keeps insertion order.
      if (this.terminal.size >= this.maxEntries) this.terminal.delete(this.terminal.keys().next().value!);
      this.terminal.set(jobId, entry);
    }
    return entry;
  }
}
