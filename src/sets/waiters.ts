/**
 * Long polling (`Prefer: wait=N`): a waiting request parks on its job's id and is woken by the
 * job's own end notification (shotgen_job_done, sent by the trigger that ends the job). One LISTEN
 * connection serves every waiter, so a thousand clients waiting cost the database nothing until
 * their jobs end.
 */
import type { Notifications } from '../db/notifications.ts';

export class JobWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly unsubscribe: () => void;

  constructor(notifications: Pick<Notifications, 'subscribe'>) {
    this.unsubscribe = notifications.subscribe('shotgen_job_done', {
      onNotify: (jobId) => this.wake(jobId),
      // Notifications may have been missed while the connection was down: let everyone look again.
      onReset: () => {
        for (const id of [...this.waiting.keys()]) this.wake(id);
      },
    });
  }

  get size(): number {
    let n = 0;
    for (const set of this.waiting.values()) n += set.size;
    return n;
  }

  private wake(jobId: string): void {
    const set = this.waiting.get(jobId);
    if (!set) return;
    this.waiting.delete(jobId);
    for (const fn of set) fn();
  }

  /**
   * Resolves when the job ends, after `ms`, or when `signal` aborts, whichever comes first. Register
   * before the last read of the job, so an end between the read and the wait is not missed.
   */
  wait(jobId: string, ms: number, signal?: AbortSignal): { ended: Promise<void>; cancel(): void } {
    let cancel = () => {};
    const ended = new Promise<void>((resolve) => {
      let set = this.waiting.get(jobId);
      if (!set) this.waiting.set(jobId, (set = new Set()));
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        const s = this.waiting.get(jobId);
        s?.delete(done);
        if (s?.size === 0) this.waiting.delete(jobId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      set.add(done);
      cancel = done;
    });
    return { ended, cancel };
  }

  close(): void {
    this.unsubscribe();
    for (const id of [...this.waiting.keys()]) this.wake(id);
  }
}
