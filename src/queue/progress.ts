/**
 * A running job's progress, written to its row. Reports come faster than writes are worth
 * (a slide every few tens of milliseconds): at most one write is in flight, and only the latest
 * report waiting behind it is kept.
 */
import type { Queryable } from '../db/pool.ts';
import { setProgress } from './queue.ts';

export class ProgressReporter {
  private pending: { done: number; total: number } | null = null;
  private writing: Promise<void> | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly workerId: string,
    private readonly jobId: string,
    private readonly onError: (error: unknown) => void,
  ) {}

  report(done: number, total: number): void {
    if (!Number.isInteger(done) || !Number.isInteger(total) || total <= 0 || done < 0 || done > total) return;
    this.pending = { done, total };
    this.writing ??= this.drain();
  }

  /** Resolves once every report so far is written (or failed); the job's end must come after. */
  async settle(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending) {
        const { done, total } = this.pending;
        this.pending = null;
        await setProgress(this.db, this.workerId, this.jobId, done, total).catch(this.onError);
      }
    } finally {
      this.writing = null;
    }
  }
}
