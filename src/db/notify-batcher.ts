/**
 * Notifications for frequent changes, sent after commit in batches: all that this process asked
 * for within `delayMs` goes out in one statement. A NOTIFY inside the creating transaction would
 * make every create's commit markedly dearer (it was a third of a create's database time); this
 * way a burst of creates costs one small statement per few milliseconds, and listeners hear of a
 * change at most `delayMs` later. Should the process die before a flush, workers still find the
 * job by polling and other processes' cached account views expire (NotifiedCache's max age).
 */
import type { Queryable } from './pool.ts';
import type { Channel } from './notifications.ts';

export class NotifyBatcher {
  private pending = new Map<Channel, Set<string>>();
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Queryable,
    private readonly delayMs = 3,
    private readonly log: (msg: string, err: unknown) => void = () => undefined,
  ) {}

  notify(channel: Channel, payload = ''): void {
    let set = this.pending.get(channel);
    if (!set) this.pending.set(channel, (set = new Set()));
    set.add(payload);
    this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
  }

  /** Send what is pending now. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size === 0) return this.inFlight;
    const channels: string[] = [];
    const payloads: string[] = [];
    for (const [channel, set] of this.pending) {
      for (const payload of set) {
        channels.push(channel);
        payloads.push(payload);
      }
    }
    this.pending = new Map();
    this.inFlight = this.db
      .query('SELECT count(pg_notify(c, p)) FROM unnest($1::text[], $2::text[]) AS n(c, p)', [channels, payloads])
      .then(() => undefined, (e) => this.log('could not send notifications', e));
    return this.inFlight;
  }
}
