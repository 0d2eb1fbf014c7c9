/**
 * One LISTEN connection per process, shared by every in-memory cache and the worker's wake-up.
 *
 * Caches are only safe while this connection is up: if it drops, a revocation could be missed. So
 * on any connection loss every subscriber's `onReset` runs (caches flush and stop caching) until
 * the connection is back, LISTENing again, and `connected` is true.
 */
import pg from 'pg';

type Handler = (payload: string) => void;

export interface Subscription {
  onNotify: Handler;
  /** The connection was lost or re-established: forget everything learned before. */
  onReset?: () => void;
}

export class Notifications {
  private client: pg.Client | null = null;
  private readonly subs = new Map<string, Set<Subscription>>();
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pending: Promise<unknown> = Promise.resolve();
  connected = false;

  constructor(private readonly url: string, private readonly log: (msg: string, err?: unknown) => void = () => undefined) {}

  async start(): Promise<void> {
    await this.connect();
  }

  subscribe(channel: string, sub: Subscription): () => void {
    let set = this.subs.get(channel);
    if (!set) {
      set = new Set();
      this.subs.set(channel, set);
      const client = this.client;
      // One query at a time on the LISTEN connection: chain rather than overlap.
      if (client && this.connected) this.pending = this.pending.then(() => client.query(`LISTEN ${channel}`)).catch((e) => this.lost(e));
    }
    set.add(sub);
    return () => set.delete(sub);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (msg) => {
      for (const sub of this.subs.get(msg.channel) ?? []) sub.onNotify(msg.payload ?? '');
    });
    client.on('error', (e) => this.lost(e));
    client.on('end', () => this.lost(new Error('LISTEN connection ended')));
    await client.connect();
    for (const channel of this.subs.keys()) await client.query(`LISTEN ${channel}`);
    this.client = client;
    this.connected = true;
    this.resetAll();
  }

  private lost(error: unknown): void {
    if (this.closed || !this.connected) return;
    this.connected = false;
    this.log('LISTEN connection lost; caches disabled until it is back', error);
    this.resetAll();
    const old = this.client;
    this.client = null;
    old?.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect().catch((e) => {
        this.log('LISTEN reconnect failed', e);
        this.scheduleReconnect();
      });
    }, 500);
    this.reconnectTimer.unref();
  }

  private resetAll(): void {
    for (const set of this.subs.values()) for (const sub of set) sub.onReset?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.connected = false;
    await this.pending;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }
}
