/**
 * Reads each uploaded screen once, off the thread that answers HTTP: a one-thread piscina pool
 * (./ocr-worker.ts) at a low priority, the text kept on the screen's row. The upload does not wait;
 * a set's job waits for its screens (waitForScreenText).
 *
 * What the model read is kept by the account and the picture's sha256 (ScreenTextCache): the same
 * picture uploaded again by one account (to another app, by `shotgen generate --screens` run twice)
 * is read once a process, and never costs the model's ~0.5 s CPU again. Never across accounts: how
 * soon text appears must not tell one account what another uploaded.
 *
 * The thread is the process's, shared by its readers: a service has one reader, but a test process
 * builds a service (and so a reader) per test, and each new thread loaded the worker's modules and
 * the two ONNX models again. A reader's close() waits for its own reads; the thread then ends
 * after its idle timeout, and an idle piscina thread is unref'd, so it never holds the process open.
 */
import { createHash } from 'node:crypto';
import { Piscina } from 'piscina';
import type { Queryable } from '../db/pool.ts';
import { workerFile } from '../core/worker-file.ts';

export interface ScreenReaderLog {
  warn(obj: object, msg: string): void;
}

/**
 * The lines read from each picture, by its sha256, the most recently used `max` kept. A read under
 * way is kept as its promise, so that two uploads of one picture at once share one reading; a
 * failed reading is dropped, to be tried again on the next upload.
 */
export class ScreenTextCache {
  private readonly entries = new Map<string, Promise<string[]>>();

  constructor(private readonly max = 1000) {}

  /** The lines for `key`, from `read` only when no reading of that picture is kept or under way. */
  get(key: string, read: () => Promise<string[]>): Promise<string[]> {
    const kept = this.entries.get(key);
    if (kept) {
      // Most recently used last: the first key is the one to evict.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept;
    }
    const reading = read();
    this.entries.set(key, reading);
    reading.catch(() => {
      if (this.entries.get(key) === reading) this.entries.delete(key);
    });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return reading;
  }
}

/** The process's: every reader in it shares what was read. */
const processCache = new ScreenTextCache();

/** The process's OCR thread (started on the first read; it exits after `idleTimeout` idle). */
let processPool: Piscina | null = null;
function ocrPool(idleTimeout: number): Piscina {
  processPool ??= new Piscina({
    ...workerFile(import.meta.url, 'ocr-worker'),
    minThreads: 0,
    maxThreads: 1,
    idleTimeout,
    concurrentTasksPerWorker: 1,
  });
  return processPool;
}

export class ScreenReader {
  private readonly pool: Piscina;
  private readonly running = new Set<Promise<void>>();
  private readonly cache: ScreenTextCache;
  /** Pictures the model read (the others came from the cache). */
  modelReads = 0;

  constructor(
    private readonly db: Queryable,
    private readonly log?: ScreenReaderLog,
    opts: { idleTimeout?: number; cache?: ScreenTextCache } = {},
  ) {
    this.cache = opts.cache ?? processCache;
    // The models take ~0.3 s CPU to load: a thread stays a while for the next upload.
    this.pool = ocrPool(opts.idleTimeout ?? 60_000);
  }

  /**
   * Reads the screen's stored bytes and keeps the text (or the failure) on its row; never throws.
   * `cacheKey` names the picture for the cache (the caller's: the account and the upload's hash,
   * as the stored bytes are made from it alone); by default the hash of `bytes`.
   */
  read(screenId: string, bytes: Uint8Array, cacheKey?: string): Promise<void> {
    const done = this.lines(bytes, cacheKey)
      .then((lines) => this.keep(screenId, 'read', lines))
      .catch(async (error: unknown) => {
        this.log?.warn({ err: error, screenId }, 'reading a screen failed');
        await this.keep(screenId, 'failed', null);
      })
      .catch((error: unknown) => this.log?.warn({ err: error, screenId }, 'keeping a screen’s text failed'))
      .finally(() => this.running.delete(done));
    this.running.add(done);
    return done;
  }

  /**
   * The picture's lines, read on the reader's thread (or from the cache under `cacheKey`, by
   * default the hash of `bytes`); rejects when the reading fails. Kept nowhere: the caller does.
   */
  lines(bytes: Uint8Array, cacheKey?: string): Promise<string[]> {
    const key = cacheKey ?? createHash('sha256').update(bytes).digest('hex');
    return this.cache.get(key, () => {
      this.modelReads++;
      // Its own copy: a request's Buffer may be a view of a larger one, all of which would be cloned.
      return this.pool.run(Uint8Array.prototype.slice.call(bytes)) as Promise<string[]>;
    });
  }

  private async keep(screenId: string, status: 'read' | 'failed', text: string[] | null): Promise<void> {
    await this.db.query("UPDATE screens SET text = $2, text_status = $3 WHERE id = $1 AND text_status = 'pending'", [
      screenId,
      text,
      status,
    ]);
  }

  /**
   * Waits for the reads under way (their rows are written). The process's thread is left to its
   * idle timeout: another reader in the process may be using it.
   */
  async close(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}
