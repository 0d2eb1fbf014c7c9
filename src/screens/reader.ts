/**
 * Reads each uploaded screen once, off the thread that answers HTTP: a one-thread piscina pool
 * (./ocr-worker.ts) at a low priority, the text kept on the screen's row. The upload does not wait;
 * a set's job waits for its screens (waitForScreenText).
 */
import { Piscina } from 'piscina';
import type { Queryable } from '../db/pool.ts';
import { workerFile } from '../core/worker-file.ts';

export interface ScreenReaderLog {
  warn(obj: object, msg: string): void;
}

export class ScreenReader {
  private readonly pool: Piscina;
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly db: Queryable,
    private readonly log?: ScreenReaderLog,
    opts: { idleTimeout?: number } = {},
  ) {
    this.pool = new Piscina({
      ...workerFile(import.meta.url, 'ocr-worker'),
      minThreads: 0,
      maxThreads: 1,
      // The models take ~0.3 s CPU to load: a thread stays a while for the next upload.
      idleTimeout: opts.idleTimeout ?? 60_000,
      concurrentTasksPerWorker: 1,
    });
  }

  /** Reads the screen's stored bytes and keeps the text (or the failure) on its row; never throws. */
  read(screenId: string, bytes: Uint8Array): Promise<void> {
    // Its own copy: a request's Buffer may be a view of a larger one, all of which would be cloned.
    const own = Uint8Array.prototype.slice.call(bytes);
    const done = (this.pool.run(own) as Promise<string[]>)
      .then((text) => this.keep(screenId, 'read', text))
      .catch(async (error: unknown) => {
        this.log?.warn({ err: error, screenId }, 'reading a screen failed');
        await this.keep(screenId, 'failed', null);
      })
      .catch((error: unknown) => this.log?.warn({ err: error, screenId }, 'keeping a screen’s text failed'))
      .finally(() => this.running.delete(done));
    this.running.add(done);
    return done;
  }

  private async keep(screenId: string, status: 'read' | 'failed', text: string[] | null): Promise<void> {
    await this.db.query("UPDATE screens SET text = $2, text_status = $3 WHERE id = $1 AND text_status = 'pending'", [
      screenId,
      text,
      status,
    ]);
  }

  /** Waits for the reads under way (their rows are written), then ends the thread. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.running]);
    await this.pool.destroy();
  }
}
