/**
 * Creates of one account, batched in this process: while one charge of an account is in flight,
 * the account's next creates wait here and then go together, in one statement and one commit.
 *
 * Why: a charge updates the account's one credit row, and PostgreSQL holds that row until the
 * commit record is on disk. One account's creates therefore ran one commit flush after another,
 * whatever the CPU: on this project's virtual disk (0.5 ms an fdatasync idle, several ms busy) that
 * capped one account at roughly a thousand creates a second. Batched, a flush serves every create
 * that arrived during the previous one. Waiting here instead of on the row lock also leaves the
 * pool's connections to other accounts.
 *
 * Exactness does not change: a batch either fits the balance whole and is written whole, or each
 * of its creates runs again alone, in arrival order, and gets the answer it would have had.
 */

export interface ChargeRunners<I, R> {
  /** One create alone: its result, or its refusal (a thrown Problem). */
  one(item: I): Promise<R>;
  /** Several in one statement: every result in order, or null when they do not all fit. */
  many(items: I[]): Promise<R[] | null>;
}

interface Waiting<I, R> {
  item: I;
  resolve: (r: R) => void;
  reject: (e: unknown) => void;
}

/** At most this many creates go in one statement. */
export const MAX_BATCH = 64;

export class ChargeBatches<I, R> {
  /** Per key (account and credit period): the creates waiting for the one in flight. */
  private readonly queues = new Map<string, Waiting<I, R>[]>();

  constructor(private readonly runners: ChargeRunners<I, R>) {}

  /** Batches run so far with more than one create (for tests and the bench). */
  combined = 0;

  charge(key: string, item: I): Promise<R> {
    const queue = this.queues.get(key);
    if (queue) return new Promise<R>((resolve, reject) => queue.push({ item, resolve, reject }));
    this.queues.set(key, []);
    const first = this.runners.one(item);
    void first.then(
      () => this.next(key),
      () => this.next(key),
    );
    return first;
  }

  private next(key: string): void {
    const queue = this.queues.get(key)!;
    if (queue.length === 0) {
      this.queues.delete(key);
      return;
    }
    const batch = queue.splice(0, MAX_BATCH);
    void this.run(batch).finally(() => this.next(key));
  }

  private async run(batch: Waiting<I, R>[]): Promise<void> {
    if (batch.length === 1) {
      await this.runners.one(batch[0].item).then(batch[0].resolve, batch[0].reject);
      return;
    }
    let results: R[] | null;
    try {
      results = await this.runners.many(batch.map((w) => w.item));
    } catch (error) {
      // Nothing of the batch was written (one statement): each create fails as it would alone.
      for (const w of batch) w.reject(error);
      return;
    }
    if (results) {
      this.combined++;
      batch.forEach((w, i) => w.resolve(results[i]));
      return;
    }
    // Not all of them fit: each alone, in arrival order, gets its own answer (some 201, the rest 402).
    for (const w of batch) await this.runners.one(w.item).then(w.resolve, w.reject);
  }
}
