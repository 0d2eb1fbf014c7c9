/**
 * One LISTEN connection per process, shared by every in-memory cache and the worker's wake-up.
 *
 * Caches are only safe while this connection is known to be up: if it drops, a revocation could be
 * missed. So the connection LISTENs on every channel before `connected` becomes true, is checked
 * with a query every few seconds (a half-open TCP connection raises no error by itself), and on
 * any loss every subscriber's `onReset` runs (caches flush and stop caching) until it is back.
 */
import pg from 'pg';

/** Every channel the service uses; all are LISTENed at connect, so none can be missed later. */
const CHANNELS = ['shotgen_api_keys', 'shotgen_credits', 'shotgen_jobs', 'shotgen_job_done'] as const;
export type Channel = (typeof CHANNELS)[number];

export interface Subscription {
  onNotify: (payload: string) => void;
  /** The connection was lost or re-established: forget everything learned before. */
  onReset?: () => void;
}

export class Notifications {
  private client: pg.Client | null = null;
  private readonly subs = new Map<Channel, Set<Subscription>>(CHANNELS.map((c) => [c, new Set()]));
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private healthTimer: NodeJS.Timeout | null = null;
  connected = false;

  constructor(
    private readonly url: string,
    private readonly log: (msg: string, err?: unknown) => void = () => undefined,
    private readonly healthCheckMs = 5_000,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  subscribe(channel: Channel, sub: Subscription): () => void {
    const set = this.subs.get(channel)!;
    set.add(sub);
    return () => set.delete(sub);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, keepAlive: true, application_name: 'shotgen-listen' });
    client.on('notification', (msg) => {
      for (const sub of this.subs.get(msg.channel as Channel) ?? []) sub.onNotify(msg.payload ?? '');
    });
    client.on('error', (e) => this.lost(client, e));
    client.on('end', () => this.lost(client, new Error('LISTEN connection ended')));
    try {
      await client.connect();
      await client.query(CHANNELS.map((c) => `LISTEN ${c};`).join(' '));
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    this.connected = true;
    this.resetAll();
    this.healthTimer = setInterval(() => {
      client.query('SELECT 1').catch((e) => this.lost(client, e));
    }, this.healthCheckMs);
    this.healthTimer.unref();
  }

  private lost(client: pg.Client, error: unknown): void {
    if (this.closed || client !== this.client) return;
    this.connected = false;
    this.client = null;
    if (this.healthTimer) clearInterval(this.healthTimer);
    this.log('LISTEN connection lost; caches disabled until it is back', error);
    this.resetAll();
    client.end().catch(() => undefined);
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
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.healthTimer) clearInterval(this.healthTimer);
    await this.client?.end().catch(() => undefined);
    this.client = null;
  }
}
