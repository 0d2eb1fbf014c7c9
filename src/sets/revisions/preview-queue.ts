/**
 * The previews waiting for the preview thread. A preview that waits holds its plan only (the
 * slides' words and colours, a few KB); its screens are read and posted to the thread when its
 * turn starts, so at most `running` previews hold screen bytes at once. Before this, 100 previews
 * sent at once each read their screens and queued them on the thread: ~5 MB a waiting preview
 * (RSS 572 → 1,078 MB, not given back), and another account's previews waited behind all of them
 * (p99 70 → 283 ms).
 *
 * An account has at most `perAccount` previews here at once, waiting or drawn (then 429
 * `rate_limited` with Retry-After), and the next turn goes to the waiting account whose last
 * preview started longest ago: one account sending many waits behind each other account's next
 * one, never the other way round.
 */
import { Problem } from '../../core/problem.ts';

export interface PreviewQueueOptions {
  /** Previews an account may have waiting or being drawn at once; default 4. */
  perAccount?: number;
  /** Previews drawn at once (reading screens, on the thread); default 2, so one reads while one draws. */
  running?: number;
}

interface Waiting<P> {
  accountId: string;
  plan: P;
  /** Arrival order: the tie-break between accounts never served. */
  seq: number;
  start(): void;
}

export class PreviewQueue<P> {
  private readonly perAccount: number;
  private readonly running: number;
  private readonly waiting: Waiting<P>[] = [];
  /** Per account: previews entered and not yet left (being prepared, waiting or drawn). */
  private readonly held = new Map<string, number>();
  /** Per account with previews held: when its last one started (a counter), for the fair turn. */
  private readonly lastStart = new Map<string, number>();
  private active = 0;
  private seq = 0;
  private starts = 0;

  constructor(
    private readonly draw: (plan: P, signal?: AbortSignal) => Promise<unknown>,
    opts: PreviewQueueOptions = {},
  ) {
    this.perAccount = Math.max(1, opts.perAccount ?? 4);
    this.running = Math.max(1, opts.running ?? 2);
  }

  /**
   * Takes one of the account's places before its request is read further (so a refusal costs
   * nothing), or refuses. The returned function gives it back; call it once, whatever happens.
   */
  enter(accountId: string): () => void {
    const held = this.held.get(accountId) ?? 0;
    if (held >= this.perAccount) {
      throw new Problem(
        'rate_limited',
        `At most ${this.perAccount} previews of an account are drawn or waiting at once. Retry when one has answered.`,
        {},
        { 'Retry-After': '1' },
      );
    }
    this.held.set(accountId, held + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const now = (this.held.get(accountId) ?? 1) - 1;
      if (now > 0) this.held.set(accountId, now);
      else {
        this.held.delete(accountId);
        this.lastStart.delete(accountId);
      }
    };
  }

  /** Waits for the plan's turn, then draws it. Rejects with the signal's reason if aborted while waiting. */
  run<T>(accountId: string, plan: P, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    return new Promise<T>((resolve, reject) => {
      const entry: Waiting<P> = {
        accountId,
        plan,
        seq: this.seq++,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.active++;
          this.lastStart.set(accountId, ++this.starts);
          this.draw(plan, signal)
            .then((v) => resolve(v as T), reject)
            .finally(() => {
              this.active--;
              this.next();
            });
        },
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
      this.next();
    });
  }

  /** What waits, in arrival order: the account and the plan each holds (tests read it). */
  get queued(): readonly { accountId: string; plan: P }[] {
    return this.waiting.map(({ accountId, plan }) => ({ accountId, plan }));
  }

  /** Previews being drawn now. */
  get drawing(): number {
    return this.active;
  }

  private next(): void {
    while (this.active < this.running && this.waiting.length > 0) {
      // The account served longest ago (never: first), and within it its oldest preview.
      let best = 0;
      for (let i = 1; i < this.waiting.length; i++) {
        const a = this.waiting[i];
        const b = this.waiting[best];
        const la = this.lastStart.get(a.accountId) ?? 0;
        const lb = this.lastStart.get(b.accountId) ?? 0;
        if (la < lb || (la === lb && a.seq < b.seq)) best = i;
      }
      const [entry] = this.waiting.splice(best, 1);
      entry.start();
    }
  }
}
