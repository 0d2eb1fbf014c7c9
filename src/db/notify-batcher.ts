/**
 * Notifications for frequent changes, sent after commit in batches: all that this process asks
 * for within `delayMs` goes out in one statement. A NOTIFY inside the creating transaction made
 * every create's commit markedly dearer (it was a third of a create's database time); this way a
 * burst of creates costs one small statement per few milliseconds.
 *
 * notify() resolves once its batch has been sent, so a caller that waits for it before answering
 * (as creates do) knows every process has been told by the time its client hears back. Should the
 * send fail twice, or the process die first, workers still find the job by polling and other
 * processes' cached account views expire (NotifiedCache's max age).
 */
import type { Queryable } from './pool.ts';
import type { Channel } from './notifications.ts';

const SEND = 'SELECT count(pg_notify(c, p)) FROM unnest($1::text[], $2::text[]) AS n(c, p)';

export class NotifyBatcher {
  private pending = new Map<Channel, Set<string>>();
  private timer: NodeJS.Timeout | null = null;
  private batchSent: { promise: Promise<void>; resolve: () => void } | null = null;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Queryable,
    private readonly delayMs = 3,
    private readonly log: (msg: string, err: unknown) => void = () => undefined,
  ) {}

  /** Queue a notification; resolves when its batch has gone out (never rejects). */
  notify(channel: Channel, payload = ''): Promise<void> {
    let set = this.pending.get(channel);
    if (!set) this.pending.set(channel, (set = new Set()));
    set.add(payload);
    if (!this.batchSent) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.batchSent = { promise, resolve };
      this.timer = setTimeout(() => void this.flush(), this.delayMs);
    }
    return this.batchSent.promise;
  }

  /** Send what is pending now. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.batchSent;
    this.batchSent = null;
    if (this.pending.size === 0) {
      batch?.resolve();
      return this.inFlight;
    }
    const channels: string[] = [];
    const payloads: string[] = [];
    for (const [channel, set] of this.pending) {
      for (const payload of set) {
        channels.push(channel);
        payloads.push(payload);
      }
    }
    this.pending = new Map();
    const send = () => this.db.query(SEND, [channels, payloads]);
    this.inFlight = send()
      .catch(send)
      .then(
        () => undefined,
        (e) => this.log('could not send notifications', e),
      )
      .finally(() => batch?.resolve());
    return this.inFlight;
  }
}
